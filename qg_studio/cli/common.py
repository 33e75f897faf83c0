"""What every command shares: one-line errors and the ``--json`` last line."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any
from typing import Sequence


class UserError(Exception):
    """Bad input or a missing resource: printed as one line, exit status 2."""


def emit_json(payload: Any) -> None:
    """Print ``payload`` as one JSON object on the last line of stdout."""
    sys.stdout.flush()
    print(json.dumps(payload, ensure_ascii=False, default=_default))


def dataset_options(
    parser: Any, split: str | None = None, split_help: str | None = None, limit: bool = False
) -> None:
    """--data (a folder in the FairytaleQA layout), and --split (default ``split``) and
    --limit (the first N stories) for the commands that read one split."""
    parser.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    if split is not None:
        parser.add_argument("--split", default=split, help=split_help)
    if limit:
        parser.add_argument(
            "--limit", type=positive_int, default=None, help="only the first N stories"
        )


def json_and_run(parser: Any, func: Any, help: str | None = None, **defaults: Any) -> None:
    """The --json option (``help``) and the function that runs the command."""
    parser.add_argument("--json", action="store_true", help=help)
    parser.set_defaults(func=func, **defaults)


def exit_with(args: Any, payload: Any, status: int = 0) -> int:
    """End a command: ``payload`` as the JSON last line when ``--json`` asked for it, and
    the exit status."""
    if args.json:
        emit_json(payload)
    return status


def _default(value: Any) -> Any:
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "value"):
        return value.value
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


# Options for the fields of a settings dataclass (training recipes): each row is (field,
# help or None); the option is the field's name with dashes, typed and defaulted as the
# field is, so the command and the recipe cannot disagree on a default.
FLAG_NAMES = {"learning_rate": "--lr"}


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a limit of -1 or 0 means nothing)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1")
    return value


_TYPES = {"int": int, "float": float, "str": str}


def add_options(parser: Any, rows: Sequence[tuple[str, type, Any, str | None]]) -> None:
    """An option for each (keyword, type, default, help), read back as ``args.keyword``."""
    for name, kind, default, help in rows:
        flag = FLAG_NAMES.get(name, "--" + name.replace("_", "-"))
        metavar = flag.lstrip("-").replace("-", "_").upper()
        parser.add_argument(flag, type=kind, default=default, dest=name, metavar=metavar, help=help)


def add_setting_options(
    parser: Any, settings: type, rows: Sequence[tuple[str, str | None]]
) -> None:
    fields = {f.name: f for f in dataclasses.fields(settings)}
    kinds = {name: _TYPES[str(fields[name].type).split("|")[0].strip()] for name, _ in rows}
    add_options(parser, [(name, kinds[name], fields[name].default, help) for name, help in rows])


def settings_from(args: Any, settings: type, rows: Sequence[tuple[str, str | None]]) -> Any:
    """The settings the command's options give (the fields ``rows`` name)."""
    return settings(**{name: getattr(args, name) for name, _ in rows})
