"""``qg-studio``: one argparse tree; each module of this package adds its commands.

A module here defines ``register(commands)`` and is found by name, so the parts of
QG Studio add their commands without editing a shared file.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from dataclasses import dataclass

from qg_studio.cli.common import UserError
from qg_studio.services import ServiceError


@dataclass
class Commands:
    """The subcommand groups a module can add to."""

    top: argparse._SubParsersAction
    eval: argparse._SubParsersAction
    train: argparse._SubParsersAction


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="qg-studio", description="Reading-comprehension questions for any story."
    )
    top = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    eval_parser = top.add_parser("eval", help="measure a component against FairytaleQA-layout data")
    train_parser = top.add_parser("train", help="train a model from FairytaleQA-layout data")
    commands = Commands(
        top=top,
        eval=eval_parser.add_subparsers(dest="what", required=True, metavar="WHAT"),
        train=train_parser.add_subparsers(dest="what", required=True, metavar="WHAT"),
    )
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name == "common":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(commands)
    return parser


def _quiet_loading_bars() -> None:
    # Loading a local checkpoint takes milliseconds; its per-weight progress bars on stderr
    # only bury the lines a user reads there (errors, notes). A download keeps its bars.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    if "transformers" in sys.modules:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not getattr(args, "downloads", False):
        _quiet_loading_bars()
    try:
        return int(args.func(args) or 0)
    except (UserError, ServiceError) as exc:
        print(f"qg-studio: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("qg-studio: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
