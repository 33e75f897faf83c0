"""Whether a question is put together as English puts one: after "did", "does" or "do" the
verb is bare ("Why did the Crow tumble …?"), every verb that "and" joins to it too. A model
writing the question word by word slips here ("Why did the Crow tumbled down the hill and
run away?", "Who did the old willow shriek and flapped over?"); a child reading it stumbles,
and a teacher reads a tool that cannot write.
"""

from __future__ import annotations

from qg_studio.reading.analysis import Analysis

DO_SUPPORT = frozenset({"did", "does", "do"})
NOT_BARE = frozenset({"VBD", "VBN", "VBZ"})  # "tumbled", "taken", "runs"


def misformed(question: Analysis) -> str | None:
    """Why ``question`` (its parse) is not well formed, or None."""
    words = [t for t in question.doc if not t.is_punct]
    do = next((t for t in words[:3] if t.lower_ in DO_SUPPORT), None)
    if do is None:
        return None
    verb = do.head if do.dep_ == "aux" else do
    # A joined past participle is most often a state the parser joined ("feel satisfied
    # and contented"): only a joined past tense counts.
    joined = [(verb, NOT_BARE)] + [
        (c, {"VBD"}) for c in verb.children if c.dep_ == "conj" and c.pos_ == "VERB" and _and(c)
    ]
    if any(v.i > do.i and v.tag_ in tags and not _bare_too(v) for v, tags in joined):
        return f'a verb not bare after "{do.lower_}"'
    return None


def _and(conj) -> bool:
    """The text joins the verb to the first with "and" or "or" (a parse also joins a verb
    of a clause further on: "What did the goose do after the fox ran off?")."""
    first = conj.head
    return any(c.dep_ == "cc" and first.i < c.i < conj.i for c in first.children)


def _bare_too(verb) -> bool:
    """A past that reads as the bare verb: "put", "set", "hit", "lay"."""
    return verb.lower_ == verb.lemma_.lower() or verb.lower_ in SAME_AS_BARE


SAME_AS_BARE = frozenset({"lay"})  # the past of "lie", and "lay" itself
