"""The Curate page's tools below the questions: add one by hand, regenerate a section
or an element, undo and the history of changes."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from qg_studio.schema import ELEMENTS
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.services.generation import regenerate_group
from qg_studio.store import Store
from qg_studio.ui.curate_fields import answer_and_tag
from qg_studio.ui.state import current_actor
from qg_studio.ui.state import get_store
from qg_studio.ui.text import plain
from qg_studio.ui.text import quoted

ACTOR = "teacher"
VERSION = "curate_version"
MESSAGE = "curate_message"
PICK = "curate_pick"


def say(kind: str, text: str) -> None:
    """A message shown at the top of the page on its next run (text already escaped)."""
    st.session_state.setdefault(MESSAGE, []).append(f"{kind}:{text}")


def refresh() -> None:
    """New keys for every item widget: after an undo the widgets show the store again."""
    st.session_state[VERSION] = st.session_state.get(VERSION, 0) + 1


def add_by_hand(store: Store, story) -> None:
    with st.expander("Add a question by hand", expanded=False):
        st.caption(
            "It is answered and tagged at once; change the answer or the labels "
            "above if they are wrong."
        )
        with st.form("curate_add_form", clear_on_submit=True):
            st.text_input("Your question", key="curate_new_question")
            st.text_input(
                "Answer (leave empty to let the answerer answer)", key="curate_new_answer"
            )
            c1, c2, c3 = st.columns(3)
            c1.multiselect(
                "About section(s)", [s.id for s in story.sections], key="curate_new_sections"
            )
            c2.selectbox(
                "Element", ["auto", *[e.value for e in ELEMENTS]], key="curate_new_element"
            )
            c3.selectbox(
                "Explicitness",
                ["auto", *[e.value for e in Explicitness]],
                key="curate_new_explicitness",
            )
            st.form_submit_button("Add question", on_click=_add_question, args=(story.id,))


def _add_question(story_id: int) -> None:
    store = get_store()
    story = store.get_story(story_id)
    question = " ".join(st.session_state.get("curate_new_question", "").split())
    if not question:
        say("warning", "Type a question first; nothing was added.")
        return
    typed = st.session_state.get("curate_new_answer", "").strip()
    section_ids = list(st.session_state.get("curate_new_sections") or [])
    fields, notes = answer_and_tag(question, story.sections, section_ids or None, typed)
    for field, key in (
        ("element", "curate_new_element"),
        ("explicitness", "curate_new_explicitness"),
    ):
        chosen = st.session_state.get(key, "auto")
        if chosen != "auto":
            fields[field] = chosen
    fields.setdefault("element", Element.ACTION.value)
    fields.setdefault("explicitness", Explicitness.EXPLICIT.value)
    if not fields.get("answers"):
        fields["answers"] = []
    if section_ids and not fields.get("sections"):
        fields["sections"] = section_ids
    item = QAItem.from_dict(
        {"question": question, "engine": ACTOR, "status": ReviewStatus.KEPT.value, **fields}
    )
    [item_id] = store.add_items(story_id, [item], actor=current_actor())
    st.session_state[PICK] = item_id
    refresh()
    answer = plain(item.answer) if item.answer else "(no answer yet: type one above)"
    from qg_studio.trust import answer_confidence
    from qg_studio.trust import trust_note

    check = trust_note(answer_confidence(item)) if item.answer and not typed else ""
    # A low-confidence answer the answerer guessed is never shown as a success.
    say(
        "warning" if check else "success",
        f"Added {quoted(question, None)} — answer: {answer}"
        f"{f' ({check.upper()[:1] + check[1:]})' if check else ''}; "
        f"{item.element.value} / {item.explicitness.value} ({plain('; '.join(notes))}).",
    )


def regenerate(store: Store, story, items: Sequence[QAItem]) -> None:
    with st.expander("Regenerate a section or an element", expanded=False):
        st.caption(
            "Replaces the questions of that section or element that you have not "
            "reviewed yet; kept questions stay, dropped ones are never asked again."
        )
        c1, c2, c3 = st.columns(3)
        what = c1.radio(
            "Regenerate", ["section", "element"], key="curate_regen_what", horizontal=True
        )
        if what == "section":
            target = c2.selectbox(
                "Section", [s.id for s in story.sections], key="curate_regen_section"
            )
        else:
            target = c2.selectbox(
                "Element", [e.value for e in ELEMENTS], key="curate_regen_element"
            )
        group = regenerate_group(items, what, target)
        replace = [i for i in group if i.status == ReviewStatus.UNREVIEWED]
        count = c3.number_input(
            "New questions", 1, 20, value=max(len(replace), 2), key="curate_regen_count"
        )
        if st.button("Regenerate", key="curate_regen"):
            _do_regenerate(store, story, what, target, int(count), group, replace)


def _do_regenerate(
    store: Store,
    story,
    what: str,
    target,
    count: int,
    group: Sequence[QAItem],
    replace: Sequence[QAItem],
) -> None:
    from qg_studio.services.generation import regenerate

    with st.spinner("Writing new questions…"):
        try:
            done = regenerate(store, story, what, target, count, group, actor=current_actor())
        except Exception as exc:  # keep everything as it was
            st.error(f"Regeneration failed, nothing was changed: {plain(exc)}")
            return
    for notice in done.notices:
        st.info(plain(notice))
    if not done.added:
        st.warning("The generator found no new question there; nothing was changed.")
        return
    say(
        "success",
        f"{len(done.added)} new question(s) for {what} {target}; "
        f"{done.replaced} unreviewed one(s) replaced. Undo takes the whole regenerate back.",
    )
    refresh()
    st.rerun()


# What the history and the undo message call a change and a field.
ACTIONS = {
    "create": "added",
    "edit": "edited",
    "delete": "deleted",
    "move": "moved",
    "undo": "undid a change",
}
UNDONE = {"create": "adding", "edit": "your edit of", "delete": "deleting", "move": "moving"}
FIELD_NAMES = {
    "question": "question",
    "answers": "answers",
    "element": "narrative element",
    "element2": "second element",
    "explicitness": "explicit or implicit",
    "answer_kind": "kind of answer",
    "scope": "one section or several",
    "sections": "sections",
    "evidence": "evidence",
    "status": "keep or drop",
    "scores": "checks",
    "engine": "written by",
    "distractors": "wrong options",
    "second_answers": "second annotator's answers",
    "second_explicitness": "second annotator's explicit or implicit",
}


def _field_names(entry: dict) -> str:
    if entry["action"] != "edit" or not isinstance(entry["after"], dict):
        return ""
    return ", ".join(FIELD_NAMES.get(k, k.replace("_", " ")) for k in entry["after"])


def _question_of(store: Store, story_id: int, item_id: int) -> str:
    """The question's text now, or the last one its history knows (a deleted item)."""
    try:
        return store.get_item(item_id).question
    except Exception:  # noqa: BLE001 - gone or not ours: its history still names it
        pass
    text = ""
    for entry in store.history(story_id, item_id):
        for state in (entry["before"], entry["after"]):
            if isinstance(state, dict) and state.get("question"):
                text = state["question"]
    return text


