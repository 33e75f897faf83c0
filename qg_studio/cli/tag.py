"""``qg-studio eval tag`` and ``qg-studio train tagger``."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from qg_studio.cli.common import UserError
from qg_studio.cli.common import dataset_options
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.schema import ELEMENTS
from qg_studio.schema import Element
from qg_studio.schema import Explicitness

_SHORT = {
    Element.CHARACTER: "char",
    Element.SETTING: "sett",
    Element.ACTION: "actn",
    Element.FEELING: "feel",
    Element.CAUSAL: "caus",
    Element.OUTCOME: "outc",
    Element.PREDICTION: "pred",
}


def register(commands) -> None:
    ev = commands.eval.add_parser(
        "tag", help="accuracy of the tagger on expert questions (element, explicitness)"
    )
    dataset_options(ev, split="val", split_help="split to measure on (default: val)")
    json_and_run(ev, run_eval, "print a JSON summary as the last line")

    tr = commands.train.add_parser(
        "tagger", help="train the tagger on the train split of a FairytaleQA-layout folder"
    )
    dataset_options(tr)
    tr.add_argument(
        "--out",
        default=None,
        help="output folder (default: models/tagger, where the shipped model lives)",
    )
    json_and_run(tr, run_train, "print a JSON summary as the last line")


def run_eval(args: argparse.Namespace) -> int:
    from qg_studio.services.evaluation import eval_tags
    from qg_studio.services.evaluation import load_split

    if not Path(args.data).is_dir():
        raise UserError(f"no such folder: {args.data}")
    result = eval_tags(load_split(args.data, args.split))
    skipped = result.pop("skipped")
    element_confusion = result.pop("element_confusion")
    explicitness_confusion = result.pop("explicitness_confusion")
    source = "model" if result["tagger"] == "model" else "rules (model file missing)"
    print(
        f"tagger: {source}; {result['n']} questions in {args.data} [{args.split}]"
        + (f"; {skipped} unlabelled rows skipped" if skipped else "")
    )
    print(f"element accuracy      {result['element_acc']:.4f}")
    print(
        f"explicitness accuracy {result['explicitness_acc']:.4f} "
        "(question, answer1, cor_section text)"
    )
    print(f"explicitness accuracy {result['explicitness_acc_question_only']:.4f} (question only)")
    print()
    print("element confusion (rows: expert attribute1, columns: tagger)")
    print(_table(ELEMENTS, element_confusion, _SHORT))
    print()
    print("explicitness confusion (rows: expert ex-or-im1, columns: tagger)")
    print(
        _table(tuple(Explicitness), explicitness_confusion, {e: e.value[:4] for e in Explicitness})
    )
    return exit_with(args, result)


def _table(labels, counts: Counter, short: dict) -> str:
    width = max(len(str(label)) for label in labels)
    head = " " * width + " | " + " ".join(f"{short[c]:>5}" for c in labels) + " |     n  recall"
    lines = [head, "-" * len(head)]
    for gold in labels:
        row = [counts.get((gold, pred), 0) for pred in labels]
        total = sum(row)
        recall = f"{row[labels.index(gold)] / total:.3f}" if total else "    -"
        lines.append(
            f"{str(gold):<{width}} | "
            + " ".join(f"{c:>5}" for c in row)
            + f" | {total:>5}  {recall}"
        )
    return "\n".join(lines)


def run_train(args: argparse.Namespace) -> int:
    from qg_studio.tagging.model import DEFAULT_MODEL
    from qg_studio.train.tagger import train_tagger

    root = Path(args.data)
    if not (root / "questions" / "train").is_dir():
        raise UserError(f"no train split at {root / 'questions' / 'train'}")
    out = Path(args.out) if args.out else DEFAULT_MODEL.parent
    try:
        summary = train_tagger(root, out)
    except ValueError as exc:
        raise UserError(str(exc)) from exc
    return exit_with(args, summary)
