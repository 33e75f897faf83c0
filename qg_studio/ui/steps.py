"""The teacher's four steps and the "next step" button that leads from one to the next."""

from __future__ import annotations

import streamlit as st

# (url path, what the step is called, what it does) in the order a teacher works.
STEPS = [
    (
        "story",
        "Story",
        "paste or upload a story; it is cut into sections and its reading grade checked",
    ),
    (
        "generate",
        "Generate",
        "QG Studio writes questions about characters, feelings, causes and outcomes",
    ),
    ("curate", "Curate", "keep, edit, reorder or drop them, and add your own"),
    (
        "export",
        "Export",
        "a printable worksheet with an answer key, or a quiz for Kahoot, "
        "Quizizz, Blooket, Gimkit or Moodle",
    ),
]
TITLES = {path: title for path, title, _ in STEPS}


def _placeholder() -> None:  # pragma: no cover - the registered page runs, not this one
    pass


def next_step(to: str, label: str, *, key: str | None = None) -> None:
    """A primary button that opens the page at ``to`` (a url path of the app)."""
    if st.button(
        label, type="primary", icon=":material/arrow_forward:", key=key or f"next_step_{to}"
    ):
        # Streamlit finds a page by its url path alone, so a Page made here opens the
        # one the app registered with st.navigation.
        st.switch_page(st.Page(_placeholder, title=TITLES.get(to, to), url_path=to))
