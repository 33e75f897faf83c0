"""Narrative element and explicit/implicit for any question, generated or typed.

The element comes from the question alone, so a teacher's question and a generated
one are tagged alike. Explicitness uses what is known: the answer and the sections
when given (is the answer a span of them, how much of it is), else the question and
the answer's shape, else the question only.

Both are small linear models over sparse features (word n-grams, surface rules, answer
and section overlap), trained on the FairytaleQA train split by ``qg-studio train
tagger`` and shipped as ``models/tagger/tagger.npz``; inference needs numpy only.
Without that file the surface rules answer, with lower confidences.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from qg_studio.nlp import stem, stop_words
from qg_studio.schema import ELEMENTS, Element, Explicitness, Section

MODEL_ENV = "QG_STUDIO_TAGGER"
DEFAULT_MODEL = Path(__file__).resolve().parents[1] / "models" / "tagger" / "tagger.npz"

# The explicitness model used for what is known about a question.
MODE_FULL = "full"          # answer and section text
MODE_ANSWER = "answer"      # answer only
MODE_QUESTION = "question"  # question only
MODES = (MODE_FULL, MODE_ANSWER, MODE_QUESTION)
EXPLICITNESS_CLASSES = (Explicitness.EXPLICIT.value, Explicitness.IMPLICIT.value)

# Fallback confidences when no model file is there. On the train split the rules are
# right for 0.93 of the questions a rule matches, 0.80 of the default "action", 0.77 of
# explicitness by the span test and 0.77 by the question form; these values sit below
# that on purpose, so that whatever ranks or filters by confidence treats rule-tagged
# items as tentative next to model-tagged ones.
RULE_ELEMENT_CONFIDENCE = 0.7
RULE_DEFAULT_CONFIDENCE = 0.4   # no rule matched: "action" is the commonest element
RULE_SPAN_CONFIDENCE = 0.7      # answer found (or not) in the sections
RULE_PRIOR_CONFIDENCE = 0.55    # question form only


@dataclass
class Tag:
    """The labels of one question; ``scores`` is the probability of every element."""

    element: Element
    element_confidence: float
    explicitness: Explicitness
    explicitness_confidence: float
    scores: dict[str, float] = field(default_factory=dict)
    source: str = "model"  # "model", or "rules" when the model file is missing

    def to_dict(self) -> dict:
        return {"element": self.element.value, "element_confidence": self.element_confidence,
                "explicitness": self.explicitness.value,
                "explicitness_confidence": self.explicitness_confidence,
                "scores": dict(self.scores), "source": self.source}


# ---------------------------------------------------------------- text features

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
# Part of the features the shipped tagger was trained on (a data file).
_STOP = stop_words("tagger")


def words(text: str) -> list[str]:
    """Lower-cased word tokens; curly apostrophes count as straight ones."""
    return _WORD.findall(text.lower().replace("\u2019", "'").replace("\u2018", "'"))


_RULES: tuple[tuple[re.Pattern, Element], ...] = tuple(
    (re.compile(pattern), element) for pattern, element in (
        (r"^(what|how) (will|would|might|could)\b.*\bfeel", Element.FEELING),
        (r"^(what|who|where|how) (will|would|might)\b|\bwhat will happen|\bnext\b",
         Element.PREDICTION),
        (r"^how (did|does|do|was|were|is|are|had)\b.*\b(feel|felt|feeling)\b", Element.FEELING),
        (r"^(why|what made|what caused|how come)\b", Element.CAUSAL),
        (r"^what happen(ed|s) (after|when|because|once|as a result|to)\b|"
         r"^what (was|is) the (result|outcome)", Element.OUTCOME),
        (r"^(where|when|what time|how long|in what place)\b", Element.SETTING),
        (r"^(who|whom|whose|to whom|with whom|what kind of (person|man|woman|boy|girl)|"
         r"what (was|is|were|are) \w+(?: \w+)? like)\b", Element.CHARACTER),
        (r"^what (did|does|do|will|would) .*\bdo\b|^how did\b", Element.ACTION),
    ))


def rule_element(question: str) -> Element | None:
    """The element the question's first words name, if any rule matches."""
    text = " ".join(words(question))
    for pattern, element in _RULES:
        if pattern.search(text):
            return element
    return None


