"""The Annotate page: write expert QA pairs with every FairytaleQA label, a second
annotator's pass, progress and agreement, and exports as training data.

Every save goes through :mod:`qg_studio.data.validation` first; a refused pair stays in
the form with messages naming the fields, and nothing already saved is touched.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from qg_studio.data.projects import origin_of
from qg_studio.data.validation import ERROR
from qg_studio.data.validation import check_annotation
from qg_studio.data.validation import item_fields
from qg_studio.schema import ELEMENTS
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.schema import Section
from qg_studio.ui.annotate_form import NO_ELEMENT2
from qg_studio.ui.annotate_form import clear_form
from qg_studio.ui.annotate_form import fill_form
from qg_studio.ui.annotate_form import form_fields
from qg_studio.ui.annotate_form import suggest
from qg_studio.ui.annotate_form import suggested_items
from qg_studio.ui.annotate_form import widget_key
from qg_studio.ui.annotate_widgets import exports
from qg_studio.ui.annotate_widgets import open_controls
from qg_studio.ui.annotate_widgets import progress
from qg_studio.ui.state import current_project_id
from qg_studio.ui.state import current_story
from qg_studio.ui.state import get_store
from qg_studio.ui.text import plain
from qg_studio.ui.widgets import pick_option

FIRST_PASS, SECOND_PASS = "First annotator", "Second annotator"


def render() -> None:
    st.title("Annotate")
    store = get_store()
    open_controls(store)
    project_id = current_project_id()
    story = current_story()
    if project_id is None or story is None:
        st.info("Upload a FairytaleQA story CSV above, or add a story on the **Story** page.")
        return
    items = store.list_items(story.id)
    top = st.columns([2, 3])
    with top[0]:
        name = st.text_input("Annotator", value="annotator", key="ann_name").strip()
    with top[1]:
        mode = st.radio(
            "Pass",
            [FIRST_PASS, SECOND_PASS],
            horizontal=True,
            key="ann_mode",
            help="The second pass hides the first annotator's answers and records answer4–6.",
        )
    actor = f"annotator:{name or 'annotator'}"
    left, right = st.columns([1, 1], gap="large")
    with left:
        _show_sections(story.sections, items)
    with right:
        _feedback(story.id)
        if mode == FIRST_PASS:
            _first_pass(story.id, story.sections, items, actor)
        else:
            _second_pass(story.id, story.sections, items, actor)
    st.divider()
    _items_table(story.id, items, hide_answers=mode == SECOND_PASS, actor=actor)
    st.divider()
    progress(story, items)
    st.divider()
    exports(project_id, story)


def _show_sections(sections: list[Section], items: list[QAItem]) -> None:
    counts = {s.id: 0 for s in sections}
    for item in items:
        for sid in set(item.sections):
            if sid in counts:
                counts[sid] += 1
    st.subheader(f"Sections ({len(sections)})")
    box = st.container(height=620)
    for section in sections:
        box.markdown(
            f"**Section {section.id}** · {section.words} words · "
            f"{counts[section.id]} question{'s' if counts[section.id] != 1 else ''}"
        )
        box.text(section.text)


def _feedback(story_id: int) -> None:
    feedback = st.session_state.pop(widget_key(story_id, "feedback"), None)
    if not feedback:
        return
    for level, message in feedback:
        # Messages quote what was typed (a question, an answer): shown as text.
        {"error": st.error, "warning": st.warning, "success": st.success, "info": st.info}[level](
            plain(message)
        )


def _first_pass(story_id: int, sections: list[Section], items: list[QAItem], actor: str) -> None:
    editing = st.session_state.get(widget_key(story_id, "editing"))
    st.subheader(f"Editing QA pair {_position(items, editing)}" if editing else "New QA pair")
    ids = [s.id for s in sections]
    st.text_area("Question", key=widget_key(story_id, "question"), height=80)
    cols = st.columns(2)
    cols[0].selectbox(
        "Element",
        [e.value for e in ELEMENTS],
        index=None,
        placeholder="Choose an element",
        key=widget_key(story_id, "element"),
    )
    cols[1].selectbox(
        "Second element (optional)",
        [NO_ELEMENT2] + [e.value for e in ELEMENTS],
        key=widget_key(story_id, "element2"),
    )
    cols = st.columns(2)
    cols[0].radio(
        "Explicitness",
        ["explicit", "implicit"],
        horizontal=True,
        key=widget_key(story_id, "explicitness"),
    )
    cols[1].radio("Scope", ["local", "summary"], horizontal=True, key=widget_key(story_id, "scope"))
    st.multiselect(
        "Sections",
        ids,
        key=widget_key(story_id, "sections"),
        format_func=lambda i: f"Section {i}",
        placeholder="Cite the section(s)",
    )
    for i in (1, 2, 3):
        st.text_input(
            f"Answer {i}" + ("" if i == 1 else " (optional)"), key=widget_key(story_id, f"a{i}")
        )
    # Buttons in a row at their own width: fixed columns cut "Save QA pair" at 1400 px.
    buttons = st.container(horizontal=True)
    buttons.button(
        "Save QA pair",
        type="primary",
        key=widget_key(story_id, "save"),
        on_click=_save_first,
        args=(story_id, sections, actor),
    )
    buttons.button(
        "Clear form", key=widget_key(story_id, "clear"), on_click=clear_form, args=(story_id,)
    )
    with st.expander("Suggestions from the engines"):
        st.caption(
            "Accept or edit what comes back; the exported provenance records "
            "whether an engine or a person wrote each pair, and any edits."
        )
        row = st.container(horizontal=True)
        row.button(
            "Suggest labels",
            key=widget_key(story_id, "sug_labels"),
            on_click=suggest,
            args=(story_id, sections, "labels"),
        )
        row.button(
            "Suggest an answer",
            key=widget_key(story_id, "sug_answer"),
            on_click=suggest,
            args=(story_id, sections, "answer"),
        )
        row.button(
            "Suggest a question",
            key=widget_key(story_id, "sug_question"),
            on_click=suggest,
            args=(story_id, sections, "question"),
        )
        count = st.number_input("Questions to suggest", 1, 10, 3, key=widget_key(story_id, "sug_n"))
        st.button(
            "Suggest QA pairs for the cited sections",
            key=widget_key(story_id, "sug_items"),
            on_click=suggest,
            args=(story_id, sections, "items", int(count)),
        )
        suggested_items(story_id, sections, actor)


def _position(items: list[QAItem], item_id: int | None) -> int:
    return next((n for n, i in enumerate(items, 1) if i.id == item_id), 0)


def _save_first(story_id: int, sections: list[Section], actor: str) -> None:
    store = get_store()
    fields = form_fields(story_id)
    item, issues = check_annotation(fields, sections)
    errors = [str(i) for i in issues if i.level == ERROR]
    warnings = [str(i) for i in issues if i.level != ERROR]
    if item is None:
        st.session_state[widget_key(story_id, "feedback")] = (
            [("error", "Not saved — fix these first:")]
            + [("error", e) for e in errors]
            + [("warning", w) for w in warnings]
        )
        return  # the form keeps what was typed
    editing = st.session_state.get(widget_key(story_id, "editing"))
    suggested = st.session_state.get(widget_key(story_id, "suggested"))
    changes = {k: v for k, v in item_fields(item).items() if k not in ("engine", "ref")}
    if editing:
        store.update_item(editing, actor, **changes)
        done = "QA pair updated."
    elif suggested:
        # Kept as the engine's pair, then the person's edits: provenance shows both.
        original = QAItem.from_dict({**suggested, "id": None})
        (item_id,) = store.add_items(story_id, [original], actor=original.engine or "embedded")
        store.update_item(item_id, actor, **changes)
        done = "Suggested pair saved with your edits."
    else:
        store.add_items(story_id, [item], actor=actor)
        done = "QA pair saved."
    clear_form(story_id)
    st.session_state[widget_key(story_id, "feedback")] = [("success", done)] + [
        ("warning", w) for w in warnings
    ]


# -- second pass ------------------------------------------------------------------------


def _second_pass(story_id: int, sections: list[Section], items: list[QAItem], actor: str) -> None:
    st.subheader("Second annotator")
    if not items:
        st.info("No QA pairs yet: the first annotator writes them.")
        return
    ids = [i.id for i in items]
    labels = {
        i.id: f"{n}. {i.question}" + (" ✓" if i.second_answers else "")
        for n, i in enumerate(items, 1)
    }
    chosen = pick_option("selectbox", "QA pair", ids, labels, widget_key(story_id, "second_pick"))
    item = next(i for i in items if i.id == chosen)
    st.markdown(f"**{plain(item.question)}**  \nSections {', '.join(map(str, item.sections))}")
    st.caption("The first annotator's answers are hidden: answer from the text.")
    with st.form(widget_key(story_id, f"second_{chosen}")):
        values = list(item.second_answers) + ["", "", ""]
        answers = [
            st.text_input(
                f"Answer {n}" + ("" if n == 4 else " (optional)"),
                value=values[n - 4],
                key=widget_key(story_id, f"s{n}_{chosen}"),
            )
            for n in (4, 5, 6)
        ]
        current = item.second_explicitness.value if item.second_explicitness else "explicit"
        explicitness = st.radio(
            "Explicitness (second annotator)",
            ["explicit", "implicit"],
            index=["explicit", "implicit"].index(current),
            horizontal=True,
            key=widget_key(story_id, f"sx_{chosen}"),
        )
        submitted = st.form_submit_button("Save second answers", type="primary")
    if submitted:
        fields = {
            **item_fields(item),
            "second_answers": answers,
            "second_explicitness": explicitness,
        }
        checked, issues = check_annotation(fields, sections)
        if checked is None:
            st.error("Not saved — fix these first:")
            for issue in issues:
                if issue.level == ERROR:
                    st.error(plain(issue))
            return
        get_store().update_item(
            item.id, actor, second_answers=checked.second_answers, second_explicitness=explicitness
        )
        st.session_state[widget_key(story_id, "feedback")] = [
            ("success", "Second answers saved.")
        ] + [
            ("warning", str(i))
            for i in issues
            if i.field.startswith("answer") and i.field[-1] in "456"
        ]
        st.rerun()


# -- saved pairs ------------------------------------------------------------------------


def _items_table(story_id: int, items: list[QAItem], hide_answers: bool, actor: str) -> None:
    store = get_store()
    dropped = sum(i.status is ReviewStatus.DROPPED for i in items)
    st.subheader(f"Saved QA pairs ({len(items) - dropped})")
    if dropped:
        # The export writes what is counted here; a dropped pair stays out of it.
        st.caption(f"{dropped} dropped in Curate: listed below, not exported.")
    if not items:
        st.caption("Nothing saved yet.")
        return
    rows = []
    for n, item in enumerate(items, 1):
        row = {
            "#": n,
            "question": item.question,
            "element": item.element.value,
            "element 2": item.element2.value if item.element2 else "",
            "explicitness": item.explicitness.value,
            "scope": item.scope.value,
            "sections": ",".join(map(str, item.sections)),
        }
        if not hide_answers:
            row["answers"] = " | ".join(item.answers)
        row["second pass"] = "done" if item.second_answers else ""
        row["by"] = origin_of(store.created_by(item.id))
        rows.append(row)
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    if hide_answers:
        return
    ids = [i.id for i in items]
    names = {i.id: f"{n}. {i.question[:70]}" for n, i in enumerate(items, 1)}
    cols = st.columns([3, 2], vertical_alignment="bottom")
    picked = pick_option(
        "selectbox", "Pick a saved pair", ids, names, widget_key(story_id, "pick"), where=cols[0]
    )
    row = cols[1].container(horizontal=True)
    row.button(
        "Edit",
        key=widget_key(story_id, "edit_saved"),
        on_click=_load_saved,
        args=(story_id, picked),
    )
    row.button(
        "Delete",
        key=widget_key(story_id, "delete_saved"),
        on_click=_delete_saved,
        args=(story_id, picked, actor),
    )


def _load_saved(story_id: int, item_id: int) -> None:
    item = get_store().get_item(item_id)
    clear_form(story_id)
    fill_form(story_id, item_fields(item))
    st.session_state[widget_key(story_id, "editing")] = item_id


def _delete_saved(story_id: int, item_id: int, actor: str) -> None:
    get_store().delete_items(story_id, [item_id], actor)
    st.session_state[widget_key(story_id, "feedback")] = [
        ("info", "QA pair deleted (Undo on the Curate page brings it back).")
    ]
