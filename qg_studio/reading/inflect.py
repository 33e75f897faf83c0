"""Verb forms for do-support and tense changes.

spaCy's rule lemmatizer is right for most verbs but stumbles on some irregular past
forms in old-fashioned prose ("slew", "bade", "wrought"), and questions need the
bare form after "did" and the past form in "Who ...?" questions, so irregulars are
listed once (a data file, qg_studio/lang/en/irregular_verbs.json).
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.text.words import one_short_syllable

# lemma: (past, past participle), a data file (qg_studio/lang/en/irregular_verbs.json).
IRREGULAR: dict[str, tuple[str, str]] = {
    lemma: (past, participle)
    for lemma, (past, participle) in lang.data("irregular_verbs.json")["verbs"].items()
}

# Past and participle forms back to the lemma; a form shared by two verbs ("lay",
# "found", "wound") keeps the more common reading.
_FROM_FORM: dict[str, str] = {}
for _lemma, (_past, _part) in IRREGULAR.items():
    for _form in (_part, _past):
        _FROM_FORM.setdefault(_form, _lemma)
for _form, _lemma in {
    "lay": "lie",
    "found": "find",
    "wound": "wind",
    "ground": "grind",
    "were": "be",
    "wrought": "work",
    "saw": "see",
    "left": "leave",
    "lit": "light",
    "rent": "rend",
}.items():
    _FROM_FORM[_form] = _lemma

_VOWELS = "aeiou"
_STRESSED_LAST = frozenset(lang.function_words("stress_final_verbs"))


def is_past_form(form: str) -> bool:
    """Whether ``form`` can only be an irregular verb's past ("leapt", "swam"; not "put"
    or "read", whose past is their present too): spaCy tags some of them as present."""
    low = form.lower()
    lemma = _FROM_FORM.get(low)
    return lemma is not None and low != lemma and IRREGULAR.get(lemma, ("",))[0] == low


def lemma_of(form: str, spacy_lemma: str | None = None) -> str:
    """The bare form of a verb form, trusting the irregular table over spaCy."""
    low = form.lower()
    if low in _FROM_FORM:
        return _FROM_FORM[low]
    if low in lang.function_words("be_forms"):
        return "be"
    if low in lang.function_words("have_forms"):
        return "have"
    if low in ("does", "did", "done"):
        return "do"
    if spacy_lemma and spacy_lemma.isalpha():
        return spacy_lemma.lower()
    return _strip_suffix(low)


def _strip_suffix(low: str) -> str:
    if low.endswith("ied"):
        return low[:-3] + "y"
    if low.endswith("ed") and len(low) > 4:
        stem = low[:-2]
        if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
            return stem[:-1]
        return stem if not stem.endswith(("v", "c", "at", "ur")) else stem + "e"
    return low


def _doubles(lemma: str) -> bool:
    """A final consonant doubled before "-ed" and "-ing": one short syllable ("sit",
    "stop", not "open"), or a last syllable that takes the stress ("begin", "admit")."""
    shape = lemma.replace("qu", "q")
    last_short = (
        len(shape) >= 3
        and shape[-1] not in _VOWELS + "wxy"
        and shape[-2] in _VOWELS
        and shape[-3] not in _VOWELS
    )
    return one_short_syllable(lemma) or (last_short and lemma in _STRESSED_LAST)


def past_of(lemma: str) -> str:
    lemma = lemma.lower()
    if lemma in IRREGULAR:
        return IRREGULAR[lemma][0]
    if lemma.endswith("e"):
        return lemma + "d"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in _VOWELS:
        return lemma[:-1] + "ied"
    if _doubles(lemma):
        return lemma + lemma[-1] + "ed"
    return lemma + "ed"


def ing_of(lemma: str) -> str:
    """ "sit" → "sitting", "hide" → "hiding", "lie" → "lying", "see" → "seeing"."""
    lemma = lemma.lower()
    if lemma.endswith("ie"):
        return lemma[:-2] + "ying"
    if lemma.endswith("e") and not lemma.endswith(("ee", "oe", "ye")) and lemma != "be":
        return lemma[:-1] + "ing"
    if _doubles(lemma):
        return lemma + lemma[-1] + "ing"
    return lemma + "ing"


def third_person_of(lemma: str) -> str:
    lemma = lemma.lower()
    special = {"be": "is", "have": "has", "do": "does", "go": "goes"}
    if lemma in special:
        return special[lemma]
    if lemma.endswith(("s", "sh", "ch", "x", "z", "o")):
        return lemma + "es"
    if lemma.endswith("y") and len(lemma) > 1 and lemma[-2] not in _VOWELS:
        return lemma[:-1] + "ies"
    return lemma + "s"


def do_support(tag: str, plural_subject: bool = False) -> str:
    """The form of "do" that carries the tense of a verb with Penn tag ``tag``."""
    if tag == "VBZ":
        return "does"
    if tag == "VBP":
        return "do"
    return "did"
