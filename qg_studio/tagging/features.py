"""The tagger's features: word n-grams and surface rules of the question, the answer's
shape, and how much of the answer the section text holds (and how contiguously).

:func:`question_features` feed the element model; :func:`explicitness_features` the
explicitness model of the question's mode (what is known: answer and text, the answer,
or the question only). The training recipe (``qg_studio/train/tagger.py``) and the
tagger share them, so a model is read with the features it was trained on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from qg_studio.reading.question_element import rule_element
from qg_studio.schema import Explicitness
from qg_studio.text.words import stem
from qg_studio.text.words import stop_words
from qg_studio.text.words import words

# The explicitness model used for what is known about a question.
MODE_FULL = "full"  # answer and section text
MODE_ANSWER = "answer"  # answer only
MODE_QUESTION = "question"  # question only
MODES = (MODE_FULL, MODE_ANSWER, MODE_QUESTION)
EXPLICITNESS_CLASSES = (Explicitness.EXPLICIT.value, Explicitness.IMPLICIT.value)


# Part of the features the shipped tagger was trained on (a data file).
_STOP = stop_words("tagger")


def question_features(question: str) -> dict[str, float]:
    tokens = words(question)
    feats: dict[str, float] = {"bias_q": 1.0}
    for n in (1, 2, 3):
        for i in range(len(tokens) - n + 1):
            feats["q:" + " ".join(tokens[i : i + n])] = 1.0
    for k in (1, 2, 3, 4):
        feats[f"f{k}:" + " ".join(tokens[:k])] = 1.0
    rule = rule_element(question)
    feats["rule:" + (rule.value if rule else "none")] = 1.0
    return feats


def question_form_features(question: str) -> dict[str, float]:
    """The question's first words and rule only: all n-grams overfit explicitness."""
    return {
        name: value
        for name, value in question_features(question).items()
        if name.startswith(("bias_q", "f1:", "f2:", "f3:", "rule:"))
    }


def _thresholds(name: str, value: float, edges: Iterable[float], feats: dict[str, float]) -> None:
    # Step features let a linear model bend on coverage-like figures.
    for edge in edges:
        if value >= edge:
            feats[f"{name}>={edge}"] = 1.0


def answer_features(question: str, answer: str) -> dict[str, float]:
    tokens = words(answer)
    feats: dict[str, float] = {
        "a:len_log": math.log1p(len(tokens)),
        "a:first:" + (tokens[0] if tokens else ""): 1.0,
    }
    _thresholds("a:len", len(tokens), (2, 3, 5, 8, 12, 20), feats)
    if "will" in tokens:
        feats["a:will"] = 1.0
    content = [w for w in tokens if w not in _STOP]
    qstems = {stem(w) for w in words(question)}
    feats["a:in_q"] = sum(stem(w) in qstems for w in content) / max(len(content), 1)
    return feats


@dataclass(frozen=True)
class _TextIndex:
    tokens: tuple[str, ...]
    joined: str  # " w1 w2 ... " so that a span test is a substring test
    vocab: frozenset[str]
    stems: frozenset[str]
    positions: dict[str, tuple[int, ...]]
    pairs: frozenset[tuple[str, str]]


@lru_cache(maxsize=256)
def _index_text(text: str) -> _TextIndex:
    # Generated questions share their story's sections: index each text once.
    tokens = tuple(words(text))
    positions: dict[str, list[int]] = {}
    for i, w in enumerate(tokens):
        positions.setdefault(w, []).append(i)
    return _TextIndex(
        tokens=tokens,
        joined=" " + " ".join(tokens) + " ",
        vocab=frozenset(tokens),
        stems=frozenset(stem(w) for w in tokens),
        positions={w: tuple(p) for w, p in positions.items()},
        pairs=frozenset(zip(tokens, tokens[1:])),
    )


def answer_is_span(answer: str, text: str) -> bool:
    """Whether the answer's words occur, in order and contiguously, in the text."""
    joined = " ".join(words(answer))
    return bool(joined) and f" {joined} " in _index_text(text).joined


def evidence_features(answer: str, text: str) -> dict[str, float]:
    """How much of the answer the section text holds, and how contiguously."""
    ans, idx = words(answer), _index_text(text)
    n = len(ans)
    feats: dict[str, float] = {}
    if answer_is_span(answer, text):
        feats["e:span"] = 1.0
    coverage = sum(w in idx.vocab for w in ans) / max(n, 1)
    _thresholds("e:cov", coverage, (0.3, 0.5, 0.7, 0.8, 0.9, 1.0), feats)
    content = [w for w in ans if w not in _STOP]
    content_cov = sum(stem(w) in idx.stems for w in content) / max(len(content), 1)
    _thresholds("e:ccov", content_cov, (0.3, 0.5, 0.7, 0.8, 0.9, 1.0), feats)
    novel = sum(stem(w) not in idx.stems for w in content)
    _thresholds("e:novel", novel, (1, 2, 3, 5), feats)
    _thresholds("e:run", _longest_run(ans, idx) / max(n, 1), (0.3, 0.5, 0.7, 0.9, 1.0), feats)
    pairs = list(zip(ans, ans[1:]))
    if pairs:
        _thresholds(
            "e:bigram",
            sum(p in idx.pairs for p in pairs) / len(pairs),
            (0.3, 0.5, 0.7, 0.9, 1.0),
            feats,
        )
    return feats


def _longest_run(ans: list[str], idx: _TextIndex) -> int:
    """Length of the longest run of answer words that appears contiguously in the text."""
    txt = idx.tokens
    best = 0
    for i, w in enumerate(ans):
        if len(ans) - i <= best:
            break
        for j in idx.positions.get(w, ()):
            k = 1
            while i + k < len(ans) and j + k < len(txt) and ans[i + k] == txt[j + k]:
                k += 1
            best = max(best, k)
    return best


def mode_for(answer: str | None, text: str | None) -> str:
    if answer and text:
        return MODE_FULL
    if answer:
        return MODE_ANSWER
    return MODE_QUESTION


def explicitness_features(question: str, answer: str | None, text: str | None) -> dict[str, float]:
    """The features of the explicitness model of this question's mode."""
    feats = question_form_features(question)
    mode = mode_for(answer, text)
    if mode in (MODE_FULL, MODE_ANSWER):
        feats.update(answer_features(question, answer or ""))
    if mode == MODE_FULL:
        feats.update(evidence_features(answer or "", text or ""))
    return feats
