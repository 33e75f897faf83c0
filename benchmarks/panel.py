"""The reading panel: blind judgement of default sets on fables nobody here has read.

The fables are ``../shared/data/aesop-for-children/fables.jsonl`` (read at run time, never
copied). ``benchmarks/panel/ledger.json`` records every fable anyone working on the
project has seen (read during development, trained on, or judged in a round): a round
samples only fables the ledger does not name, and names them once sampled.

    python benchmarks/panel.py sample   --round r1 --n 30 --seed 2611
    python benchmarks/panel.py generate --round r1 --engine embedded [--engine auto ...]
    python benchmarks/panel.py packets  --round r1 --engine embedded   # one per 15 fables
    # a reader who did not write the code judges each packet with ../shared/rubric.md and
    # saves its JSON as benchmarks/panel/r1/judged-<engine>-<k>.json
    python benchmarks/panel.py score    --round r1 --engine embedded

A packet holds only the rubric, each fable with its printed lesson, and the set
(question and answer key), numbered; never the engine, the rule or any score. ``score``
joins the verdicts back to the sets: the rubric's figures, full sets among fables of 120+
words, and how well the ranker's confidence and "check this answer" separate good from
wrong (AUROC; share of wrong and of good questions marked).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FABLES = ROOT.parent / "shared" / "data" / "aesop-for-children" / "fables.jsonl"
RUBRIC = ROOT.parent / "shared" / "rubric.md"
PANEL = ROOT / "benchmarks" / "panel"
LEDGER = PANEL / "ledger.json"
PACKET_SIZE = 15  # fables per reader, as the brief asks
# One field beyond the rubric's, so confidence can be checked against each verdict.
VERDICTS = (
    '\nAlso give, in each story\'s object, "verdicts": your verdict on each question in '
    'order (["good", "wrong", "awkward", ...]). Return one JSON list of the objects.\n'
)


def fables() -> dict[str, dict]:
    rows = [json.loads(line) for line in FABLES.read_text(encoding="utf-8").splitlines()]
    return {r["id"]: r for r in rows if r.get("text")}


def ledger() -> dict:
    if LEDGER.is_file():
        return json.loads(LEDGER.read_text(encoding="utf-8"))
    return {"seen": {}}


def save_ledger(data: dict) -> None:
    LEDGER.parent.mkdir(parents=True, exist_ok=True)
    LEDGER.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def cmd_sample(args) -> None:
    book, book_ledger = fables(), ledger()
    fresh = sorted(set(book) - set(book_ledger["seen"]))
    if len(fresh) < args.n:
        sys.exit(f"only {len(fresh)} fables are left that nobody has seen")
    chosen = sorted(random.Random(args.seed).sample(fresh, args.n))
    folder = PANEL / args.round
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "fables.json").write_text(json.dumps(chosen, indent=1) + "\n", encoding="utf-8")
    for fable in chosen:
        book_ledger["seen"][fable] = f"judged in round {args.round}"
    save_ledger(book_ledger)
    print(f"round {args.round}: {len(chosen)} fables; {len(fresh) - len(chosen)} left unseen")


def _round_fables(name: str) -> list[str]:
    return json.loads((PANEL / name / "fables.json").read_text(encoding="utf-8"))


def cmd_generate(args) -> None:
    from qg_studio.schema import GenerationRequest
    from qg_studio.services.answers import best_answerer
    from qg_studio.services.generation import generate
    from qg_studio.services.stories import ingest

    book = fables()
    sets = {}
    for fable_id in _round_fables(args.round):
        fable = book[fable_id]
        story = ingest(fable["text"], title=fable["title"])
        run = generate(
            story.sections,
            GenerationRequest(),
            args.engine,
            answerer=best_answerer(),
            title=fable["title"],
        )
        sets[fable_id] = {
            "engine": run.engine,
            "words": len(fable["text"].split()),
            "items": [
                {
                    "question": i.question,
                    "answer": i.answer,
                    "element": i.element.value,
                    "explicitness": i.explicitness.value,
                    "engine": i.engine,
                    "rule": i.rule,
                    "confidence": i.scores.answer_confidence,
                    "check_answer": bool(i.scores.check_answer),
                }
                for i in run.items
            ],
        }
        print(f"{fable_id}: {len(run.items)} questions", flush=True)
    path = PANEL / args.round / f"sets-{args.engine}.json"
    path.write_text(json.dumps(sets, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def cmd_packets(args) -> None:
    book = fables()
    sets = json.loads((PANEL / args.round / f"sets-{args.engine}.json").read_text("utf-8"))
    ids = _round_fables(args.round)
    rubric = RUBRIC.read_text(encoding="utf-8")
    for k, start in enumerate(range(0, len(ids), PACKET_SIZE), 1):
        parts = [rubric, VERDICTS, "\n# The stories and their sets\n"]
        for fable_id in ids[start : start + PACKET_SIZE]:
            fable = book[fable_id]
            parts.append(f"\n## id: {fable_id}\n\n### {fable['title']}\n\n{fable['text']}\n")
            parts.append(f"\nReference lesson: {fable['lesson']}\n\nThe set (asked: 10):\n")
            for n, item in enumerate(sets[fable_id]["items"], 1):
                parts.append(f"{n}. {item['question']} – answer: {item['answer']}")
            parts.append("")
        path = PANEL / args.round / f"packet-{args.engine}-{k}.md"
        path.write_text("\n".join(parts) + "\n", encoding="utf-8")
        print(path)


def _auroc(scores: list[float], positive: list[bool]) -> float | None:
    from sklearn.metrics import roc_auc_score

    if len(set(positive)) < 2:
        return None
    return round(float(roc_auc_score(positive, scores)), 3)


def cmd_score(args) -> None:
    folder = PANEL / args.round
    sets = json.loads((folder / f"sets-{args.engine}.json").read_text("utf-8"))
    judged = {}
    for path in sorted(folder.glob(f"judged-{args.engine}-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for row in data if isinstance(data, list) else data.get("stories", []):
            judged[row["id"]] = row
    if not judged:
        sys.exit(f"no judged-{args.engine}-*.json in {folder}")
    given = sum(r["given"] for r in judged.values())
    verdicts = {k: sum(r[k] for r in judged.values()) for k in ("good", "awkward", "wrong")}
    long = [f for f in judged if sets[f]["words"] >= 120]
    figures = {
        "fables": len(judged),
        "given": given,
        **{f"{k}_share": round(v / max(1, given), 3) for k, v in verdicts.items()},
        **{
            k: round(statistics.mean(r[k] for r in judged.values()), 2)
            for k in ("readability", "q_relevance", "a_relevance")
        },
        "full_sets_120_words": f"{sum(len(sets[f]['items']) >= 10 for f in long)}/{len(long)}",
        "key_event": round(
            statistics.mean(bool(r["covers_key_event"]) for r in judged.values()), 3
        ),
        "lesson_right": round(statistics.mean(r["lesson"] == "right" for r in judged.values()), 3),
        "why_motive": round(statistics.mean(bool(r["why_motive"]) for r in judged.values()), 3),
    }
    # Per-question verdicts, when the judges gave them ("verdicts": ["good", ...] in order).
    scores, good, wrong_marked, good_marked, n_wrong, n_good = [], [], 0, 0, 0, 0
    for fable_id, row in judged.items():
        for item, verdict in zip(sets[fable_id]["items"], row.get("verdicts") or []):
            if verdict == "awkward" or item["confidence"] is None:
                continue
            scores.append(item["confidence"])
            good.append(verdict == "good")
            n_good += verdict == "good"
            n_wrong += verdict == "wrong"
            good_marked += verdict == "good" and item["check_answer"]
            wrong_marked += verdict == "wrong" and item["check_answer"]
    if scores:
        figures["confidence_auroc_good_vs_wrong"] = _auroc(scores, good)
        figures["check_marks_wrong"] = round(wrong_marked / max(1, n_wrong), 3)
        figures["check_marks_good"] = round(good_marked / max(1, n_good), 3)
    print(json.dumps(figures, indent=1))
    (folder / f"figures-{args.engine}.json").write_text(json.dumps(figures, indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sample = sub.add_parser("sample")
    sample.add_argument("--round", required=True)
    sample.add_argument("--n", type=int, default=30)
    sample.add_argument("--seed", type=int, required=True)
    sample.set_defaults(func=cmd_sample)
    for name, func in (("generate", cmd_generate), ("packets", cmd_packets), ("score", cmd_score)):
        p = sub.add_parser(name)
        p.add_argument("--round", required=True)
        p.add_argument("--engine", default="auto")
        p.set_defaults(func=func)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
