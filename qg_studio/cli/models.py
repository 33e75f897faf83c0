"""``qg-studio models list|pull`` and ``qg-studio train qg|qa`` (the seq2seq recipes)."""

from __future__ import annotations

import argparse

from qg_studio.cli.common import UserError
from qg_studio.cli.common import exit_with


def register(commands) -> None:
    models = commands.top.add_parser("models", help="the seq2seq model registry")
    sub = models.add_subparsers(dest="models_command", required=True, metavar="ACTION")
    listing = sub.add_parser("list", help="registered models and whether each is available here")
    listing.add_argument("--json", action="store_true", help="end with one JSON line")
    listing.set_defaults(func=_list)
    pull = sub.add_parser("pull", help="download a registered model from the hub")
    pull.add_argument("name", help="registry name (see `models list`) or a hub id owner/name")
    pull.add_argument("--json", action="store_true", help="end with one JSON line")
    pull.set_defaults(func=_pull, downloads=True)

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
        p.add_argument("--data", required=True, help="folder in the FairytaleQA layout")
        p.add_argument("--out", help="checkpoint folder (default runs/<role>-<base>)")
        p.add_argument("--name", help="registry name for the result (default: folder name)")
        p.add_argument(
            "--no-register", action="store_true", help="do not add the result to the user registry"
        )
        p.add_argument("--train-split", default="train")
        p.add_argument("--val-split", default="val")
        p.add_argument("--epochs", type=float, default=3.0)
        p.add_argument(
            "--max-steps", type=int, default=-1, help="stop after N steps (overrides epochs)"
        )
        p.add_argument("--batch-size", type=int, default=8)
        p.add_argument("--lr", type=float, default=5e-5)
        p.add_argument("--max-source-length", type=int, default=512)
        p.add_argument("--max-target-length", type=int, default=64)
        p.add_argument("--eval-steps", type=int, default=200)
        p.add_argument(
            "--patience", type=int, default=3, help="early-stopping patience (evaluations)"
        )
        p.add_argument("--max-train", type=int, help="train on the first N shuffled examples only")
        p.add_argument("--max-val", type=int, default=300, help="val examples for the loss")
        p.add_argument(
            "--eval-samples",
            type=int,
            default=200,
            help="val examples generated for the card's ROUGE-L",
        )
        p.add_argument("--seed", type=int, default=42)
        p.add_argument(
            "--context-words",
            type=int,
            help="QG: train on the sentences around the answer, at most N words",
        )
        p.add_argument(
            "--max-minutes",
            type=float,
            help="stop after N minutes, keeping the best checkpoint so far",
        )
        p.add_argument("--json", action="store_true", help="end with one JSON line")
        p.set_defaults(func=_train, role=role)


def _list(args: argparse.Namespace) -> int:
    from qg_studio.models import ModelError
    from qg_studio.models import availability
    from qg_studio.models import load_registry

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
    from qg_studio.models import ModelError
    from qg_studio.models import pull

    try:
        path = pull(args.name)
    except ModelError as exc:
        raise UserError(str(exc)) from None
    print(f"{args.name}: {path}")
    return exit_with(args, {"name": args.name, "path": str(path)})


def _train(args: argparse.Namespace) -> int:
    from pathlib import Path

    from qg_studio.models import ModelError
    from qg_studio.train.seq2seq import TrainSettings
    from qg_studio.train.seq2seq import run

    if not Path(args.data).is_dir():
        raise UserError(f"no data folder at {args.data}")
    out = args.out or f"runs/{args.role}-{Path(args.base).name or 'model'}"
    settings = TrainSettings(
        epochs=args.epochs,
        max_steps=args.max_steps,
        batch_size=args.batch_size,
        learning_rate=args.lr,
        max_source_length=args.max_source_length,
        max_target_length=args.max_target_length,
        eval_steps=args.eval_steps,
        patience=args.patience,
        max_train=args.max_train,
        max_val=args.max_val,
        eval_samples=args.eval_samples,
        seed=args.seed,
        context_words=args.context_words,
        max_minutes=args.max_minutes,
    )
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
