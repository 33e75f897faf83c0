"""Session state and cached resources shared by the pages (Streamlit conventions).

The store is the source of truth: session state holds only which project and story
the teacher has open, so a closed tab or a restart loses nothing. The current user
comes from here and only here; every store a page gets acts as that user, so a page
cannot see or change another teacher's projects. ``?project=<id>`` in the address
opens one of the user's projects; anyone else's reads as missing.
"""

from __future__ import annotations

import streamlit as st

from qg_studio.store import DB_NAME
from qg_studio.store import Store
from qg_studio.store import StoredStory
from qg_studio.store import StoreError
from qg_studio.store import default_data_dir
from qg_studio.ui.auth import User
from qg_studio.ui.auth import signed_in_user
from qg_studio.ui.text import plain

PROJECT_KEY = "project_id"
PROJECT_PARAM = "project"


def current_user() -> User:
    """The signed-in teacher (server mode) or the one local user.

    The app's entry point has already shown the sign-in screen to anyone not signed in
    (:func:`qg_studio.ui.auth.require_user`); a page run without it still stops here.
    """
    user = signed_in_user()
    if user is None:
        st.stop()
    return user


def current_actor() -> str:
    """How the current user's own edits are named in the history."""
    return current_user().label


def get_store() -> Store:
    # Keyed by folder, so moving $QG_STUDIO_HOME (as the tests do) opens the new store.
    return _store_at(str(default_data_dir() / DB_NAME)).as_user(current_user().id)


@st.cache_resource
def _store_at(path: str) -> Store:
    # One store per file for the whole server; it opens a connection per thread.
    return Store(path)


def current_project_id() -> int | None:
    store = get_store()
    wanted = st.query_params.get(PROJECT_PARAM)
    if wanted is not None and wanted != str(st.session_state.get(PROJECT_KEY)):
        try:
            st.session_state[PROJECT_KEY] = store.get_project(int(wanted)).id
        except (ValueError, StoreError):
            st.error(f"There is no project {plain(wanted)} among your projects.")
            del st.query_params[PROJECT_PARAM]
    project_id = st.session_state.get(PROJECT_KEY)
    if project_id is not None:
        try:
            store.get_project(project_id)
        except StoreError:  # deleted meanwhile, or not this user's
            project_id = None
    if project_id is None:
        # Reopening the app (or a new tab) lands on the teacher's latest project.
        projects = store.list_projects()
        project_id = projects[0].id if projects else None
    st.session_state[PROJECT_KEY] = project_id
    return project_id


def open_project(project_id: int | None) -> None:
    st.session_state[PROJECT_KEY] = project_id
    if project_id is None:
        st.query_params.pop(PROJECT_PARAM, None)
    else:
        st.query_params[PROJECT_PARAM] = str(project_id)


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


# -- widget values that outlive a visit to another page -----------------------------------

_KEPT = "_kept_"


def sticky(key: str, default) -> None:
    """Give the widget ``key`` the value it had when the teacher last left this page, else
    ``default``. Streamlit forgets the state of a widget that a run does not draw (any
    other page), so the value is also kept under a key of our own (:func:`keep`). Create
    the widget without ``value=``: its value comes from here."""
    if key not in st.session_state:
        st.session_state[key] = st.session_state.get(_KEPT + key, default)


def keep(*keys: str) -> None:
    """Remember these widgets' values for the next visit (see :func:`sticky`)."""
    for key in keys:
        if key in st.session_state:
            st.session_state[_KEPT + key] = st.session_state[key]
