"""The words distractors are judged by: type cues, fallbacks, and the test for the right
answer in disguise (split from :mod:`qg_studio.export.distractors`)."""

from __future__ import annotations

import re

from qg_studio import lang
from qg_studio.reading.lexicon import FEELING_GROUP
from qg_studio.text.words import content_words
from qg_studio.text.words import words as word_list

# The lexicons are data files (qg_studio/lang/en/distractor_*.json): the words that tell
# an answer's type, and the fallback options, in the order they are offered.
_CUES = {
    key: frozenset(words)
    for key, words in lang.data("distractor_cues.json").items()
    if not key.startswith("_")
}
CHARACTER_NOUNS = _CUES["character_nouns"]
PLACE_NOUNS = _CUES["place_nouns"]
TIME_NOUNS = _CUES["time_nouns"]
PLACE_PREPS = _CUES["place_prepositions"]
TIME_PREPS = _CUES["time_prepositions"]
CLAUSE_LEADS = _CUES["clause_leads"]
PRONOUNS = _CUES["pronouns"]
DETERMINERS = _CUES["determiners"]
NUMBER_WORDS = _CUES["number_words"]
_FALLBACKS = lang.data("distractor_fallbacks.json")
FALLBACK_FEELINGS: list[str] = _FALLBACKS["feelings"]
FALLBACK_CHARACTERS: list[str] = _FALLBACKS["characters"]
FALLBACK_PLACES: list[str] = _FALLBACKS["places"]
FALLBACK_TIMES: list[str] = _FALLBACKS["times"]
# Feelings grouped by meaning (the feeling table): a distractor never comes from the
# answer's own group.
FEELING_WORDS = FEELING_GROUP

# -- normalising and the "answer in disguise" test ------------------------------------


def normalise(text: str) -> str:
    words = [w for w in word_list(text) if w not in ("a", "an", "the")]
    return " ".join(words)


def answer_words(text: str) -> set[str]:
    """The content words that tell two short answers apart (the "answers" stop words keep
    numbers: "two coins" is not "three coins")."""
    return set(content_words(text, "answers"))


def same_answer(candidate: str, answer: str) -> bool:
    """True when ``candidate`` would be a right answer too (or cannot be told apart)."""
    a, b = normalise(candidate), normalise(answer)
    if not a or not b or a == b:
        return True
    if re.search(rf"\b{re.escape(a)}\b", b) or re.search(rf"\b{re.escape(b)}\b", a):
        return True
    ca, cb = answer_words(candidate), answer_words(answer)
    if not ca or not cb:
        return False
    if ca <= cb or cb <= ca:
        return True
    jaccard = len(ca & cb) / len(ca | cb)
    if jaccard >= 0.5:
        return True
    fa = {FEELING_WORDS[w] for w in word_list(candidate) if w in FEELING_WORDS}
    fb = {FEELING_WORDS[w] for w in word_list(answer) if w in FEELING_WORDS}
    # "glad" for "happy" is the right answer reworded.
    return bool(fa) and fa == fb
