"""``qg-studio models list|pull`` and ``qg-studio train qg|qa`` (the seq2seq recipes)."""

from __future__ import annotations

import argparse

from qg_studio.cli.common import UserError
from qg_studio.cli.common import add_setting_options
from qg_studio.cli.common import dataset_options
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.cli.common import settings_from

# The recipe's settings the command takes: (TrainSettings field, help).
TRAIN_OPTIONS = (
    ("epochs", None),
    ("max_steps", "stop after N steps (overrides epochs)"),
    ("batch_size", None),
    ("learning_rate", None),
    ("max_source_length", None),
    ("max_target_length", None),
    ("eval_steps", None),
    ("patience", "early-stopping patience (evaluations)"),
    ("max_train", "train on the first N shuffled examples only"),
    ("max_val", "val examples for the loss"),
    ("eval_samples", "val examples generated for the card's ROUGE-L"),
    ("seed", None),
    ("context_words", "QG: train on the sentences around the answer, at most N words"),
    ("max_minutes", "stop after N minutes, keeping the best checkpoint so far"),
)


def register(commands) -> None:
    from qg_studio.train.seq2seq import TrainSettings

    models = commands.top.add_parser("models", help="the seq2seq model registry")
    sub = models.add_subparsers(dest="models_command", required=True, metavar="ACTION")
    listing = sub.add_parser("list", help="registered models and whether each is available here")
    json_and_run(listing, _list, "end with one JSON line")
    pull = sub.add_parser("pull", help="download a registered model from the hub")
    pull.add_argument("name", help="registry name (see `models list`) or a hub id owner/name")
    json_and_run(pull, _pull, "end with one JSON line", downloads=True)

    for role, what in (
        ("qg", "question generation (answer-aware, with control codes)"),
        ("qa", "unified QA (extractive / yesno / abstractive prefixes)"),
    ):
        p = commands.train.add_parser(role, help=f"fine-tune a seq2seq model for {what}")
        p.add_argument(
            "--base",
            required=True,
            help="registry name, checkpoint folder, hub id, or minilm-bert2bert",
        )
        dataset_options(p)
        p.add_argument("--out", help="checkpoint folder (default runs/<role>-<base>)")
        p.add_argument("--name", help="registry name for the result (default: folder name)")
        p.add_argument(
            "--no-register", action="store_true", help="do not add the result to the user registry"
        )
        p.add_argument("--train-split", default="train")
        p.add_argument("--val-split", default="val")
        add_setting_options(p, TrainSettings, TRAIN_OPTIONS)
        json_and_run(p, _train, "end with one JSON line", role=role)


def _list(args: argparse.Namespace) -> int:
    from qg_studio.models.choice import availability
    from qg_studio.models.registry import ModelError
    from qg_studio.models.registry import load_registry

    try:
        registry = load_registry()
    except ModelError as exc:
        raise UserError(str(exc)) from None
    rows = []
    for entry in registry.values():
        ok, reason = availability(entry)
        rows.append({**entry.to_dict(), "available": ok, "where": reason})
    if not args.json:
        width = max((len(r["name"]) for r in rows), default=4)
        for r in rows:
            mark = "available" if r["available"] else "missing  "
            print(
                f"{r['name']:<{width}}  {','.join(r['roles']):<5}  {r['stage']:<5}  {mark}  "
                f"{r['source']}  — {r['where']}"
            )
    return exit_with(args, {"models": rows})


def _pull(args: argparse.Namespace) -> int:
    from qg_studio.models.registry import ModelError
    from qg_studio.models.registry import pull

    try:
        path = pull(args.name)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    print(f"{args.name}: {path}")
    return exit_with(args, {"name": args.name, "path": str(path)})


def _train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from qg_studio.models.registry import ModelError
    from qg_studio.train.seq2seq import TrainSettings
    from qg_studio.train.seq2seq import run

    if not Path(args.data).is_dir():
        raise UserError(f"no data folder at {args.data}")
    out = args.out or f"runs/{args.role}-{Path(args.base).name or 'model'}"
    settings = settings_from(args, TrainSettings, TRAIN_OPTIONS)
    try:
        figures = run(
            args.role,
            args.base,
            args.data,
            out,
            settings,
            name=args.name,
            register=not args.no_register,
            train_split=args.train_split,
            val_split=args.val_split,
        )
    except (ModelError, FileNotFoundError) as exc:
        raise UserError(str(exc)) from None
    print(
        f"saved {out} (val ROUGE-L {figures['val_rougeL_f']}, {figures['steps']} steps); "
        f"model card {Path(out) / 'README.md'}"
    )
    return exit_with(args, figures)
