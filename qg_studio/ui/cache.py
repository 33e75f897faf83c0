"""What a page recomputes on every rerun, computed once per change of the story.

Streamlit reruns a page's whole script on every click. Work that depends only on the
story and its questions (the quiz preview, the annotator's statistics)
is cached under the story's *stamp*: its database, its id, its sections' version and its last logged
question change. Every edit, add, delete, move and undo is logged, so a changed set
gets a new stamp and anything else (a rerun, another page, a different format) finds
the cached result. The content itself is passed in underscore arguments, which
Streamlit leaves out of the key: hashing every question on every rerun is what the stamp
saves.
"""

from __future__ import annotations

from typing import Any
from typing import Sequence

import streamlit as st

from qg_studio.schema import QAItem
from qg_studio.schema import Section

Stamp = tuple[str, int, int, int]


def stamp(store, story) -> Stamp:
    """The story's last change: (database, id, sections' version, last question change).
    Ids restart in every database, and the cache outlives a switch of data folder."""
    history = store.history(story.id)
    return (
        str(store.path),
        story.id,
        int(getattr(story, "version", 0)),
        history[-1]["id"] if history else 0,
    )


def project_stamp(store, project_id: int) -> tuple[Stamp, ...]:
    """The last change of every story of the project."""
    return tuple(stamp(store, story) for story in store.list_stories(project_id))


@st.cache_data(show_spinner=False, max_entries=32)
def quiz_preview(
    key: Stamp, kept_only: bool, _chosen: Sequence[QAItem], _sections: Sequence[Section]
) -> list[Any]:
    """The questions as a quiz shows them (options and all), for the Export preview."""
    from qg_studio.export.quizset import prepare
    from qg_studio.ui.engines import quiz_answerer

    return prepare(list(_chosen), list(_sections), answerer=quiz_answerer())


@st.cache_data(show_spinner=False, max_entries=256)
def wrong_options(
    item_key: str, texts: tuple[str, ...], _item: QAItem, _sections: Sequence[Section]
) -> list[str]:
    """The wrong options Curate shows for an item (once per state of the item, its
    ``to_dict`` as JSON, and of the story's text, not on every rerun of the page). Ruled out by the key only, so Curate
    never waits on a model load; the export also asks the answerer, and swaps out an
    option it finds right (Curate's caption says so)."""
    from qg_studio.services.exports import quiz_options

    return quiz_options(_item, list(_sections))


@st.cache_data(show_spinner=False, max_entries=32)
def annotation_stats(key: Stamp, title: str, _section_ids: Sequence[int], _items: Sequence[QAItem]):
    """The Annotate page's progress and agreement figures."""
    from qg_studio.data.stats import story_stats

    return story_stats(title, list(_section_ids), list(_items))


@st.cache_data(show_spinner=False, max_entries=32)
def training_pairs(key: tuple[Stamp, ...], project_id: int, split: str, _store) -> int:
    """How many QA pairs the training-data export of the project holds."""
    from qg_studio.data.projects import export_project

    return sum(len(e.story.questions) for e in export_project(_store, project_id, split))
