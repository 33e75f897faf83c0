"""``qg-studio``: one argparse tree; each module of this package adds its commands.

A module here defines ``register(commands)`` and is found by name, so the parts of
QG Studio add their commands without editing a shared file.
"""

from __future__ import annotations

# Ctrl-C before main() takes over (while Python is still importing) ends quietly too. The
# built-in _signal, not signal: importing signal builds its enums, a tenth of a second on a
# busy machine in which a Ctrl-C would still print a traceback.
import _signal
import sys

_signal.signal(
    _signal.SIGINT, lambda *_: (print("qg-studio: interrupted", file=sys.stderr), sys.exit(130))
)

import argparse  # noqa: E402
import importlib  # noqa: E402
import os  # noqa: E402
import pkgutil  # noqa: E402
import signal  # noqa: E402
from dataclasses import dataclass  # noqa: E402

from qg_studio.cli.common import UserError  # noqa: E402
from qg_studio.services import ServiceError  # noqa: E402

DEBUG = "QG_STUDIO_DEBUG"  # set to 1 for the traceback of an unexpected error


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
    """The command line's one error boundary: whatever goes wrong is one line on stderr
    and an exit status (2: the input or arguments, 1: the machine, the store or a bug;
    130: interrupted), never a traceback (unless QG_STUDIO_DEBUG=1 asks for it)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        args = build_parser().parse_args(argv)
        if not getattr(args, "downloads", False):
            _quiet_loading_bars()
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("qg-studio: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if _interrupted(exc):
            print("qg-studio: interrupted", file=sys.stderr)
            return 130
        return _report(exc)


def _interrupted(exc: BaseException) -> bool:
    # Python 3.11 wraps a Ctrl-C that lands while a class is being made (a dataclass
    # field's __set_name__ during an import) in a RuntimeError; it is still the user's Ctrl-C.
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _report(exc: Exception) -> int:
    from qg_studio.data.fairytaleqa import FtqaFormatError
    from qg_studio.store import StoreError

    if isinstance(exc, (UserError, ServiceError, FtqaFormatError)):
        print(f"qg-studio: error: {exc}", file=sys.stderr)
        return 2
    if isinstance(exc, StoreError):
        print(f"qg-studio: error: {exc}", file=sys.stderr)
        return 1
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        print(f"qg-studio: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 1
    if os.environ.get(DEBUG, "").strip() not in ("", "0"):
        raise exc
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    print(
        f"qg-studio: internal error: {type(exc).__name__}{': ' + first if first else ''} "
        f"(run again with {DEBUG}=1 for the details, and report it)",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
