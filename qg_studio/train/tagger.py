"""Train the tagger: reproduces ``models/tagger/tagger.npz`` from a FairytaleQA-layout folder.

    qg-studio train tagger --data ../shared/data/fairytaleqa --out models/tagger

Only the train split is read. Each expert question gives one element example (the
question's features, label ``attribute1``) and three explicitness examples, one per
mode: with ``answer1`` and its ``cor_section`` text, with the answer only, and with the
question only (label ``ex-or-im1``). Every model is an L2-regularised softmax
regression fitted with full-batch L-BFGS in torch (a declared dependency, so training
needs nothing more); the L2 strength is chosen on a held-out sixth of the train
*stories*, then the model is refitted on all of them. The result is saved as plain
numpy arrays that :mod:`qg_studio.tagging` reads with numpy alone.
"""

from __future__ import annotations

import random
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable
from typing import Sequence

from qg_studio.data.fairytaleqa import read_split
from qg_studio.schema import ELEMENTS
from qg_studio.schema import section_texts
from qg_studio.tagging.features import EXPLICITNESS_CLASSES
from qg_studio.tagging.features import MODE_ANSWER
from qg_studio.tagging.features import MODE_FULL
from qg_studio.tagging.features import MODE_QUESTION
from qg_studio.tagging.features import MODES
from qg_studio.tagging.features import explicitness_features
from qg_studio.tagging.features import question_features
from qg_studio.tagging.model import LinearModel
from qg_studio.tagging.model import TaggerModel
from qg_studio.tagging.model import save_model
from qg_studio.text.words import words

L2_GRID = (3e-4, 1e-3, 3e-3, 1e-2)
# A feature must be seen in this many stories: one found in one or two ("why did
# Marten stop") memorises that story's questions and ships the dataset's text.
MIN_FEATURE_STORIES = 3
HELD_OUT_SHARE = 1 / 6
SEED = 13


@dataclass
class Example:
    story: str
    question: str
    answer: str
    text: str
    element: str
    explicitness: str


def read_examples(root: str | Path, split: str = "train") -> list[Example]:
    examples = []
    for story in read_split(root, split):
        for q in story.questions:
            row = q.row
            examples.append(
                Example(
                    story=story.name,
                    question=row["question"],
                    answer=row.get("answer1", ""),
                    text=section_texts(story.sections, q.sections),
                    element=row["attribute1"].strip().lower(),
                    explicitness=row["ex-or-im1"].strip().lower(),
                )
            )
    return examples


