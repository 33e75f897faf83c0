"""Where a writer may put its files: inside the folder or at the path it was given.

Every exporter names its files from data it does not control (a split name, a story or
project title), so each goes through :func:`inside`; a command's ``--out`` goes through
:func:`output_file`, which writes exactly there (or inside it, for a folder) and never
beside it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class UnsafePath(OSError):
    """A path that would leave the folder a writer was given, or is no place for a file."""


def inside(root: str | Path, *parts: str) -> Path:
    """``root/parts…``, refused when it would resolve outside ``root``."""
    target = Path(root, *parts)
    top = Path(root).resolve()
    resolved = target.resolve()
    if resolved == top or top not in resolved.parents:
        raise UnsafePath(f"{'/'.join(parts)!r} would be written outside {root}")
    return target


def output_file(out: str | Path, default_name: str) -> Path:
    """The file to write for ``--out``: ``out`` itself; inside it when it is a folder
    (or ends in a slash); refused when it exists as something else (a device, a pipe)."""
    text = str(out)
    out = Path(out)
    if out.is_dir() or text.endswith(("/", os.sep)):
        return inside(out, default_name)
    if out.exists() and not out.is_file():
        raise UnsafePath(f"{out} is not a regular file or a folder")
    return out


def write_file(path: str | Path, data: bytes) -> Path:
    """``data`` at ``path``, written whole or not at all (a temporary file beside it,
    then renamed), so a failed export never leaves half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(handle, 0o644)  # mkstemp's 0600 would hide the export from others
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


# -- the files that ship beside the code ---------------------------------------------------

SHARE = ("share", "qg-studio")  # where `pip install .` puts models/ and templates/


def shipped(*parts: str) -> Path:
    """A shipped file or folder (``shipped("models", "tagger")``): the checkout's own when
    the code runs from one (an editable install, the tests), else the copy a wheel put
    under ``<prefix>/share/qg-studio/`` (pyproject.toml's data-files), so a plain
    ``pip install .`` works from any folder."""
    import sys

    checkout = Path(__file__).resolve().parents[1].joinpath(*parts)
    if checkout.exists():
        return checkout
    for prefix in dict.fromkeys((sys.prefix, sys.base_prefix)):
        installed = Path(prefix, *SHARE, *parts)
        if installed.exists():
            return installed
    return checkout  # missing everywhere: the caller says so, naming the checkout's path
