"""The Annotate page's first-pass form, kept in session state per story, and the engines'
suggestions that fill it.

Widget keys carry the story's id, so opening another story starts from a clean form.
Suggested labels, answers and questions fill the form; suggested pairs wait in a list to
be accepted as they are or opened in the form for editing (the store then records the
engine's pair and the person's edits).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from qg_studio.data.validation import item_fields
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.ui.state import get_store
from qg_studio.ui.text import plain

NO_ELEMENT2 = "(none)"


def widget_key(story_id: int, name: str) -> str:
    """Widget keys per story, so opening another story starts from a clean form."""
    return f"ann_{story_id}_{name}"


def form_fields(story_id: int) -> dict[str, Any]:
    s = st.session_state
    element2 = s.get(widget_key(story_id, "element2"))
    return {
        "question": s.get(widget_key(story_id, "question"), ""),
        "element": s.get(widget_key(story_id, "element")),
        "element2": None if element2 in (None, NO_ELEMENT2) else element2,
        "explicitness": s.get(widget_key(story_id, "explicitness")),
        "scope": s.get(widget_key(story_id, "scope")) or "local",
        "sections": list(s.get(widget_key(story_id, "sections")) or []),
        "answers": [s.get(widget_key(story_id, f"a{i}"), "") for i in (1, 2, 3)],
    }


def fill_form(story_id: int, fields: dict[str, Any]) -> None:
    s = st.session_state
    if "question" in fields:
        s[widget_key(story_id, "question")] = fields["question"]
    if fields.get("element"):
        s[widget_key(story_id, "element")] = fields["element"]
    if "element2" in fields:
        s[widget_key(story_id, "element2")] = fields["element2"] or NO_ELEMENT2
    if fields.get("explicitness"):
        s[widget_key(story_id, "explicitness")] = fields["explicitness"]
    if fields.get("scope"):
        s[widget_key(story_id, "scope")] = fields["scope"]
    if "sections" in fields:
        s[widget_key(story_id, "sections")] = list(fields["sections"])
    if "answers" in fields:
        answers = list(fields["answers"]) + ["", "", ""]
        for i in (1, 2, 3):
            s[widget_key(story_id, f"a{i}")] = answers[i - 1]


FORM_DEFAULTS: dict[str, Any] = {
    "question": "",
    "element": None,
    "element2": NO_ELEMENT2,
    "explicitness": "explicit",
    "scope": "local",
    "sections": [],
    "a1": "",
    "a2": "",
    "a3": "",
}


def clear_form(story_id: int) -> None:
    s = st.session_state
    # Set, not delete: a deleted key leaves the browser showing the old value.
    for key, value in FORM_DEFAULTS.items():
        s[widget_key(story_id, key)] = list(value) if isinstance(value, list) else value
    s.pop(widget_key(story_id, "editing"), None)
    s.pop(widget_key(story_id, "suggested"), None)


def _chosen_sections(story_id: int, sections: list[Section]) -> list[Section]:
    wanted = set(st.session_state.get(widget_key(story_id, "sections")) or [])
    return [s for s in sections if s.id in wanted] or list(sections)


def suggest(story_id: int, sections: list[Section], what: str, count: int = 3) -> None:
    from qg_studio.services import suggestions

    fields = form_fields(story_id)
    chosen = _chosen_sections(story_id, sections)
    if what == "labels":
        result = suggestions.suggest_labels(fields["question"], fields["answers"][0], chosen)
    elif what == "answer":
        result = suggestions.suggest_answer(fields["question"], chosen)
    elif what == "question":
        result = suggestions.suggest_question(
            chosen, fields["answers"][0], fields["element"] or "action", fields["explicitness"]
        )
    else:
        result = suggestions.suggest_items(chosen, count)
        st.session_state[widget_key(story_id, "candidates")] = [i.to_dict() for i in result.items]
    if result.fields:
        fill_form(story_id, result.fields)
    message = f"Suggested by {result.engine}." if result.ok else result.note
    st.session_state[widget_key(story_id, "feedback")] = [
        ("info" if result.ok else "warning", message)
    ]


def suggested_items(story_id: int, sections: list[Section], actor: str) -> None:
    candidates = st.session_state.get(widget_key(story_id, "candidates")) or []
    for n, data in enumerate(candidates):
        item = QAItem.from_dict(data)
        st.markdown(
            f"**{plain(item.question)}** — {plain(item.answer)} · {item.element.value}, "
            f"{item.explicitness.value}, sections {item.sections}"
        )
        row = st.container(horizontal=True)
        row.button(
            "Accept", key=widget_key(story_id, f"acc_{n}"), on_click=_accept, args=(story_id, n)
        )
        row.button(
            "Edit",
            key=widget_key(story_id, f"edit_{n}"),
            on_click=_edit_candidate,
            args=(story_id, n),
        )


def _accept(story_id: int, n: int) -> None:
    candidates = st.session_state.get(widget_key(story_id, "candidates")) or []
    item = QAItem.from_dict({**candidates.pop(n), "id": None})
    get_store().add_items(story_id, [item], actor=item.engine or "embedded")
    st.session_state[widget_key(story_id, "feedback")] = [("success", "Suggested pair saved.")]


def _edit_candidate(story_id: int, n: int) -> None:
    candidates = st.session_state.get(widget_key(story_id, "candidates")) or []
    data = candidates.pop(n)
    item = QAItem.from_dict({**data, "id": None})
    clear_form(story_id)
    fill_form(story_id, item_fields(item))
    st.session_state[widget_key(story_id, "suggested")] = data
