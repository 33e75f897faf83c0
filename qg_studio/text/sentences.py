"""The house sentence rule: where a story's sentences start and end.

One rule, used twice: :func:`sentences` cuts raw text (cheap, no parse), and the spaCy
pipeline's ``qg_sentence_breaks`` component (:mod:`qg_studio.text.parse`) places a parsed
``Doc``'s boundaries by the same offsets, so a generator's sentence and an answerer's
evidence sentence are always the same span of the story.

Why not spaCy's own boundaries: on 380 FairytaleQA val sections the parser and this rule
agreed on 259; the parser made a sentence of a lone closing quote ('... too long', '"')
and split speech from its tag, and the rule before this one split '"Oh, that is my
brother!" cried the girl.' after the speech. Speech followed by a lower-case word goes on.

The frozen windows of the trained models cut with their own rule
(:data:`qg_studio.models.prompts.TRAINING_SENTENCE_BREAK`): what they were trained on.
"""

from __future__ import annotations

import re

# A sentence ends after . ! or ? (closing quotes and brackets stay with it) when the next
# word does not go on in lower case ('"Where?" asked the cat' is one sentence) and the
# stop is not a title's ("Mr. Fox"). A paragraph break is always a boundary; a single
# line break is not: stories pasted from a book are hard-wrapped ("all but the\nMiller").
_TITLES = "".join(rf"(?<!\b{t}\.)" for t in ("Mr", "Mrs", "Ms", "Dr", "St"))
_SENTENCE_BREAK = re.compile(rf"(?<=[.!?]){_TITLES}([\"'\u201d\u2019)\]]*)\s+(?!\s|[a-z])|\n\s*\n+")


_LINE_BREAK = r"(?:\r\n|\r|\n)"
_LINE_BREAKS = re.compile(rf"{_LINE_BREAK}(?:[ \t]*{_LINE_BREAK})*")


def unwrapped(text: str) -> str:
    """``text`` with each lone line break (a hard wrap: "\\n", "\\r\\n", or "\\r" as
    some of FairytaleQA's files have it) read as spaces, paragraph breaks kept: what the
    parser should see. The parser takes a wrap for a word ("At last the goose\\nhit upon a
    plan" made "goose" the root and "hit" its modifier, so nobody hit upon anything). Of the
    same length, so an offset into one is an offset into the other."""

    def one_line(m: re.Match) -> str:
        lone = m.group() in ("\n", "\r", "\r\n")
        return " " * len(m.group()) if lone else m.group()

    return _LINE_BREAKS.sub(one_line, text)


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of the sentences of ``text``, blank ones left out;
    each starts at its first character and ends after its last (no spaces at either end)."""
    out, start = [], 0
    for match in _SENTENCE_BREAK.finditer(text):
        end = match.start() + len(match.group(1) or "")  # closing quotes stay with it
        _add(text, start, end, out)
        start = match.end()
    _add(text, start, len(text), out)
    return out


def _add(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    piece = text[start:end]
    if piece.strip():
        lead = len(piece) - len(piece.lstrip())
        out.append((start + lead, start + len(piece.rstrip())))


def sentence_start(text: str, at: int) -> int:
    """Where the sentence holding character ``at`` starts."""
    return max((a for a, _ in sentences(text) if a <= at), default=0)


def mark_sentence_starts(doc) -> None:
    """Give every token of ``doc`` its ``is_sent_start`` by :func:`sentences` of its text
    (the parser then keeps to them). A token starts a sentence when the rule's sentence
    starts at it, or, for spaces between sentences, never."""
    starts = {a for a, _ in sentences(doc.text)}
    for token in doc[1:]:
        token.is_sent_start = token.idx in starts
