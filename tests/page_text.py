"""What a reader sees of Markdown written by ``qg_studio.ui.text.plain`` (for AppTest)."""

from __future__ import annotations

import re

from qg_studio.ui.text import JOINER

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def read(markdown: str) -> str:
    return _ESCAPE.sub(r"\1", markdown).replace(JOINER, "")
