"""The Curate page: the teacher's judgement turns a generated draft into a worksheet.

Every change is written to the project store the moment it is made (with who made it
and what changed), so a closed tab or a restart loses nothing; the page keeps only which
question is open and a counter that refreshes the widgets after an undo. The tools below
the list are in :mod:`qg_studio.ui.curate_actions`, what is done with a question's
values in :mod:`qg_studio.ui.curate_fields`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from qg_studio.export.distractor_words import same_answer
from qg_studio.schema import ELEMENTS
from qg_studio.schema import AnswerKind
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.services.curation import edit_item
from qg_studio.store import Store
from qg_studio.store import StoreError
from qg_studio.trust import MARK_SYMBOLS
from qg_studio.trust import SURE
from qg_studio.trust import mark
from qg_studio.ui import cache
from qg_studio.ui import engines
from qg_studio.ui.curate_actions import MESSAGE
from qg_studio.ui.curate_actions import PICK
from qg_studio.ui.curate_actions import VERSION
from qg_studio.ui.curate_actions import add_by_hand
from qg_studio.ui.curate_actions import refresh
from qg_studio.ui.curate_actions import regenerate
from qg_studio.ui.curate_actions import say
from qg_studio.ui.curate_actions import undo_and_history
from qg_studio.ui.curate_fields import STATUS_LABELS  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import TABLE_FIELDS  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import answer_and_tag  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import apply_table_edits  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import field_value  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import highlight  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import parse_answers  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import parse_sections  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import requested_counts  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.curate_fields import table  # noqa: F401 - the page's helpers, re-exported
from qg_studio.ui.state import current_actor
from qg_studio.ui.state import get_store
from qg_studio.ui.state import require_story
from qg_studio.ui.steps import next_step
from qg_studio.ui.text import plain
from qg_studio.ui.text import quoted
from qg_studio.ui.widgets import pick_option

# -- the page ----------------------------------------------------------------------------


def render() -> None:
    st.title("Curate")
    story = require_story()
    if story is None:
        return
    engines.warm_answerer()  # ready by the time a question is added by hand
    store = get_store()
    items = store.list_items(story.id)
    positions = {item.id: n for n, item in enumerate(items, start=1)}
    st.session_state.setdefault(VERSION, 0)
    version = st.session_state[VERSION]
    _summary(store, story, items)
    for message in st.session_state.pop(MESSAGE, []):
        kind, _, text = message.partition(":")
        getattr(st, kind if kind in ("success", "warning", "error", "info") else "info")(text)
    if not items:
        st.info(
            "No questions yet: generate them on the **Generate** page, or add one by hand below."
        )
    else:
        shown = _filters(story, items)
        _editor(store, story, shown, positions, version)
        _detail(store, story, shown, positions, version)
    add_by_hand(store, story)
    regenerate(store, story, items)
    undo_and_history(store, story, positions)
    if items:
        next_step("export", "Next: print or export", key="curate_next")


@st.cache_data(show_spinner=False, max_entries=32)
def _story_grade(text: str) -> float | None:
    try:
        from qg_studio.story import readability

        return readability(text).grade
    except Exception:
        return None


def _summary(store: Store, story, items: Sequence[QAItem]) -> None:
    live = [i for i in items if i.status != ReviewStatus.DROPPED]
    project = store.get_project(story.project_id)
    wanted, implicit_share = requested_counts(project.settings, len(story.sections))
    batch = st.session_state.get("generate_last_batch") or {}
    if not wanted and batch.get("story") == story.id and batch.get("request"):
        # this session's Generate run: its element mix, rounded
        wanted = {k: int(round(float(v))) for k, v in batch["request"].items()}
    cols = st.columns(5)
    cols[0].metric(
        "Questions", len(live), help="kept and not yet reviewed; dropped ones are not exported"
    )
    cols[1].metric("Kept", sum(i.status == ReviewStatus.KEPT for i in items))
    cols[2].metric("Unreviewed", sum(i.status == ReviewStatus.UNREVIEWED for i in items))
    implicit = sum(i.explicitness == Explicitness.IMPLICIT for i in live)
    cols[3].metric(
        "Implicit",
        f"{implicit} of {len(live)}",
        help=f"asked for {implicit_share:.0%}" if implicit_share is not None else None,
    )
    grade = _story_grade(story.text)
    band = project.settings.get("grade_band")
    cols[4].metric(
        "Story grade",
        "–" if grade is None else f"{grade:g}",
        help=f"target band {band}" if band else None,
    )
    have = Counter(i.element.value for i in live)
    strip = {
        e.value: f"{have.get(e.value, 0)}" + (f" / {wanted[e.value]}" if wanted else "")
        for e in ELEMENTS
    }
    st.dataframe(
        pd.DataFrame([strip], index=["have / asked" if wanted else "have"]), width="stretch"
    )
    sure = [i for i in items if i.status == ReviewStatus.UNREVIEWED and mark(i)[0] == SURE]
    if sure:
        st.button(
            f"Keep the {len(sure)} not reviewed that are marked sure",
            key="curate_keep_sure",
            on_click=_keep_all,
            args=(story.id, [i.id for i in sure]),
            help="one step: Undo takes it back",
        )


def _keep_all(story_id: int, item_ids: list[int]) -> None:
    get_store().set_status(
        story_id,
        item_ids,
        ReviewStatus.KEPT,
        actor=current_actor(),
        label=f"kept {len(item_ids)} questions marked sure",
    )
    say("success", f"Kept {len(item_ids)} questions marked sure (Undo takes it back).")
    refresh()


def _filters(story, items: Sequence[QAItem]) -> list[QAItem]:
    cols = st.columns(3)
    sections = cols[0].multiselect(
        "Filter by section", [s.id for s in story.sections], key="curate_f_section"
    )
    elements = cols[1].multiselect(
        "Filter by element", [e.value for e in ELEMENTS], key="curate_f_element"
    )
    statuses = cols[2].multiselect(
        "Filter by status",
        list(STATUS_LABELS),
        format_func=STATUS_LABELS.get,
        key="curate_f_status",
    )
    return [
        i
        for i in items
        if (not sections or set(i.sections) & set(sections))
        and (not elements or i.element.value in elements)
        and (not statuses or i.status.value in statuses)
    ]


def _editor(
    store: Store, story, shown: list[QAItem], positions: dict[int, int], version: int
) -> None:
    st.subheader("Questions")
    st.caption(
        "Edit any cell; each change is saved at once. Change **#** to move a "
        "question. Several answers: separate them with ' | '."
    )
    key = f"curate_table_{story.id}_{version}"
    config = {
        "#": st.column_config.NumberColumn(
            "#", min_value=1, max_value=max(positions.values()), step=1, width="small"
        ),
        "Status": st.column_config.SelectboxColumn(
            "Status", options=list(STATUS_LABELS), required=True
        ),
        "Question": st.column_config.TextColumn("Question", width="large", required=True),
        "Answers": st.column_config.TextColumn("Answers", width="medium", required=True),
        "Element": st.column_config.SelectboxColumn(
            "Element", options=[e.value for e in ELEMENTS], required=True
        ),
        "Explicitness": st.column_config.SelectboxColumn(
            "Explicitness", options=[e.value for e in Explicitness], required=True
        ),
        "Answer kind": st.column_config.SelectboxColumn(
            "Answer kind", options=[k.value for k in AnswerKind], required=True
        ),
        "Sections": st.column_config.TextColumn("Sections", width="small"),
        "Engine": st.column_config.TextColumn("Engine", disabled=True),
        "Confidence": st.column_config.NumberColumn("Confidence", disabled=True, format="%.2f"),
        "Mark": st.column_config.TextColumn(
            "Mark",
            disabled=True,
            width="small",
            help="sure / check this / likely wrong: the answer check and the confidence "
            "in the answer (why: last column)",
        ),
        "Why": st.column_config.TextColumn(
            "Why", disabled=True, help="what the automatic checks noticed"
        ),
    }
    st.data_editor(
        table(shown, positions),
        key=key,
        hide_index=True,
        num_rows="fixed",
        column_config=config,
        width="stretch",
        on_change=_save_table,
        args=(story.id, shown, [s.id for s in story.sections], key),
    )


def _save_table(story_id: int, shown: list[QAItem], section_ids: list[int], key: str) -> None:
    edits = st.session_state.get(key, {}).get("edited_rows", {})
    problems = apply_table_edits(get_store(), story_id, shown, edits, section_ids)
    for problem in problems:
        say("warning", problem)
    refresh()


def _detail(
    store: Store, story, shown: list[QAItem], positions: dict[int, int], version: int
) -> None:
    if not shown:
        st.info("No question matches the filters.")
        return
    st.subheader("One question, with its evidence")
    ids = [i.id for i in shown]
    if st.session_state.get(PICK) not in ids:
        st.session_state[PICK] = ids[0]
    by_id = {i.id: i for i in shown}
    # Its labels show each question as saved now (an edit changes one); which question
    # is open lives in PICK.
    picked = pick_option(
        "selectbox",
        "Question to review",
        ids,
        {i: f"{positions[i]}. {by_id[i].question[:90]}" for i in ids},
        PICK,
    )
    item = by_id[picked]
    section_ids = [s.id for s in story.sections]
    k = f"{item.id}_{version}"
    left, right = st.columns([3, 2])
    with left:
        st.radio(
            "Status",
            list(STATUS_LABELS),
            index=list(STATUS_LABELS).index(item.status.value),
            format_func=STATUS_LABELS.get,
            horizontal=True,
            key=f"curate_status_{k}",
            on_change=_save_field,
            args=(item.id, "status", f"curate_status_{k}", section_ids, story.id),
        )
        st.text_input(
            "Question",
            item.question,
            key=f"curate_question_{k}",
            on_change=_save_field,
            args=(item.id, "question", f"curate_question_{k}", section_ids, story.id),
        )
        st.text_area(
            "Answers (one per line)",
            "\n".join(item.answers),
            height=80,
            key=f"curate_answers_{k}",
            on_change=_save_field,
            args=(item.id, "answers", f"curate_answers_{k}", section_ids, story.id),
            help="The first line is the worksheet's key. A multiple-choice quiz needs a key of "
            "at most 15 words: when the first is longer, add a short one on a line of its own "
            "and the quizzes use it.",
        )
        _wrong_options(item, story, k, section_ids)
        c1, c2, c3 = st.columns(3)
        for column, (label, field, options, current) in zip(
            (c1, c2, c3),
            [
                ("Element", "element", [e.value for e in ELEMENTS], item.element.value),
                (
                    "Explicitness",
                    "explicitness",
                    [e.value for e in Explicitness],
                    item.explicitness.value,
                ),
                (
                    "Answer kind",
                    "answer_kind",
                    [a.value for a in AnswerKind],
                    item.answer_kind.value,
                ),
            ],
        ):
            column.selectbox(
                label,
                options,
                index=options.index(current),
                key=f"curate_{field}_{k}",
                on_change=_save_field,
                args=(item.id, field, f"curate_{field}_{k}", section_ids, story.id),
            )
        st.multiselect(
            "Sections",
            section_ids,
            default=[s for s in item.sections if s in section_ids],
            key=f"curate_sections_{k}",
            on_change=_save_field,
            args=(item.id, "sections", f"curate_sections_{k}", section_ids, story.id),
        )
        moves = st.container(horizontal=True)  # each button as wide as its label
        moves.button(
            "Move up",
            key=f"curate_up_{k}",
            on_click=_move,
            args=(item.id, positions[item.id] - 2),
            disabled=positions[item.id] == 1,
        )
        moves.button(
            "Move down",
            key=f"curate_down_{k}",
            on_click=_move,
            args=(item.id, positions[item.id]),
            disabled=positions[item.id] == len(positions),
        )
        created = store.created_by(item.id)
        verdict, why = mark(item)
        if verdict:
            say_mark = st.success if verdict == SURE else st.warning
            say_mark(f"{MARK_SYMBOLS[verdict].capitalize()}: {why}.")
        st.caption(
            f"Written by {plain(created or item.engine or 'unknown')}"
            + (f" · engine {item.engine}" if item.engine and item.engine != created else "")
            + (f" · rule {item.rule}" if item.rule else "")
        )
    with right:
        mine = [s for s in story.sections if s.id in item.sections] or story.sections[:1]
        for section in mine:
            st.markdown(f"**Section {section.id}**")
            st.markdown(
                f"<div style='line-height:1.5'>{highlight(section, item.evidence, item.answer)}"
                "</div>",
                unsafe_allow_html=True,
            )


def _wrong_options(item: QAItem, story, k: str, section_ids: list[int]) -> None:
    """The multiple-choice quiz's wrong options, seen and edited before any export."""
    sections = story.sections
    options = item.distractors or cache.wrong_options(
        json.dumps(item.to_dict(), sort_keys=True, default=str),
        tuple(s.text for s in sections),
        item,
        sections,
    )
    if not options:
        st.caption(
            "Multiple choice: a yes/no question offers Yes and No; an answer too "
            "long for a choice is asked open."
        )
        return
    st.text_area(
        "Wrong options for a multiple-choice quiz (one per line)",
        "\n".join(options),
        height=80,
        key=f"curate_distractors_{k}",
        on_change=_save_field,
        args=(item.id, "distractors", f"curate_distractors_{k}", section_ids, story.id),
        help="Each must be wrong, and read like the answer.",
    )
    true = [o for o in item.distractors if any(same_answer(o, a) for a in item.answers)]
    if true:
        st.warning(f"{quoted(true[0])} is also an answer: the quiz leaves it out.")
    elif not item.distractors:
        st.caption(
            "Chosen from the story; edit them and the quiz uses yours. The quiz leaves out "
            "any the answer check finds right too."
        )


def _save_field(item_id: int, field: str, key: str, section_ids: list[int], story_id: int) -> None:
    try:
        value = field_value(field, st.session_state[key], section_ids)
    except ValueError as exc:
        say("warning", f"Not saved: {exc}; the saved value is kept.")
        refresh()
        return
    try:
        edit_item(get_store(), story_id, item_id, current_actor(), **{field: value})
    except StoreError as exc:
        say("error", f"Not saved: {plain(exc)}")
    refresh()


def _move(item_id: int, new_index: int) -> None:
    get_store().move_item(item_id, max(new_index, 0), actor=current_actor())
    refresh()
