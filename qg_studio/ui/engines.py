"""The engines the pages use, loaded once per server process and shared by every session.

Loading a model takes seconds; answering one question with a loaded one takes well under
one. So the answerer and the question writer are Streamlit resources: the first page that
needs one loads it, every later rerun, page and visitor reuses it.
"""

from __future__ import annotations

import streamlit as st

FRIENDLY = {"embedded": "QG Studio's built-in question writer",
            "extractive": "QG Studio's built-in answerer"}


@st.cache_resource(show_spinner="Checking the question writers available here…")
def question_writer():
    """The best question engine that works here (an EngineChoice)."""
    from qg_studio.models import choose_engine

    return choose_engine("qg")


@st.cache_resource(show_spinner="Checking the answerers available here…")
def _answering_choice():
    from qg_studio.models import choose_engine

    return choose_engine("qa")


@st.cache_resource(show_spinner="Loading the answerer…")
def _load_answerer(name: str, model: str | None):
    from qg_studio.answering import get_answerer

    return get_answerer(name, **({"model": model} if model else {}))


def answerer():
    """The best answerer that loads here; the built-in one when a model will not load."""
    choice = _answering_choice()
    try:
        return _load_answerer(choice.name, choice.options.get("model"))
    except Exception:  # noqa: BLE001 - a broken model falls back, as generation does
        return _load_answerer("extractive", None)


def describe(name: str, options: dict | None = None) -> str:
    """An engine as a teacher reads it: what it is, not how to install it."""
    model = (options or {}).get("model")
    if model:
        return f"the {model} model"
    return FRIENDLY.get(name, f"the {name} engine")


def writer_caption() -> str:
    choice = question_writer()
    where = ("runs on this computer, no internet needed" if choice.name == "embedded"
             else "a trained model")
    return (f"Questions are written by {describe(choice.name, choice.options)} ({where}). "
            "Which models are installed, and how to add one: the **Models** page.")
