"""What every command shares: one-line errors and the ``--json`` last line."""

from __future__ import annotations

import json
import sys
from typing import Any


class UserError(Exception):
    """Bad input or a missing resource: printed as one line, exit status 2."""


def emit_json(payload: Any) -> None:
    """Print ``payload`` as one JSON object on the last line of stdout."""
    sys.stdout.flush()
    print(json.dumps(payload, ensure_ascii=False, default=_default))


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
