"""Clauses that leave their verb or what it says out, which a question cut from them
garbles: a verb said once for two objects ("She gave Pip one half and Tansy the other")
and a verb phrase said once for two subjects ("The farmer was pleased, and so was his
wife": "What happened because …? – his wife was").
"""

from __future__ import annotations

# "so was his wife", "neither did the cat", "nor could he": the same as the clause before
LIKEWISE = ("so", "neither", "nor")
SAID_BEFORE = ("acomp", "attr", "dobj", "xcomp", "ccomp", "prep", "oprd")


def likewise(verb) -> bool:
    """ "and so was his wife": an auxiliary whose subject follows a "so", "neither" or
    "nor" and whose predicate is the clause before's, left out."""
    return (
        (verb.lemma_ in ("be", "do", "have") or verb.tag_ == "MD")
        and any(c.lower_ in LIKEWISE and c.i < verb.i for c in verb.children)
        and not any(c.dep_ in SAID_BEFORE for c in verb.children)
    )


def gapped(verb) -> bool:
    """ "She gave Pip one half and Tansy the other": the second "gave" left out, which a
    parse reads as two objects, or as an object joined to a name and then a second
    object; a question cut from it asks "What did she give Pip the other half?"."""
    if likewise(verb):
        return True
    objects = [c for c in verb.children if c.dep_ == "dobj"]
    if not objects and any(c.dep_ == "conj" and c.pos_ in ("NOUN", "PROPN") for c in verb.children):
        return True  # "a Sparrow paid, and a family of Finches": more who did it, verb left out
    # Two objects with an "and" between them ("sang it her song" has none, and stays).
    between = verb.doc[objects[0].i + 1 : objects[-1].i] if len(objects) > 1 else []
    if any(t.dep_ == "cc" for t in between):
        return True
    return any(
        c.dep_ == "appos" and any(j.dep_ == "conj" and j.i < c.i for j in obj.children)
        for obj in objects
        for c in obj.children
    )
