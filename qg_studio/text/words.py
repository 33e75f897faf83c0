"""Words: the one tokenizer, stop words, stems and number words.

:func:`words` is how every module splits text into words (lower-cased; a contraction or a
possessive stays one word, "didn't", "fox's"; curly apostrophes count as straight ones).
The shipped question tagger was trained on exactly these tokens. Two tokenizers are not
this one, on purpose: the metrics' (:mod:`qg_studio.evaluate`, kept to the reference
implementations they are tested against) and the trained models' windows
(:mod:`qg_studio.models.prompts`, frozen with the weights).
"""

from __future__ import annotations

import re
from functools import lru_cache

WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


def words(text: str) -> list[str]:
    """The lower-cased words of ``text``, in order."""
    return WORD.findall(text.lower().translate(_APOSTROPHES))


def content_words(text: str, purpose: str = "retrieval") -> list[str]:
    """The stems of the words that carry meaning (a possessive's "'s" dropped), by the
    stop words of ``purpose`` (see :func:`stop_words`; by default the retriever's, which
    keeps the words children's questions hinge on: give, back, first, never)."""
    stop = stop_words(purpose)
    return [stem(w.removesuffix("'s")) for w in words(text) if w not in stop]


@lru_cache(maxsize=None)
def stop_words(purpose: str | None = None) -> frozenset[str]:
    """spaCy's English stop words (``purpose`` None), or one of the measured lists of the
    stop-word table (qg_studio/lang/en/stop_words.tsv, which says why each is not
    spaCy's): "retrieval", "generation", "answers", "tagger".

    spaCy's set is used as it is: the answer windows of a model in training read it
    (prompts.question_window), so it must not drift. A function, so that importing this
    module does not import spaCy.
    """
    if purpose is not None:
        from qg_studio import lang

        rows = lang.table("stop_words.tsv")
        if purpose not in rows[0]:
            raise KeyError(f"no stop-word list {purpose!r} in stop_words.tsv")
        return frozenset(row["word"] for row in rows if row[purpose] == "x")
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude suffix strip (lower-case word in, stem out): enough to match "walked" with
    "walks" in a reworded answer, and cheap enough for every word of every section; the
    tagger's features and the retriever's scores are built on it."""
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def one_short_syllable(word: str) -> bool:
    """One syllable ending in one vowel and one consonant ("star", "scrap", "quit"): such
    a verb doubles its consonant before "-ed" and "-ing" ("starred", "quitting")."""
    vowels = "aeiou"
    shape = word.lower().replace("qu", "q")  # its "u" is a "w"
    return (
        len(shape) >= 3
        and shape[-1] not in vowels + "wxy"
        and shape[-2] in vowels
        and shape[-3] not in vowels
        and not any(c in vowels for c in shape[:-2])
    )


def like_num(word: str) -> bool:
    """Whether ``word`` is a number, in digits or in words ("12", "twelve", "3rd")."""
    from spacy.lang.en.lex_attrs import like_num as spacy_like_num

    return bool(spacy_like_num(word))
