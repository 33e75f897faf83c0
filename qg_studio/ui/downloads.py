"""Download addresses that end with the session that made them.

Streamlit serves a download button's file at an address anyone holding it can fetch,
without signing in. It forgets a closed tab's session once ``server.
disconnectedSessionTTL`` (120 s) has passed, but never tells its media store so: the
session's files stay referenced, and their addresses answer for as long as the server
runs. A school server's exports are a class's questions and a teacher's keys, so a
sweeper runs every :data:`SWEEP_SECONDS`: it drops the references of every session
Streamlit no longer knows, and removes the files no live session refers to (a download
is marked at one pass and removed at the next). An address then stops working within
about two sweeps of its session's end.

This reaches into Streamlit's runtime (the session manager and the media file manager),
the one place the app does; ``tests/browser/test_hostile_pages.py`` fails if that changes.
"""

from __future__ import annotations

import logging
import os
import threading
import time

import streamlit as st

log = logging.getLogger(__name__)
SWEEP_SETTING = "QG_STUDIO_DOWNLOAD_SWEEP_SECONDS"
SWEEP_SECONDS = 30.0


def _interval() -> float:
    try:
        return max(0.2, float(os.environ.get(SWEEP_SETTING, SWEEP_SECONDS)))
    except ValueError:
        return SWEEP_SECONDS


@st.cache_resource
def start_download_sweeper() -> threading.Thread:
    """One sweeper per server process (cached as a resource: every session shares it)."""
    from streamlit import runtime

    def sweep() -> None:
        while True:
            time.sleep(_interval())
            try:
                if runtime.exists():
                    sweep_once(runtime.get_instance())
            except Exception as exc:  # a sweep that fails must not stop the next one
                log.warning("download sweep failed: %s", exc)

    thread = threading.Thread(target=sweep, name="qg-download-sweeper", daemon=True)
    thread.start()
    return thread


def sweep_once(instance) -> None:
    """Forget the files of sessions the server no longer has; remove orphaned files."""
    media = instance.media_file_mgr
    live = {info.session.id for info in instance._session_mgr.list_sessions()}
    for session_id in list(getattr(media, "_files_by_session_and_coord", {})):
        if session_id not in live:
            media.clear_session_refs(session_id)
    media.remove_orphaned_files()
