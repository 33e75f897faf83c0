"""The measurements against FairytaleQA-layout data: each returns the figures as a dict
(what ``--json`` prints) and the ``eval`` commands only print them.

The scores themselves (ROUGE-L, KL, Pk, ...) are :mod:`qg_studio.evaluate`'s.
"""

from __future__ import annotations

import time
from collections import Counter
from collections import defaultdict
from pathlib import Path
from typing import Any
from typing import Callable

from qg_studio.evaluate import best_rouge_l
from qg_studio.evaluate import bootstrap_ci
from qg_studio.evaluate import kl_divergence
from qg_studio.evaluate import mean
from qg_studio.evaluate import rouge_l
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.services import ServiceError
from qg_studio.services.generation import generate
from qg_studio.services.generation import question_writer
from qg_studio.services.generation import resolve_engine

Show = Callable[[str], None]


def load_split(data: str | Path, split: str, limit: int | None = None):
    """The stories of a FairytaleQA-layout split, or a ServiceError naming what is missing."""
    from qg_studio.data.fairytaleqa import read_split

    try:
        stories = read_split(data, split)
    except FileNotFoundError as exc:
        raise ServiceError(str(exc)) from None
    if limit:
        stories = stories[:limit]
    if not stories:
        raise ServiceError(f"no stories in {data} split {split}")
    return stories


def _means(groups: dict[str, list[float]]) -> dict[str, float]:
    return {k: round(mean(v), 4) for k, v in sorted(groups.items())}


def _engine(engine: str, engine_options: dict | None, notice: Show | None):
    name, options, line = resolve_engine(engine, engine_options)
    if line and notice is not None:
        notice(line)
    return name, options


def eval_qg(
    stories,
    engine: str = "embedded",
    engine_options: dict | None = None,
    show: Show | None = None,
    notice: Show | None = None,
    answerer: str = "auto",
) -> dict[str, Any]:
    """Answer-aware generation: the engine writes the question for each expert answer
    (a model engine checking its wordings with ``answerer``, as the app's writer does);
    ROUGE-L against the expert's question."""
    writer = question_writer(*_engine(engine, engine_options, notice), answerer=answerer)
    scores: list[float] = []
    per_element: dict[str, list[float]] = defaultdict(list)
    per_explicitness: dict[str, list[float]] = defaultdict(list)
    for story in stories:
        by_id = {s.id: s for s in story.sections}
        asked = []
        for question in story.questions:
            sections = [by_id[i] for i in question.sections if i in by_id]
            answer = question.row.get("answer1", "")
            if sections and answer:
                asked.append(
                    (
                        question,
                        (
                            sections,
                            answer,
                            Element.parse(question.row["attribute1"]),
                            question.row["ex-or-im1"] or "explicit",
                        ),
                    )
                )
        # An engine that decodes in batches (smollm) writes a story's questions at once.
        written = writer.write_many([t for _, t in asked])
        for (question, (_, _, element, explicitness)), item in zip(asked, written):
            score = rouge_l(item.question, question.row["question"])
            scores.append(score)
            per_element[element.value].append(score)
            per_explicitness[explicitness].append(score)
            if show is not None:
                show(
                    f"{score:.2f}\t{element.value}\t{item.question}\t|| {question.row['question']}"
                )
    return {
        "rougeL_f": round(mean(scores), 4),
        "rougeL_f_ci95": bootstrap_ci(scores),
        "n": len(scores),
        "per_element": _means(per_element),
        "per_explicitness": _means(per_explicitness),
        "counts": {k: len(v) for k, v in {**per_element, **per_explicitness}.items()},
        "engine": engine,
        "answerer": answerer,
    }


def eval_qag(
    stories,
    k: int = 2,
    engine: str = "embedded",
    engine_options: dict | None = None,
    notice: Show | None = None,
) -> dict[str, Any]:
    """Each expert question scores its best ROUGE-L against the engine's top ``k`` for its
    section; the element mix is compared with the experts' by KL divergence."""
    if k < 1:
        raise ServiceError("--k must be at least 1")
    scores: list[float] = []
    engine_mix: Counter = Counter()
    expert_mix: Counter = Counter()
    request = GenerationRequest(count=None, per_section=k, implicit_share=0.3)
    engine, engine_options = _engine(engine, engine_options, notice)
    for story in stories:
        # Sections are generated one at a time, as the experts wrote per section.
        proposed: dict[int, list[str]] = {}
        run = generate(story.sections, request, engine, engine_options, fallback=False)
        for item in run.items:
            engine_mix[item.element.value] += 1
            for section_id in item.sections[:1]:
                proposed.setdefault(section_id, []).append(item.question)
        for question in story.questions:
            expert_mix[question.row["attribute1"]] += 1
            candidates = [q for sid in question.sections for q in proposed.get(sid, [])]
            scores.append(best_rouge_l(question.row["question"], candidates) if candidates else 0.0)
    return {
        "rougeL_f": round(mean(scores), 4),
        "rougeL_f_ci95": bootstrap_ci(scores),
        "k": k,
        "element_kl": round(kl_divergence(expert_mix, engine_mix), 4),
        "n": len(scores),
        "engine_mix": dict(engine_mix),
        "expert_mix": dict(expert_mix),
    }