def question_features(question: str) -> dict[str, float]:
    tokens = words(question)
    feats: dict[str, float] = {"bias_q": 1.0}
    for n in (1, 2, 3):
        for i in range(len(tokens) - n + 1):
            feats["q:" + " ".join(tokens[i:i + n])] = 1.0
    for k in (1, 2, 3, 4):
        feats[f"f{k}:" + " ".join(tokens[:k])] = 1.0
    rule = rule_element(question)
    feats["rule:" + (rule.value if rule else "none")] = 1.0
    return feats


def question_form_features(question: str) -> dict[str, float]:
    """The question's first words and rule only: all n-grams overfit explicitness."""
    return {name: value for name, value in question_features(question).items()
            if name.startswith(("bias_q", "f1:", "f2:", "f3:", "rule:"))}


def _thresholds(name: str, value: float, edges: Iterable[float], feats: dict[str, float]) -> None:
    # Step features let a linear model bend on coverage-like figures.
    for edge in edges:
        if value >= edge:
            feats[f"{name}>={edge}"] = 1.0


def answer_features(question: str, answer: str) -> dict[str, float]:
    tokens = words(answer)
    feats: dict[str, float] = {"a:len_log": math.log1p(len(tokens)),
                               "a:first:" + (tokens[0] if tokens else ""): 1.0}
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
    return _TextIndex(tokens=tokens, joined=" " + " ".join(tokens) + " ",
                      vocab=frozenset(tokens), stems=frozenset(stem(w) for w in tokens),
                      positions={w: tuple(p) for w, p in positions.items()},
                      pairs=frozenset(zip(tokens, tokens[1:])))


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
        _thresholds("e:bigram", sum(p in idx.pairs for p in pairs) / len(pairs),
                    (0.3, 0.5, 0.7, 0.9, 1.0), feats)
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


# ---------------------------------------------------------------- the model file

@dataclass
class LinearModel:
    """Softmax over ``features · weights + bias``; unknown features are ignored."""

    classes: tuple[str, ...]
    index: dict[str, int]
    weights: "object"  # numpy array, features x classes
    bias: "object"

    def logits(self, feats: dict[str, float]):
        import numpy as np

        rows, values = [], []
        for name, value in feats.items():
            row = self.index.get(name)
            if row is not None:
                rows.append(row)
                values.append(value)
        logits = self.bias.astype("float64")
        if rows:
            logits = logits + np.asarray(values) @ self.weights[rows].astype("float64")
        return logits

    def probabilities(self, feats: dict[str, float]):
        import numpy as np

        logits = self.logits(feats)
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()


@dataclass
class TaggerModel:
    element: LinearModel
    explicitness: dict[str, LinearModel]
    meta: dict


def model_path() -> Path:
    return Path(os.environ.get(MODEL_ENV) or DEFAULT_MODEL)


def save_model(path: str | Path, model: TaggerModel) -> None:
    """Write the model as plain arrays (no pickle), the format :func:`load_model` reads."""
    import numpy as np

    arrays: dict[str, object] = {"meta": np.array(json.dumps(model.meta))}
    for prefix, linear in [("element", model.element)] + [
            (f"explicit_{mode}", m) for mode, m in model.explicitness.items()]:
        names = sorted(linear.index, key=linear.index.get)
        arrays[f"{prefix}_classes"] = np.array(linear.classes)
        arrays[f"{prefix}_features"] = np.array(names)
        arrays[f"{prefix}_weights"] = np.asarray(linear.weights, dtype="float32")
        arrays[f"{prefix}_bias"] = np.asarray(linear.bias, dtype="float32")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


def read_model(path: str | Path) -> TaggerModel:
    import numpy as np

    with np.load(path, allow_pickle=False) as data:
        def linear(prefix: str) -> LinearModel:
            names = [str(n) for n in data[f"{prefix}_features"]]
            return LinearModel(classes=tuple(str(c) for c in data[f"{prefix}_classes"]),
                               index={n: i for i, n in enumerate(names)},
                               weights=data[f"{prefix}_weights"].astype("float32"),
                               bias=data[f"{prefix}_bias"].astype("float32"))
        return TaggerModel(element=linear("element"),
                           explicitness={m: linear(f"explicit_{m}") for m in MODES},
                           meta=json.loads(str(data["meta"])))


