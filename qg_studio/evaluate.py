"""Scores shared by every ``eval`` command: ROUGE-L as the FairytaleQA paper computes it."""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from typing import Iterable
from typing import Mapping
from typing import Sequence


@lru_cache(maxsize=1)
def _scorer():
    from rouge_score import rouge_scorer

    # Stemming on, as in the FairytaleQA and lmqg evaluations.
    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def rouge_l(prediction: str, reference: str) -> float:
    """ROUGE-L F1 of one prediction against one reference."""
    if not prediction.strip() or not reference.strip():
        return 0.0
    return _scorer().score(reference, prediction)["rougeL"].fmeasure


def best_rouge_l(prediction: str, references: Iterable[str]) -> float:
    """The higher score against several references (answer1 and answer4 in val)."""
    references = [r for r in references if r and r.strip()]
    if not references or not prediction.strip():
        return 0.0
    return _scorer().score_multi(references, prediction)["rougeL"].fmeasure


def bootstrap_ci(
    values: Sequence[float], confidence: float = 0.95, resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """A percentile bootstrap interval for the mean of ``values``: how far a figure on
    this many questions can move by the luck of which questions were asked."""
    import numpy as np

    data = np.asarray(list(values), dtype=float)
    if data.size == 0:
        return 0.0, 0.0
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, (resamples, data.size))].mean(axis=1)
    tail = (1.0 - confidence) / 2
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return round(float(low), 4), round(float(high), 4)


_TOKEN = re.compile(r"\w+")


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD-style token F1 (lower-cased words)."""
    pred = _TOKEN.findall(prediction.lower())
    ref = _TOKEN.findall(reference.lower())
    common = sum((Counter(pred) & Counter(ref)).values())
    if not common:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def kl_divergence(p: Mapping[str, float], q: Mapping[str, float], eps: float = 1e-6) -> float:
    """KL(p || q) over the union of keys, smoothed so an absent label is not infinite."""
    keys = set(p) | set(q)
    p_total = sum(p.values()) or 1.0
    q_total = sum(q.values()) or 1.0
    out = 0.0
    for key in keys:
        pk = p.get(key, 0.0) / p_total + eps
        qk = q.get(key, 0.0) / q_total + eps
        out += pk * math.log(pk / qk)
    return out


# -- section agreement ------------------------------------------------------------------
# A segmentation is the set of word offsets where a new section starts (0 excluded).


def boundary_prf(predicted: set[int], gold: set[int]) -> tuple[float, float, float]:
    hits = len(predicted & gold)
    precision = hits / len(predicted) if predicted else float(not gold)
    recall = hits / len(gold) if gold else float(not predicted)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _segment_ids(boundaries: set[int], n: int) -> list[int]:
    ids, current = [], 0
    for position in range(n):
        if position in boundaries:
            current += 1
        ids.append(current)
    return ids


def pk(predicted: set[int], gold: set[int], n: int, k: int | None = None) -> float:
    """Beeferman's Pk over ``n`` words; k defaults to half the mean gold segment length."""
    k = k or max(2, round(n / (len(gold) + 1) / 2))
    if n <= k:
        return 0.0
    hyp, ref = _segment_ids(predicted, n), _segment_ids(gold, n)
    errors = sum((ref[i] == ref[i + k]) != (hyp[i] == hyp[i + k]) for i in range(n - k))
    return errors / (n - k)


def windowdiff(predicted: set[int], gold: set[int], n: int, k: int | None = None) -> float:
    """Pevzner & Hearst's WindowDiff: penalises a wrong number of cuts in each window."""
    k = k or max(2, round(n / (len(gold) + 1) / 2))
    if n <= k:
        return 0.0
    hyp, ref = _segment_ids(predicted, n), _segment_ids(gold, n)
    errors = sum((ref[i + k] - ref[i]) != (hyp[i + k] - hyp[i]) for i in range(n - k))
    return errors / (n - k)