def fit_softmax(
    rows: Sequence[dict[str, float]],
    labels: Sequence[int],
    n_classes: int,
    l2: float,
    stories: Sequence[str],
    min_stories: int = MIN_FEATURE_STORIES,
    max_iter: int = 300,
) -> tuple[dict[str, int], "object", "object"]:
    """Minimise mean cross-entropy + l2/2·|W|² (bias free); returns (index, W, b) as numpy.
    ``stories``: the story of each row; a feature is kept when ``min_stories`` hold it."""
    import torch

    counts = Counter(name for story, names in _story_features(rows, stories) for name in names)
    names = sorted(n for n, c in counts.items() if c >= min_stories)
    index = {n: i for i, n in enumerate(names)}
    X, XT = _sparse(rows, index, torch)
    n = len(rows)
    onehot = torch.nn.functional.one_hot(torch.tensor(list(labels)), n_classes).double()
    W = torch.zeros(len(names), n_classes, dtype=torch.float64, requires_grad=True)
    b = torch.zeros(n_classes, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS(
        [W, b],
        lr=1.0,
        max_iter=max_iter,
        history_size=20,
        tolerance_grad=1e-7,
        tolerance_change=1e-10,
        line_search_fn="strong_wolfe",
    )

    # The gradient is written out by hand: autograd through sparse products costs
    # ten times more on a CPU, and this loss has a closed-form gradient.
    def closure():
        with torch.no_grad():
            logits = X @ W + b
            logp = torch.log_softmax(logits, dim=1)
            loss = -(onehot * logp).sum() / n + 0.5 * l2 * (W * W).sum()
            residual = (logp.exp() - onehot) / n
            W.grad = XT @ residual + l2 * W
            b.grad = residual.sum(0)
        return loss

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # on a shared small CPU, threads slow these small products
    try:
        opt.step(closure)
    finally:
        torch.set_num_threads(threads)
    return index, W.detach().numpy(), b.detach().numpy()


def _no_whole_questions(rows, whole: set[str]):
    """The rows without a feature that reads as a whole question of the split ("who had
    four sons", a stock phrase of many tales): it would ship the dataset's text, however
    many stories hold it."""
    return [{k: v for k, v in row.items() if k.partition(":")[2] not in whole} for row in rows]


def _story_features(rows, stories):
    """(story, the features its rows hold), once per story."""
    held: dict[str, set[str]] = {}
    for row, story in zip(rows, stories):
        held.setdefault(story, set()).update(row)
    return held.items()


def _sparse(rows, index, torch):
    """The design matrix and its transpose, both CSR."""
    r, c, v = [], [], []
    for i, row in enumerate(rows):
        for name, value in row.items():
            j = index.get(name)
            if j is not None and value:
                r.append(i)
                c.append(j)
                v.append(float(value))
    coo = torch.sparse_coo_tensor(
        [r, c], v, (len(rows), len(index)), dtype=torch.float64, check_invariants=False
    ).coalesce()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "CSR support is in beta"
        return coo.to_sparse_csr(), coo.t().coalesce().to_sparse_csr()


def accuracy(model: LinearModel, rows, labels) -> float:
    hits = sum(int(model.probabilities(row).argmax()) == y for row, y in zip(rows, labels))
    return hits / max(len(labels), 1)


def _fit_linear(rows, labels, classes, l2, stories) -> LinearModel:
    index, W, b = fit_softmax(rows, labels, len(classes), l2, stories)
    return LinearModel(
        classes=tuple(classes), index=index, weights=W.astype("float32"), bias=b.astype("float32")
    )


def choose_and_fit(
    rows,
    labels,
    classes,
    stories,
    log: Callable[[str], None],
    name: str,
) -> tuple[LinearModel, dict]:
    """Pick the L2 strength and a temperature on held-out stories, then refit on all rows.

    L2 shrinks the logits, so the refitted model is rescaled by the temperature that
    makes held-out confidences match held-out accuracy: its confidences are then
    probabilities in the calibrated sense, not just numbers that sum to one.
    """
    names = sorted(set(stories))
    random.Random(SEED).shuffle(names)
    held = set(names[: max(1, round(len(names) * HELD_OUT_SHARE))])
    fit_idx = [i for i, s in enumerate(stories) if s not in held]
    dev_idx = [i for i, s in enumerate(stories) if s in held]
    dev_rows, dev_labels = [rows[i] for i in dev_idx], [labels[i] for i in dev_idx]
    best = (-1.0, L2_GRID[0], None)
    for l2 in L2_GRID:
        model = _fit_linear(
            [rows[i] for i in fit_idx],
            [labels[i] for i in fit_idx],
            classes,
            l2,
            [stories[i] for i in fit_idx],
        )
        acc = accuracy(model, dev_rows, dev_labels)
        log(f"  {name}: l2={l2:g} held-out accuracy {acc:.4f}")
        if acc > best[0]:
            best = (acc, l2, model)
    acc, l2, dev_model = best
    temperature = fit_temperature(dev_model, dev_rows, dev_labels)
    model = _fit_linear(rows, labels, classes, l2, stories)
    model.weights = (model.weights / temperature).astype("float32")
    model.bias = (model.bias / temperature).astype("float32")
    log(f"  {name}: chose l2={l2:g}, temperature {temperature:.3f}")
    return model, {
        "l2": l2,
        "temperature": round(temperature, 4),
        "held_out_acc": round(acc, 4),
        "features": len(model.index),
    }


def fit_temperature(model: LinearModel, rows, labels) -> float:
    """The logit divisor that minimises held-out negative log-likelihood."""
    import numpy as np

    logits = np.array([model.logits(row) for row in rows])
    labels = np.asarray(labels)
    best_t, best_nll = 1.0, float("inf")
    for t in np.geomspace(0.25, 4.0, 81):
        z = logits / t
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        nll = -logp[np.arange(len(labels)), labels].mean()
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def train_tagger(
    root: str | Path, out_dir: str | Path, split: str = "train", log: Callable[[str], None] = print
) -> dict:
    """Fit every model on ``split`` of ``root`` and write ``out_dir/tagger.npz``."""
    started = time.time()
    examples = read_examples(root, split)
    if not examples:
        raise ValueError(f"no questions in the {split} split of {root}")
    stories = [e.story for e in examples]
    element_classes = [e.value for e in ELEMENTS]
    unknown = sorted({e.element for e in examples} - set(element_classes))
    if unknown:
        raise ValueError(f"unknown element label(s) in attribute1: {', '.join(unknown)}")

    log(f"training on {len(examples)} questions from {len(set(stories))} stories")
    summary: dict = {
        "split": split,
        "questions": len(examples),
        "stories": len(set(stories)),
        "models": {},
    }
    whole = {" ".join(words(e.question)) for e in examples}
    element, summary["models"]["element"] = choose_and_fit(
        _no_whole_questions([question_features(e.question) for e in examples], whole),
        [element_classes.index(e.element) for e in examples],
        element_classes,
        stories,
        log,
        "element",
    )

    explicitness: dict[str, LinearModel] = {}
    labels = [EXPLICITNESS_CLASSES.index(e.explicitness) for e in examples]
    for mode in MODES:
        rows = [
            explicitness_features(
                e.question,
                e.answer if mode in (MODE_FULL, MODE_ANSWER) else None,
                e.text if mode == MODE_FULL else None,
            )
            for e in examples
        ]
        explicitness[mode], summary["models"][f"explicitness_{mode}"] = choose_and_fit(
            _no_whole_questions(rows, whole),
            labels,
            EXPLICITNESS_CLASSES,
            stories,
            log,
            f"explicitness ({mode})",
        )
    assert set(explicitness) == {MODE_FULL, MODE_ANSWER, MODE_QUESTION}

    path = Path(out_dir) / "tagger.npz"
    save_model(path, TaggerModel(element=element, explicitness=explicitness, meta=summary))
    summary["path"] = str(path)
    summary["seconds"] = round(time.time() - started, 1)
    log(f"wrote {path} ({path.stat().st_size / 1024:.0f} KiB) in {summary['seconds']} s")
    return summary
