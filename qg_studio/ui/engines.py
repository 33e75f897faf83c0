"""The engines the pages use, loaded once per server process and shared by every session.

Loading a model takes seconds; answering one question with a loaded one takes well under
one. So the answerer and the question writer are Streamlit resources: the first page that
needs one loads it, every later rerun, page and visitor reuses it.
"""

from __future__ import annotations

import threading

import streamlit as st

from qg_studio.ui.text import plain

FRIENDLY = {
    "embedded": "QG Studio's built-in question writer",
    "extractive": "QG Studio's built-in answerer",
}


# The choices are the services' (made once per process); these wrappers add the spinner.


@st.cache_resource(show_spinner="Checking the question writers available here…")
def question_writer():
    """The best question engine that works here (an EngineChoice)."""
    from qg_studio.services.generation import best_engine

    return best_engine()


@st.cache_resource(show_spinner="Loading the answerer…")
def answerer():
    """The best answerer that loads here; the built-in one when a model will not load."""
    from qg_studio.services.answers import best_answerer

    return best_answerer()


def quiz_answerer():
    """The answerer that keeps right answers out of a quiz's wrong options; None when no
    answerer loads here (the key alone then rules options out)."""
    try:
        return answerer()
    except Exception:  # the check is a safeguard on top of the key's: go on without it
        return None


_warming = threading.Lock()
_warmed = False


def warm_answerer() -> None:
    """Load the answerer and the tagger in the background, once per process.

    Curate calls it when it opens: by the time a teacher has typed a question to add
    by hand, the models are in memory and the answer comes in about a second, not the
    15-20 s of a first load.
    """
    global _warmed
    with _warming:
        if _warmed:
            return
        _warmed = True

    def load() -> None:
        from qg_studio.schema import Section
        from qg_studio.services.answers import best_answerer
        from qg_studio.tagging import tag

        try:
            sections = [Section(1, "Ann fed the cat because it was hungry.")]
            best_answerer().answer(["Why did Ann feed the cat?"], sections)
            tag("Why did Ann feed the cat?", "it was hungry", sections)
        except Exception:  # noqa: BLE001 - a warm-up only; the real call reports problems
            pass

    threading.Thread(target=load, name="qg-warm-answerer", daemon=True).start()


def describe(name: str, options: dict | None = None) -> str:
    """An engine as a teacher reads it: what it is, not how to install it."""
    model = (options or {}).get("model")
    if model:
        return f"the {plain(model)} model"
    return FRIENDLY.get(name, f"the {name} engine")


def writer_caption() -> str:
    choice = question_writer()
    where = (
        "runs on this computer, no internet needed"
        if choice.name == "embedded"
        else "a trained model"
    )
    return (
        f"Questions are written by {describe(choice.name, choice.options)} ({where}). "
        "Which models are installed, and how to add one: the **Models** page."
    )
