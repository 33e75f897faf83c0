"""The learned ranker: how likely a candidate is to be a pair the experts would have
written, from what the pipeline knows of it (who proposed it, by which rule, the checks).

Trained by ``qg-studio train ranker`` (:mod:`qg_studio.train.ranker`) on the proposers'
candidates for FairytaleQA train stories the proposer never trained on, each labelled by
how closely it matches an expert pair of its section (Yao et al. 2022 trained theirs the
same way). It is a logistic regression: a named weight per feature, saved as JSON beside
the figures it was measured with, so a reader sees what it trusts and how much. Its
probability is the rank the set is filled by and the confidence the teacher sees.

``save``/``load`` are symmetric; :func:`default_ranker` is the shipped one, or None when
none ships (the hand-set weights of :mod:`qg_studio.ranking` rank then).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import Any
from typing import Sequence

from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.text.words import words as word_list

RANKER_FILE = "ranker.json"
_REPEAT = re.compile(r"\b(\w+) \1\b", re.I)
# What a question names: a word after a determiner or a capitalised word past the first
# ("the princess", "his castle", "Mira"): a name or thing the story must have told.
_NAMED = re.compile(
    r"\b(?:the|a|an|his|her|their|its|my|your)\s+([a-z']+)|(?<!^)(?<![.?!] )\b([A-Z][a-z']+)"
)


def features(item: QAItem, story_words: set[str]) -> dict[str, float]:
    """What the ranker reads of one checked candidate, by name. ``story_words``: the
    story's lower-cased words (a question about someone the story lacks is made up)."""
    s = item.scores
    question = word_list(item.question)
    answer = word_list(item.answer)
    named = [(a or b).lower() for a, b in _NAMED.findall(item.question)]
    told = [w for w in named if w in story_words or w.rstrip("s") in story_words]
    answer_content = {w for w in answer if len(w) > 3}
    f = {
        f"engine={item.engine or 'none'}": 1.0,
        f"rule={item.rule or 'none'}": 1.0,
        f"element={item.element.value}": 1.0,
        "explicit": float(item.explicitness is Explicitness.EXPLICIT),
        "story_level": float(s.story_level),
        "confidence": s.confidence if s.confidence is not None else 0.5,
        "no_confidence": float(s.confidence is None),
        "quality": s.quality if s.quality is not None else 0.5,
        "answerability": s.answerability if s.answerability is not None else 0.0,
        "not_answered": float(s.answerability is None),
        "unanswerable": float(s.unanswerable),
        "question_words": min(len(question), 30) / 10,
        "answer_words": math.log1p(len(answer)),
        "long_answer": float(len(answer) > 15),
        "evidence": float(bool(item.evidence)),
        "grounded": len(told) / len(named) if named else 1.0,
        "gives_away": float(bool(answer_content) and answer_content <= set(question)),
        "repeated_word": float(bool(_REPEAT.search(item.question))),
    }
    return f


@dataclass
class LearnedRanker:
    """A logistic regression over :func:`features`; unknown features weigh nothing."""

    weights: dict[str, float]
    bias: float
    # Under this probability an answer is shown as "check this answer" (chosen on val).
    check_below: float = 0.3
    figures: dict[str, Any] = field(default_factory=dict)

    def probability(self, f: dict[str, float]) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in f.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def score(self, items: Sequence[QAItem], story_text: str) -> list[float]:
        words = story_vocabulary(story_text)
        return [self.probability(features(item, words)) for item in items]

    def save(self, folder: str | Path) -> Path:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        data = {
            "bias": self.bias,
            "check_below": self.check_below,
            # Largest weights first: what the ranker trusts and distrusts, readable as is.
            "weights": dict(sorted(self.weights.items(), key=lambda kv: -abs(kv[1]))),
            "figures": self.figures,
        }
        path = folder / RANKER_FILE
        tmp = path.with_suffix(".partial")
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, folder: str | Path) -> "LearnedRanker":
        data = json.loads((Path(folder) / RANKER_FILE).read_text(encoding="utf-8"))
        return cls(
            weights={str(k): float(v) for k, v in data["weights"].items()},
            bias=float(data["bias"]),
            check_below=float(data.get("check_below", 0.3)),
            figures=dict(data.get("figures") or {}),
        )


def story_vocabulary(text: str) -> set[str]:
    """The story's words, each also without a plural's or a possessive's s ("fox's": fox)."""
    words = {w.removesuffix("'s") for w in word_list(text)}
    return words | {w.rstrip("s") for w in words}


RANKER_SETTING = "QG_STUDIO_RANKER"  # a ranker folder to use instead, or "off"


def default_ranker() -> LearnedRanker | None:
    """The ranker in use: $QG_STUDIO_RANKER's folder ("off": none), else the one refit on
    this user's decisions (the data folder's ranker/), else the shipped one
    (models/ranker/); None when there is none or it is unreadable."""
    import os

    from qg_studio.models.registry import MODELS_DIR

    chosen = os.environ.get(RANKER_SETTING, "").strip()
    if chosen.lower() in ("off", "none", "0"):
        return None
    if chosen:
        return _load_ranker(chosen)
    # A ranker refit on this user's own decisions (train ranker --from-store) comes first.
    return _load_ranker(str(user_ranker_dir())) or _load_ranker(str(MODELS_DIR / "ranker"))


def user_ranker_dir() -> Path:
    from qg_studio.store import default_data_dir

    return default_data_dir() / "ranker"


def _load_ranker(folder: str) -> LearnedRanker | None:
    """The ranker in ``folder``, read again only when its file changes (a refit made by
    the command line reaches a running app)."""
    try:
        stamp = (Path(folder) / RANKER_FILE).stat().st_mtime_ns
    except OSError:
        return None
    return _read_ranker(folder, stamp)


@lru_cache(maxsize=8)
def _read_ranker(folder: str, stamp: int) -> LearnedRanker | None:
    try:
        return LearnedRanker.load(folder)
    except (OSError, ValueError, KeyError):
        return None
