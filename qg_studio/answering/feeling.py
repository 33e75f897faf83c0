"""Feeling answers a child would give: "scared", not "trembled".

A story often shows a feeling through what a character does ("the trolls screamed",
"she wept") or says it with an adverb ("he answered angrily"). A span model finds those
words; the answer a teacher expects to "How did the trolls feel?" is the feeling itself.
This turns such a span into the feeling word and leaves spans that already name a feeling
("delighted", "joy", "more than pleased") as they are.
"""

from __future__ import annotations

import re

from qg_studio.reading.lexicon import NAMED_FEELINGS
from qg_studio.reading.lexicon import SHOWN_BY_WORD
from qg_studio.text.words import words as word_list

_FEELING_QUESTION = re.compile(
    r"\bhow\b.*\bfe(?:el|els|elt|eling)\b|\bwhat\b.*\bfe(?:el|lt)\b.*\?|\bfeelings?\b", re.I
)

# What characters do, or how they do it, and the feeling it shows (the feeling table).
_CUE = SHOWN_BY_WORD
# Words that already name a feeling: a span holding one is answer enough.
_NAMED = NAMED_FEELINGS
SHORT_SPAN = 6  # words; a longer span is a whole event, not a feeling shown in a word


def is_feeling_question(question: str) -> bool:
    return bool(_FEELING_QUESTION.search(question))


def feeling_answer(question: str, span: str) -> str | None:
    """The feeling a span shows, when the question asks for one and the span only shows it."""
    if not is_feeling_question(question):
        return None
    words = word_list(span)
    if not words or len(words) > SHORT_SPAN or any(w in _NAMED for w in words):
        return None
    for word in words:
        if word in _CUE:
            return _CUE[word]
    return None