def eval_qa(stories, answerer, given_sections: bool = False) -> dict[str, Any]:
    """The answerer on expert questions, scored as the FairytaleQA paper does (best
    ROUGE-L against answer1 and answer4)."""
    scores: list[float] = []
    by_explicitness: dict[str, list[float]] = defaultdict(list)
    by_element: dict[str, list[float]] = defaultdict(list)
    hits: list[float] = []
    flag_right: list[float] = []
    started = time.time()
    for story in stories:
        questions = [q for q in story.questions if q.row.get("question", "").strip()]
        if not questions:
            continue
        given = [q.sections for q in questions] if given_sections else None
        replies = answerer.answer([q.row["question"] for q in questions], story.sections, given)
        for q, reply in zip(questions, replies):
            refs = [q.row.get("answer1", ""), q.row.get("answer4", "")]
            score = best_rouge_l(reply.answers[0] if reply.answers else "", refs)
            scores.append(score)
            by_explicitness[q.row.get("ex-or-im1", "").strip() or "explicit"].append(score)
            by_element[q.row.get("attribute1", "").strip()].append(score)
            flag_right.append(
                float(reply.explicit == (q.row.get("ex-or-im1", "").strip() != "implicit"))
            )
            if not given_sections and reply.sections:
                hits.append(float(reply.sections[0] in q.sections))
    result: dict[str, Any] = {
        "rougeL_f": round(mean(scores), 4),
        "rougeL_f_ci95": bootstrap_ci(scores),
        "explicit": round(mean(by_explicitness.get("explicit", [])), 4),
        "implicit": round(mean(by_explicitness.get("implicit", [])), 4),
        "per_element": _means(by_element),
        "explicit_flag_accuracy": round(mean(flag_right), 4),
        "n": len(scores),
        "given_sections": bool(given_sections),
        "counts": {k: len(v) for k, v in {**by_explicitness, **by_element}.items()},
        "seconds": round(time.time() - started, 1),
    }
    if hits:
        result["retrieval_accuracy"] = round(mean(hits), 4)
    note = getattr(answerer, "load_error", "") if getattr(answerer, "fallback", False) else ""
    if note:
        result["note"] = f"fallback answerer: {note}"
    return result


def eval_tags(stories) -> dict[str, Any]:
    """The tagger on expert questions: element and explicitness accuracy, with and
    without the answer and its sections, and both confusion counts."""
    from qg_studio.tagging import tag_many
    from qg_studio.tagging.model import load_model

    questions, answers, sections, gold_el, gold_ex = [], [], [], [], []
    skipped = 0
    for story in stories:
        by_id = {s.id: s for s in story.sections}
        for q in story.questions:
            try:
                element = Element.parse(q.row.get("attribute1", ""))
                explicit = Explicitness.parse(q.row.get("ex-or-im1", ""))
                ids = q.sections
            except ValueError:
                skipped += 1  # an unlabelled or malformed row cannot be scored
                continue
            questions.append(q.row.get("question", ""))
            answers.append(q.row.get("answer1") or None)
            sections.append([by_id[i] for i in ids if i in by_id])
            gold_el.append(element)
            gold_ex.append(explicit)
    if not questions:
        raise ServiceError("no labelled questions in this split")
    tags = tag_many(questions, answers, sections)
    bare = tag_many(questions)  # as a teacher types them: no answer, no sections
    n = len(tags)
    return {
        "element_acc": round(sum(t.element == g for t, g in zip(tags, gold_el)) / n, 4),
        "explicitness_acc": round(sum(t.explicitness == g for t, g in zip(tags, gold_ex)) / n, 4),
        "n": n,
        "explicitness_acc_question_only": round(
            sum(t.explicitness == g for t, g in zip(bare, gold_ex)) / n, 4
        ),
        "tagger": "model" if load_model() is not None else "rules",
        "skipped": skipped,
        "element_confusion": Counter(zip(gold_el, (t.element for t in tags))),
        "explicitness_confusion": Counter(zip(gold_ex, (t.explicitness for t in tags))),
    }


def eval_sections(data: str | Path, split: str) -> dict[str, Any]:
    """The sectioner's agreement with the experts' sections (boundaries, Pk, WindowDiff)."""
    from qg_studio.sectioning_eval import evaluate_sections

    try:
        return evaluate_sections(data, split)
    except FileNotFoundError as exc:
        raise ServiceError(str(exc)) from None