@lru_cache(maxsize=4)
def _cached_model(path: str, mtime: float) -> TaggerModel | None:
    del mtime  # part of the cache key only: a retrained file is read again
    return read_model(path)


def load_model(path: str | Path | None = None) -> TaggerModel | None:
    """The shipped model, or None when the file is missing (the rules answer then)."""
    path = Path(path) if path is not None else model_path()
    if not path.is_file():
        return None
    return _cached_model(str(path), path.stat().st_mtime)


# ---------------------------------------------------------------- tagging

def _section_text(sections: Sequence[Section | str] | None) -> str | None:
    if not sections:
        return None
    text = "\n\n".join(s.text if isinstance(s, Section) else str(s) for s in sections)
    return text if text.strip() else None


def tag(question: str, answer: str | None = None,
        sections: Sequence[Section] | None = None) -> Tag:
    """Element and explicitness of one question; ``sections`` are those it is about."""
    return tag_many([question], [answer], [sections])[0]


def tag_many(questions: Sequence[str], answers: Sequence[str | None] | None = None,
             sections: Sequence[Section] | Sequence[Sequence[Section] | None] | None = None,
             ) -> list[Tag]:
    """Tag a batch. ``sections`` is one list shared by every question, or one per question."""
    questions = [str(q) for q in questions]
    if answers is None:
        answers = [None] * len(questions)
    if len(answers) != len(questions):
        raise ValueError(f"{len(answers)} answers for {len(questions)} questions")
    texts = _texts_per_question(sections, len(questions))
    model = load_model()
    out = []
    for question, answer, text in zip(questions, answers, texts):
        answer = answer.strip() if isinstance(answer, str) and answer.strip() else None
        if model is None:
            out.append(_tag_by_rules(question, answer, text))
        else:
            out.append(_tag_by_model(model, question, answer, text))
    return out


def _texts_per_question(sections, n: int) -> list[str | None]:
    if sections is None:
        return [None] * n
    sections = list(sections)
    if not sections or isinstance(sections[0], (Section, str)):
        shared = _section_text(sections)  # one story's sections, shared by every question
        return [shared] * n
    if len(sections) != n:
        raise ValueError(f"{len(sections)} section lists for {n} questions")
    return [_section_text(s) for s in sections]


def _tag_by_model(model: TaggerModel, question: str, answer: str | None,
                  text: str | None) -> Tag:
    probs = model.element.probabilities(question_features(question))
    scores = {c: float(p) for c, p in zip(model.element.classes, probs)}
    element = max(scores, key=scores.get)
    mode = mode_for(answer, text)
    linear = model.explicitness[mode]
    ex_probs = linear.probabilities(explicitness_features(question, answer, text))
    ex_scores = dict(zip(linear.classes, (float(p) for p in ex_probs)))
    explicitness = max(ex_scores, key=ex_scores.get)
    return Tag(element=Element(element), element_confidence=scores[element],
               explicitness=Explicitness(explicitness),
               explicitness_confidence=ex_scores[explicitness], scores=scores, source="model")


def _tag_by_rules(question: str, answer: str | None, text: str | None) -> Tag:
    rule = rule_element(question)
    element = rule or Element.ACTION
    confidence = RULE_ELEMENT_CONFIDENCE if rule else RULE_DEFAULT_CONFIDENCE
    rest = (1.0 - confidence) / (len(ELEMENTS) - 1)
    scores = {e.value: (confidence if e == element else rest) for e in ELEMENTS}
    if answer and text:
        explicitness = (Explicitness.EXPLICIT if answer_is_span(answer, text)
                        else Explicitness.IMPLICIT)
        ex_conf = RULE_SPAN_CONFIDENCE
    else:
        # Feelings are mostly inferred; other questions mostly point at a span.
        explicitness = (Explicitness.IMPLICIT if element == Element.FEELING
                        else Explicitness.EXPLICIT)
        ex_conf = RULE_PRIOR_CONFIDENCE
    return Tag(element=element, element_confidence=confidence, explicitness=explicitness,
               explicitness_confidence=ex_conf, scores=scores, source="rules")
