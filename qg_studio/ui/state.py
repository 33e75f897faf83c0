"""Session state and cached resources shared by the pages (Streamlit conventions).

The store is the source of truth: session state holds only which project and story
the teacher has open, so a closed tab or a restart loses nothing.
"""

from __future__ import annotations

import streamlit as st

from qg_studio.store import DB_NAME, Store, StoredStory, default_data_dir

PROJECT_KEY = "project_id"


def get_store() -> Store:
    # Keyed by folder, so moving $QG_STUDIO_HOME (as the tests do) opens the new store.
    return _store_at(str(default_data_dir() / DB_NAME))


@st.cache_resource
def _store_at(path: str) -> Store:
    return Store(path)


def current_project_id() -> int | None:
    project_id = st.session_state.get(PROJECT_KEY)
    if project_id is None:
        # Reopening the app (or a new tab) lands on the teacher's latest project.
        projects = get_store().list_projects()
        if projects:
            project_id = projects[0].id
            st.session_state[PROJECT_KEY] = project_id
    return project_id


def open_project(project_id: int | None) -> None:
    st.session_state[PROJECT_KEY] = project_id


def current_story() -> StoredStory | None:
    project_id = current_project_id()
    if project_id is None:
        return None
    return get_store().latest_story(project_id)


def require_story() -> StoredStory | None:
    """The open story, or a note pointing to the Story page."""
    story = current_story()
    if story is None:
        st.info("Open a project and add a story on the **Story** page first.")
    return story
