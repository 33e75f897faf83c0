"""Navigation over the pages, in the order of the teacher's workflow."""

from __future__ import annotations

import streamlit as st

from qg_studio.ui.auth import require_user
from qg_studio.ui.downloads import start_download_sweeper
from qg_studio.ui.pages import annotate
from qg_studio.ui.pages import ask
from qg_studio.ui.pages import curate
from qg_studio.ui.pages import export
from qg_studio.ui.pages import generate
from qg_studio.ui.pages import models
from qg_studio.ui.pages import story
from qg_studio.ui.text import plain

PAGES = [
    st.Page(
        story.render, title="Story", icon=":material/menu_book:", url_path="story", default=True
    ),
    st.Page(generate.render, title="Generate", icon=":material/auto_awesome:", url_path="generate"),
    st.Page(curate.render, title="Curate", icon=":material/edit_note:", url_path="curate"),
    st.Page(export.render, title="Export", icon=":material/download:", url_path="export"),
    st.Page(ask.render, title="Ask", icon=":material/help:", url_path="ask"),
    st.Page(annotate.render, title="Annotate", icon=":material/rate_review:", url_path="annotate"),
    st.Page(models.render, title="Models", icon=":material/memory:", url_path="models"),
]


def main() -> None:
    st.set_page_config(page_title="QG Studio", page_icon=":material/quiz:", layout="wide")
    start_download_sweeper()  # an export's address ends with the session that made it
    require_user()  # server mode: the sign-in screen until a teacher has signed in
    page = st.navigation(PAGES)
    try:
        page.run()
    except Exception as exc:  # the pages' one error boundary (st.stop and st.rerun pass)
        show_error(exc)


def show_error(exc: Exception) -> None:
    """One message with what to do, never a traceback page: the store's own words when
    the project store cannot be used, else what went wrong and that nothing was lost."""
    import logging

    from qg_studio.store import StoreError

    if isinstance(exc, StoreError):
        st.error(f"The projects cannot be opened: {plain(exc)}.", icon=":material/error:")
        return
    logging.getLogger(__name__).exception("a page failed")
    st.error(
        "Something went wrong on this page; everything saved before is still saved. "
        "Reload the page to try again; if it happens again, tell whoever runs QG Studio "
        f"(the server's log has the details: {type(exc).__name__}).",
        icon=":material/error:",
    )
