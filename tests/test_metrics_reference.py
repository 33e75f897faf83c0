"""The hand-written scores of evaluate.py against reference implementations and values.

Pk and WindowDiff against nltk's, best-of-references ROUGE-L against rouge-score's
``score_multi``, KL against scipy's entropy, token F1 and boundary P/R/F on cases worked
by hand, and the bootstrap interval against what a mean's spread must be.
"""

from __future__ import annotations

import math
import random

import pytest
from nltk.metrics.segmentation import pk as nltk_pk
from nltk.metrics.segmentation import windowdiff as nltk_windowdiff
from rouge_score import rouge_scorer

from qg_studio.evaluate import best_rouge_l
from qg_studio.evaluate import bootstrap_ci
from qg_studio.evaluate import boundary_prf
from qg_studio.evaluate import kl_divergence
from qg_studio.evaluate import pk
from qg_studio.evaluate import token_f1
from qg_studio.evaluate import windowdiff


def _marks(boundaries: set[int], n: int) -> str:
    """nltk's form: character j is "1" when word j + 1 starts a new section."""
    return "".join("1" if j + 1 in boundaries else "0" for j in range(n - 1))


def _segmentations(seed: int):
    rng = random.Random(seed)
    n = rng.randint(40, 400)
    gold = set(rng.sample(range(1, n), rng.randint(1, 6)))
    predicted = set(rng.sample(range(1, n), rng.randint(0, 8)))
    return n, gold, predicted


@pytest.mark.parametrize("seed", range(25))
def test_pk_and_windowdiff_match_nltk(seed):
    n, gold, predicted = _segmentations(seed)
    k = max(2, round(n / (len(gold) + 1) / 2))
    ref, hyp = _marks(gold, n), _marks(predicted, n)
    assert pk(predicted, gold, n) == pytest.approx(nltk_pk(ref, hyp, k))
    assert windowdiff(predicted, gold, n) == pytest.approx(nltk_windowdiff(ref, hyp, k))


def test_best_rouge_l_is_rouge_score_score_multi():
    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    cases = [
        ("she was scared of the dark forest", ["scared", "she was afraid of the forest"]),
        ("a lantern", ["the lantern on the bridge", "a brass lantern"]),
        ("because he wanted to help his grandfather", ["to help his grandfather", "he loved him"]),
    ]
    for prediction, references in cases:
        expected = scorer.score_multi(references, prediction)["rougeL"].fmeasure
        assert best_rouge_l(prediction, references) == pytest.approx(expected)
        assert best_rouge_l(prediction, references) == pytest.approx(
            max(scorer.score(r, prediction)["rougeL"].fmeasure for r in references)
        )
    assert best_rouge_l("", ["anything"]) == 0.0 and best_rouge_l("x", ["", " "]) == 0.0


def test_kl_matches_scipy_entropy():
    from scipy.stats import entropy

    p = {"character": 30, "action": 50, "feeling": 20}
    q = {"character": 25, "action": 40, "feeling": 35}
    assert kl_divergence(p, q, eps=0.0) == pytest.approx(entropy([30, 50, 20], [25, 40, 35]))
    assert kl_divergence(p, p) == pytest.approx(0.0, abs=1e-9)
    assert math.isfinite(kl_divergence(p, {"character": 1}))  # smoothed, never infinite


def test_token_f1_worked_by_hand():
    # prediction 4 words, reference 3, two shared: P 2/4, R 2/3, F1 = 4/7.
    assert token_f1("The old Brass lantern", "a brass lantern") == pytest.approx(4 / 7)
    assert token_f1("nothing shared", "at all") == 0.0


def test_boundary_prf_worked_by_hand():
    assert boundary_prf({10, 20, 30}, {10, 30, 40, 50}) == pytest.approx(
        (2 / 3, 2 / 4, 2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2))
    )
    assert boundary_prf(set(), set()) == (1.0, 1.0, 1.0)  # no cuts wanted, none made
    assert boundary_prf({5}, set())[:2] == (0.0, 0.0)


def test_bootstrap_interval_holds_the_mean_and_shrinks_with_more_questions():
    rng = random.Random(0)
    few = [rng.random() for _ in range(50)]
    many = [rng.random() for _ in range(2000)]
    for values in (few, many):
        low, high = bootstrap_ci(values)
        assert low < sum(values) / len(values) < high
    width_few = bootstrap_ci(few)[1] - bootstrap_ci(few)[0]
    width_many = bootstrap_ci(many)[1] - bootstrap_ci(many)[0]
    # A mean's spread falls as 1/sqrt(n): 40 times the questions, about 1/6 the width.
    assert width_many < width_few / 4
    # Uniform scores: sd 0.289, so a 95% interval on 2,000 is about 2 * 1.96 * 0.289 / 44.7.
    assert width_many == pytest.approx(2 * 1.96 * 0.2887 / math.sqrt(2000), rel=0.15)
    assert bootstrap_ci([]) == (0.0, 0.0)
