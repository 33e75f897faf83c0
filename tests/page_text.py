"""What a reader sees of Markdown written by ``qg_studio.ui.text.plain`` (for AppTest)."""

from __future__ import annotations

import re

from qg_studio.ui.text import JOINER

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def read(markdown: str) -> str:
    return _ESCAPE.sub(r"\1", markdown).replace(JOINER, "")


def labelled(widgets, label: str):
    """The one widget of an AppTest list (``at.selectbox``, ``at.radio``) with this label:
    choices whose option labels change carry a key that changes with them
    (``qg_studio.ui.widgets``), so tests find them as a reader does, by their label."""
    found = [w for w in widgets if w.label == label]
    assert len(found) == 1, f"{len(found)} widgets labelled {label!r}"
    return found[0]
