"""A word's phrase, as a question cuts it out of the text, and the span it covers.

Apart from :mod:`.grammar` (which turns a clause into a question) so the finders that
only cut a phrase out, a place or an object, need no question grammar.
"""

from __future__ import annotations

from qg_studio.reading.inflect import is_past_form


def before_joined_deed(tokens: list) -> list:
    """Words up to an "and" that joins a past deed of its own: "into the river [and
    drank]", which the tagger took for a noun or an adjective; after "did" it reads
    "Why did she jump into the river and drank?"."""
    for n, t in enumerate(tokens[:-1]):
        after = tokens[n + 1]
        if t.dep_ == "cc" and (after.tag_ == "VBD" or is_past_form(after.text)):
            return tokens[:n]
    return tokens


def of_oneself(prep) -> bool:
    """ "with himself", "of herself": a phrase about its own subject ("very pleased with
    himself" is how he felt, where "afraid of the dark" says of what)."""
    return [o.lower_.endswith(("self", "selves")) for o in prep.children] == [True]


def phrase_of(token) -> list:
    """A word with the words that hang from it, without an inverted sentence's "there"
    that the parser may hang on its last noun ("In a village among the hills there hung a
    bell": the place ends at "hills")."""
    phrase = list(token.subtree)
    doc = token.doc
    phrase = before_joined_deed(phrase)
    aside = set_off(token)
    phrase = [t for t in phrase if t.i not in aside]
    while (
        len(phrase) > 1
        and phrase[-1].lower_ in ("there", "here")
        and phrase[-1].i + 1 < len(doc)
        and doc[phrase[-1].i + 1].pos_ in ("VERB", "AUX")
    ):
        phrase = phrase[:-1]
    return phrase


def set_off(token) -> set[int]:
    """ "crawled onto the bank, tired and cross": how one felt, parsed as the bank's, set
    off by a comma: no part of the place, nor left in a question without its comma."""
    for t in token.subtree:
        if t.dep_ == "amod" and t.i > 1 and t.nbor(-1).text == "," and t.head.i < t.i:
            return {t.i - 1} | {x.i for x in t.subtree}
    return set()


def span_of(tokens: list) -> tuple[int, int]:
    """The character span of some tokens, edge spaces and punctuation left out
    (an apostrophe or a hyphen kept)."""
    tokens = [t for t in tokens if not t.is_space and (not t.is_punct or t.text in "'-")]
    if not tokens:
        return 0, 0
    first, last = min(tokens, key=lambda t: t.i), max(tokens, key=lambda t: t.i)
    return first.idx, last.idx + len(last.text)