def undo_and_history(store: Store, story, positions: dict[int, int]) -> None:
    c1, c2 = st.columns([1, 3])
    c1.button(
        "Undo", key="curate_undo", on_click=_undo, args=(story.id,), help="undo your last action"
    )
    with c2.expander("History of changes"):
        rows = []
        questions: dict[int, str] = {}
        labelled: set[int] = set()
        for entry in reversed(store.history(story.id)[-200:]):
            if len(rows) >= 30:
                break
            if entry["label"]:
                # One line for one action of the teacher's (a regenerate, a generate).
                if entry["step"] not in labelled:
                    labelled.add(entry["step"])
                    rows.append(
                        {
                            "Who": entry["actor"],
                            "What": entry["label"],
                            "#": "",
                            "Question": "",
                            "Changed": "",
                        }
                    )
                continue
            item_id = entry["item_id"]
            if item_id not in questions:
                questions[item_id] = _question_of(store, story.id, item_id)
            position = positions.get(item_id)
            rows.append(
                {
                    "Who": entry["actor"],
                    "What": ACTIONS.get(entry["action"], entry["action"]),
                    # Text throughout: a column of numbers and dashes is not one type.
                    "#": str(position) if position is not None else "",
                    "Question": questions[item_id],
                    "Changed": _field_names(entry),
                }
            )
        if rows:
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        else:
            st.caption("No changes yet.")


def _undo(story_id: int) -> None:
    store = get_store()
    undone = store.undo(story_id, actor=current_actor())
    if undone is None:
        say("info", "Nothing to undo.")
    elif undone["label"]:
        say("success", f"Undid what you did last: {plain(undone['label'])}.")
    else:
        what = UNDONE.get(undone["action"], "your change to")
        question = _question_of(store, story_id, undone["item_id"])
        say("success", f"Undid {what} {quoted(question)}.")
    refresh()
