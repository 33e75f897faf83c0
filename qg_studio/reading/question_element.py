"""The narrative element a question's own first words name ("How did … feel" is a
feeling, "Why" a cause, "Where" a setting), one rule for every engine: the tagger reads
it before its model, and the model proposer keeps it over the element it was prompted
with, since a model asked for a setting may write a feeling question."""

from __future__ import annotations

import re

from qg_studio.schema import Element
from qg_studio.text.words import words

_RULES: tuple[tuple[re.Pattern, Element], ...] = tuple(
    (re.compile(pattern), element)
    for pattern, element in (
        (r"^(what|how) (will|would|might|could)\b.*\bfeel", Element.FEELING),
        (
            r"^(what|who|where|how) (will|would|might)\b|\bwhat will happen|\bnext\b",
            Element.PREDICTION,
        ),
        (r"^how (did|does|do|was|were|is|are|had)\b.*\b(feel|felt|feeling)\b", Element.FEELING),
        (r"^(why|what made|what caused|how come)\b", Element.CAUSAL),
        (
            r"^what happen(ed|s) (after|when|because|once|as a result|to)\b|"
            r"^what (was|is) the (result|outcome)",
            Element.OUTCOME,
        ),
        (r"^(where|when|what time|how long|in what place)\b", Element.SETTING),
        (
            r"^(who|whom|whose|to whom|with whom|what kind of (person|man|woman|boy|girl)|"
            r"what (was|is|were|are) \w+(?: \w+)? like)\b",
            Element.CHARACTER,
        ),
        (r"^what (did|does|do|will|would) .*\bdo\b|^how did\b", Element.ACTION),
    )
)


def rule_element(question: str) -> Element | None:
    """The element the question's first words name, if any rule matches."""
    text = " ".join(words(question))
    for pattern, element in _RULES:
        if pattern.search(text):
            return element
    return None
