"""Train the learned ranker (:mod:`qg_studio.ranking.learned`) on FairytaleQA.

    qg-studio train ranker --data ../shared/data/fairytaleqa --out models/ranker \\
        [--engine proposer+embedded]

For each story the proposer never trained on (the train stories its adapter records as
held out, else every ``holdout_every``-th), the candidates every proposer writes for the
experts' sections are checked as the pipeline checks them (:func:`qg_studio.pipeline.
checked_candidates`: round trip through the answerer, reading the whole story), and each
is labelled by its best match with an expert pair of its sections: the mean of the
question's and the answer's ROUGE-L F1 (Yao et al. 2022 labelled theirs by the same
match). A logistic regression learns which features predict a match; val stories measure
it (AUROC) and choose the "check this answer" threshold.

Candidates are written per story to ``--work`` as JSON lines as they are made, so a run
stopped at any moment goes on from the next story; re-fitting needs no generating.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Callable
from typing import Sequence

from qg_studio.evaluate import rouge_l
from qg_studio.ranking.learned import LearnedRanker
from qg_studio.ranking.learned import features
from qg_studio.ranking.learned import story_vocabulary
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import section_texts


@dataclass
class RankerSettings:
    engine: str = "embedded"  # the proposers whose candidates are ranked ("a+b")
    holdout_every: int = 8  # as the proposer's training held stories out
    max_stories: int = 0  # 0: every held-out story
    max_val: int = 0  # 0: every val story
    match: float = 0.45  # a candidate at least this close to an expert pair is a match
    c: float = 0.5  # inverse L2 strength: a few hundred labels, dozens of features
    # At most this share of val's matches may fall under the "check this answer" threshold.
    check_false_alarms: float = 0.2


def match_score(item: QAItem, experts: Sequence[tuple[str, str, set[int]]]) -> float:
    """The best (question ROUGE-L + answer ROUGE-L) / 2 over the expert pairs that cite a
    section the candidate is about (all of them for a story-level candidate)."""
    mine = set(item.sections)
    best = 0.0
    for question, answer, sections in experts:
        if mine and sections and not (mine & sections) and not item.scores.story_level:
            continue
        best = max(best, (rouge_l(item.question, question) + rouge_l(item.answer, answer)) / 2)
    return best


def story_rows(story, settings: RankerSettings, answerer, engine_options=None) -> list[dict]:
    """The checked candidates of one FairytaleQA story, each with its match to the experts
    (features are read from the items when fitting, so a new feature needs no new run)."""
    from qg_studio.pipeline import checked_candidates
    from qg_studio.ranking import score_items

    experts = [
        (q.row.get("question", ""), q.answers[0], set(q.sections))
        for q in story.questions
        if q.answers and q.row.get("question", "").strip()
    ]
    found = checked_candidates(
        story.sections,
        GenerationRequest(),
        settings.engine,
        engine_options,
        answerer,
        use_embeddings=False,
        title=story.title,
        shortlisted=False,
    )
    score_items(found.items)  # the quality score, one of the features
    return [
        {"story": story.name, "item": item.to_dict(), "match": round(match_score(item, experts), 4)}
        for item in found.items
    ]


def collect(
    stories, settings: RankerSettings, work: Path, split: str, answerer, progress, options=None
) -> list[dict]:
    """Every story's rows with their features, the candidates read from ``work`` when a
    run before made them."""
    work.mkdir(parents=True, exist_ok=True)
    rows: list[dict] = []
    for n, story in enumerate(stories, 1):
        path = work / f"{split}-{story.name}.jsonl"
        if not path.is_file():
            started = time.time()
            made = story_rows(story, settings, answerer, options)
            tmp = path.with_suffix(".partial")
            tmp.write_text("".join(json.dumps(r) + "\n" for r in made), encoding="utf-8")
            tmp.replace(path)
            progress(
                f"{split} {n}/{len(stories)} {story.name}: {len(made)} candidates "
                f"({time.time() - started:.0f} s)"
            )
        words = story_vocabulary(section_texts(story.sections))
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            row["features"] = features(QAItem.from_dict(row["item"]), words)
            rows.append(row)
    return rows


def fit(rows: Sequence[dict], settings: RankerSettings) -> LearnedRanker:
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.linear_model import LogisticRegression

    vectorizer = DictVectorizer(sparse=False)
    x = vectorizer.fit_transform([r["features"] for r in rows])
    y = [r["match"] >= settings.match for r in rows]
    if len(set(y)) < 2:
        raise ValueError("the candidates are all matches or all not: nothing to learn from")
    model = LogisticRegression(C=settings.c, max_iter=2000).fit(x, y)
    weights = {
        name: round(float(w), 4)
        for name, w in zip(vectorizer.get_feature_names_out(), model.coef_[0])
        if abs(w) >= 1e-4
    }
    return LearnedRanker(weights=weights, bias=round(float(model.intercept_[0]), 4))


def measure(ranker: LearnedRanker, rows: Sequence[dict], settings: RankerSettings) -> dict:
    """AUROC of the ranker's probability for matches, and the check threshold: the highest
    probability under which at most ``check_false_alarms`` of the matches fall."""
    from sklearn.metrics import roc_auc_score

    probs = [ranker.probability(r["features"]) for r in rows]
    y = [r["match"] >= settings.match for r in rows]
    figures: dict[str, Any] = {"candidates": len(rows), "matches": sum(y)}
    if len(set(y)) == 2:
        figures["auroc"] = round(float(roc_auc_score(y, probs)), 4)
    good = sorted(p for p, m in zip(probs, y) if m)
    if good:
        figures["check_below"] = good[int(len(good) * settings.check_false_alarms)]
        bad = [p for p, m in zip(probs, y) if not m]
        figures["non_matches_checked"] = round(
            sum(p < figures["check_below"] for p in bad) / max(1, len(bad)), 4
        )
    return figures


def held_out(data: str | Path, settings: RankerSettings, adapter: str | Path | None):
    """The train stories the proposer never saw, and the val stories."""
    from qg_studio.models.config import TrainedConfig
    from qg_studio.train.examples import load_splits
    from qg_studio.train.lm import split_holdout

    train, val = load_splits(data)
    named = set(TrainedConfig.from_pretrained(adapter).held_out_stories) if adapter else set()
    if named:
        stories = [s for s in train if s.name in named]
    else:
        stories = split_holdout(train, settings.holdout_every)[1]
    if settings.max_stories:
        stories = stories[: settings.max_stories]
    return stories, val[: settings.max_val] if settings.max_val else val


def run(
    data: str | Path,
    out: str | Path,
    settings: RankerSettings,
    work: str | Path | None = None,
    adapter: str | Path | None = None,
    answerer=None,
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    out = Path(out)
    # Candidates are kept per engine: another proposer's must never be read as these.
    engine = settings.engine.replace("+", "-")
    work = Path(work) if work else out.with_name(f"{out.name}-candidates-{engine}")
    options = {"model": str(adapter)} if adapter else None
    if answerer is None:
        from qg_studio.services.answers import load_answerer

        answerer = load_answerer("extractive")
    train_stories, val_stories = held_out(data, settings, adapter)
    train = collect(train_stories, settings, work, "train", answerer, progress, options)
    val = collect(val_stories, settings, work, "val", answerer, progress, options)
    ranker = fit(train, settings)
    figures = {
        "settings": asdict(settings),
        "train": {**measure(ranker, train, settings), "stories": len(train_stories)},
        "val": {**measure(ranker, val, settings), "stories": len(val_stories)},
        "adapter": str(adapter) if adapter else None,
    }
    ranker.check_below = figures["val"].get("check_below", ranker.check_below)
    ranker.figures = figures
    ranker.save(out)
    return figures


# -- learning from the teacher ------------------------------------------------------------

MIN_DECISIONS = 20  # fewer kept-or-dropped questions say nothing a ranker could learn


def decision_rows(store) -> list[dict]:
    """Every generated question the user kept or dropped, with its features; kept is a
    match. A question the teacher typed is left out (no proposer made it)."""
    from qg_studio.data.projects import _known_engines
    from qg_studio.data.projects import origin_of
    from qg_studio.schema import ReviewStatus

    engines = _known_engines()
    rows = []
    for project in store.list_projects():
        for story in store.list_stories(project.id):
            words = story_vocabulary(section_texts(story.sections))
            for item in store.list_items(story.id):
                if item.status is ReviewStatus.UNREVIEWED:
                    continue
                if origin_of(store.created_by(item.id), engines) != "engine":
                    continue
                rows.append(
                    {
                        "story": f"{project.id}/{story.id}",
                        "features": features(item, words),
                        "match": 1.0 if item.status is ReviewStatus.KEPT else 0.0,
                    }
                )
    return rows


def refit_from_store(
    store, out: str | Path, settings: RankerSettings, holdout_every: int = 5
) -> dict[str, Any]:
    """Refit the ranker's weights on the teacher's own keep and drop decisions, measured
    on the decisions of every ``holdout_every``-th story, which it does not learn from."""
    rows = decision_rows(store)
    if len(rows) < MIN_DECISIONS:
        raise ValueError(
            f"{len(rows)} kept or dropped questions in your projects; the ranker needs at "
            f"least {MIN_DECISIONS} to learn from (keep and drop some in Curate first)"
        )
    stories = sorted({r["story"] for r in rows})
    held = {s for i, s in enumerate(stories) if i % holdout_every == holdout_every - 1}
    train = [r for r in rows if r["story"] not in held] or rows
    test = [r for r in rows if r["story"] in held]
    settings = RankerSettings(**{**asdict(settings), "match": 0.5})
    ranker = fit(train, settings)
    figures = {
        "source": "the teacher's decisions",
        "train": {**measure(ranker, train, settings), "stories": len(stories) - len(held)},
        "held_out": {**measure(ranker, test, settings), "stories": len(held)} if test else {},
    }
    ranker.check_below = figures["held_out"].get("check_below") or figures["train"].get(
        "check_below", ranker.check_below
    )
    ranker.figures = figures
    ranker.save(out)
    return figures
