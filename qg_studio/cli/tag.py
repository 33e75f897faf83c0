"""``qg-studio eval tag`` and ``qg-studio train tagger``."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from qg_studio.cli.common import UserError, emit_json
from qg_studio.schema import ELEMENTS, Element, Explicitness

_SHORT = {Element.CHARACTER: "char", Element.SETTING: "sett", Element.ACTION: "actn",
          Element.FEELING: "feel", Element.CAUSAL: "caus", Element.OUTCOME: "outc",
          Element.PREDICTION: "pred"}


def register(commands) -> None:
    ev = commands.eval.add_parser(
        "tag", help="accuracy of the tagger on expert questions (element, explicitness)")
    ev.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    ev.add_argument("--split", default="val", help="split to measure on (default: val)")
    ev.add_argument("--json", action="store_true", help="print a JSON summary as the last line")
    ev.set_defaults(func=run_eval)

    tr = commands.train.add_parser(
        "tagger", help="train the tagger on the train split of a FairytaleQA-layout folder")
    tr.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    tr.add_argument("--out", default=None,
                    help="output folder (default: models/tagger, where the shipped model lives)")
    tr.add_argument("--json", action="store_true", help="print a JSON summary as the last line")
    tr.set_defaults(func=run_train)


def _read(data: str, split: str):
    from qg_studio.data.fairytaleqa import read_split

    root = Path(data)
    if not root.is_dir():
        raise UserError(f"no such folder: {root}")
    try:
        stories = read_split(root, split)
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from exc
    return stories


def run_eval(args: argparse.Namespace) -> int:
    from qg_studio.tagging import load_model, tag_many

    questions, answers, sections, gold_el, gold_ex = [], [], [], [], []
    skipped = 0
    for story in _read(args.data, args.split):
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
        raise UserError(f"no labelled questions in the {args.split!r} split of {args.data}")

    tags = tag_many(questions, answers, sections)
    bare = tag_many(questions)  # as a teacher types them: no answer, no sections
    n = len(tags)
    element_acc = sum(t.element == g for t, g in zip(tags, gold_el)) / n
    explicit_acc = sum(t.explicitness == g for t, g in zip(tags, gold_ex)) / n
    bare_acc = sum(t.explicitness == g for t, g in zip(bare, gold_ex)) / n
    source = "model" if load_model() is not None else "rules (model file missing)"

    print(f"tagger: {source}; {n} questions in {args.data} [{args.split}]"
          + (f"; {skipped} unlabelled rows skipped" if skipped else ""))
    print(f"element accuracy      {element_acc:.4f}")
    print(f"explicitness accuracy {explicit_acc:.4f} (question, answer1, cor_section text)")
    print(f"explicitness accuracy {bare_acc:.4f} (question only)")
    print()
    print("element confusion (rows: expert attribute1, columns: tagger)")
    print(_table(ELEMENTS, Counter(zip(gold_el, (t.element for t in tags))), _SHORT))
    print()
    print("explicitness confusion (rows: expert ex-or-im1, columns: tagger)")
    print(_table(tuple(Explicitness), Counter(zip(gold_ex, (t.explicitness for t in tags))),
                 {e: e.value[:4] for e in Explicitness}))
    if args.json:
        emit_json({"element_acc": round(element_acc, 4), "explicitness_acc": round(explicit_acc, 4),
                   "n": n, "explicitness_acc_question_only": round(bare_acc, 4),
                   "tagger": "model" if source == "model" else "rules"})
    return 0


def _table(labels, counts: Counter, short: dict) -> str:
    width = max(len(str(label)) for label in labels)
    head = " " * width + " | " + " ".join(f"{short[c]:>5}" for c in labels) + " |     n  recall"
    lines = [head, "-" * len(head)]
    for gold in labels:
        row = [counts.get((gold, pred), 0) for pred in labels]
        total = sum(row)
        recall = f"{row[labels.index(gold)] / total:.3f}" if total else "    -"
        lines.append(f"{str(gold):<{width}} | " + " ".join(f"{c:>5}" for c in row)
                     + f" | {total:>5}  {recall}")
    return "\n".join(lines)


def run_train(args: argparse.Namespace) -> int:
    from qg_studio.tagging import DEFAULT_MODEL
    from qg_studio.train.tagger import train_tagger

    root = Path(args.data)
    if not (root / "questions" / "train").is_dir():
        raise UserError(f"no train split at {root / 'questions' / 'train'}")
    out = Path(args.out) if args.out else DEFAULT_MODEL.parent
    try:
        summary = train_tagger(root, out)
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    if args.json:
        emit_json(summary)
    return 0
