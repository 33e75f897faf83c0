"""The Curate page: the teacher's judgement turns a generated draft into a worksheet.

Every change is written to the project store the moment it is made (with who made it
and what changed), so a closed tab or a restart loses nothing; the page keeps only which
question is open and a counter that refreshes the widgets after an undo.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Any, Sequence

import pandas as pd
import streamlit as st

from qg_studio.schema import (AnswerKind, ELEMENTS, Element, Evidence, Explicitness,
                              GenerationRequest, QAItem, ReviewStatus, Section)
from qg_studio.store import Store, StoreError
from qg_studio.ui.state import current_actor, get_store, require_story

ACTOR = "teacher"
STATUS_LABELS = {"unreviewed": "Not reviewed", "kept": "Keep", "dropped": "Drop"}
TABLE_FIELDS = {  # table column -> QAItem field
    "Status": "status", "Question": "question", "Answers": "answers", "Element": "element",
    "Explicitness": "explicitness", "Answer kind": "answer_kind", "Sections": "sections",
}
VERSION = "curate_version"
MESSAGE = "curate_message"
PICK = "curate_pick"


# -- pure helpers (tested without a browser) -------------------------------------------


def parse_answers(text: str) -> list[str]:
    """Answers are typed one per line or separated by " | "."""
    parts = [p for line in str(text).splitlines() for p in line.split("|")]
    return [p.strip() for p in parts if p.strip()]


def parse_sections(text: Any, known: Sequence[int]) -> list[int]:
    if isinstance(text, (list, tuple)):
        values = [int(v) for v in text]
    else:
        values = [int(v) for v in str(text).replace(";", ",").replace(" ", ",").split(",")
                  if v.strip()]
    unknown = [v for v in values if v not in known]
    if unknown:
        raise ValueError(f"no section {', '.join(map(str, unknown))} in this story")
    return values


def table(items: Sequence[QAItem], positions: dict[int, int]) -> pd.DataFrame:
    return pd.DataFrame([{
        "#": positions[item.id], "Status": item.status.value, "Question": item.question,
        "Answers": " | ".join(item.answers), "Element": item.element.value,
        "Explicitness": item.explicitness.value, "Answer kind": item.answer_kind.value,
        "Sections": ", ".join(str(s) for s in item.sections), "Engine": item.engine,
        "Confidence": round(float(item.scores.get("confidence", 0.0)), 2)
        if "confidence" in item.scores else None,
        "Flags": flags(item),
    } for item in items], columns=["#", *TABLE_FIELDS, "Engine", "Confidence", "Flags"])


# What the ranker's flags tell a teacher (see ranking.flag_unanswerable and keep_fit).
FLAG_LABELS = {"unanswerable": "answer not found in the story", "low_quality": "reads badly"}


def flags(item: QAItem) -> str:
    return "; ".join(label for key, label in FLAG_LABELS.items() if item.scores.get(key))


def apply_table_edits(store: Store, story_id: int, shown: Sequence[QAItem],
                      edited_rows: dict, section_ids: Sequence[int]) -> list[str]:
    """Save the data editor's ``edited_rows`` ({row: {column: value}}); returns problems.

    A value that cannot be right (an empty question, an unknown section) is refused and
    the saved value kept, so bad input never loses the teacher's earlier work.
    """
    problems: list[str] = []
    for row, columns in sorted(edited_rows.items(), key=lambda kv: int(kv[0])):
        item = shown[int(row)]
        changes: dict[str, Any] = {}
        for column, value in columns.items():
            if column == "#":
                if value is not None:
                    store.move_item(item.id, int(value) - 1, actor=current_actor())
                continue
            field = TABLE_FIELDS.get(column)
            if field is None:
                continue
            try:
                changes[field] = _field_value(field, value, section_ids)
            except ValueError as exc:
                problems.append(f"“{item.question[:50]}”: {exc}; the saved value is kept.")
        if changes:
            store.update_item(item.id, actor=current_actor(), **changes)
    return problems


def _field_value(field: str, value: Any, section_ids: Sequence[int]) -> Any:
    if field == "question":
        text = " ".join(str(value or "").split())
        if not text:
            raise ValueError("a question cannot be empty")
        return text
    if field == "answers":
        answers = parse_answers(value or "")
        if not answers:
            raise ValueError("a question needs an answer")
        return answers
    if field == "sections":
        return parse_sections(value or "", section_ids)
    if value is None:
        raise ValueError(f"{field.replace('_', ' ')} cannot be empty")
    enum = {"status": ReviewStatus, "element": Element, "explicitness": Explicitness,
            "answer_kind": AnswerKind}[field]
    return enum.parse(value).value


def highlight(section: Section, evidence: Sequence[Evidence], answer: str = "") -> str:
    """The section as HTML with its evidence spans (or else the answer) marked."""
    spans = sorted((e.start, e.end) for e in evidence if e.section == section.id
                   and 0 <= e.start < e.end <= len(section.text))
    if not spans and answer:
        found = Evidence.find(section, answer)
        if found is not None:
            spans = [(found.start, found.end)]
    out, at = [], 0
    for start, end in spans:
        if start < at:
            continue
        out.append(html.escape(section.text[at:start]))
        out.append(f"<mark>{html.escape(section.text[start:end])}</mark>")
        at = end
    out.append(html.escape(section.text[at:]))
    return "".join(out).replace("\n", "<br>")


def requested_counts(settings: dict, n_sections: int) -> tuple[dict[str, int], float | None]:
    """What the teacher asked for on the Generate page, if it was saved with the project."""
    raw = settings.get("request") or settings.get("generation") or {}
    if not isinstance(raw, dict) or not raw:
        return {}, None
    try:
        request = GenerationRequest.from_dict(raw)
    except (TypeError, ValueError):
        return {}, None
    total = request.total(n_sections)
    if isinstance(request.elements, dict):
        wanted = {e.value: n for e, n in request.elements.items()}
    else:
        base, extra = divmod(total, len(ELEMENTS))
        wanted = {e.value: base + (1 if i < extra else 0) for i, e in enumerate(ELEMENTS)}
    return wanted, request.implicit_share


# -- engines (optional: the page works with manual labels when they are missing) -------


@st.cache_resource(show_spinner=False)
def _answerer():
    from qg_studio.answering import get_answerer

    return get_answerer()


def answer_and_tag(question: str, sections: Sequence[Section], section_ids: list[int] | None,
                   typed_answer: str = "") -> tuple[dict[str, Any], list[str]]:
    """Fields for a hand-written question from the answerer and the tagger, with notes.

    A typed answer is the teacher's: it is kept (and located in the text), and the
    answerer is not asked.
    """
    fields: dict[str, Any] = {}
    notes: list[str] = []
    chosen = [s for s in sections if not section_ids or s.id in section_ids]
    if typed_answer.strip():
        answers = parse_answers(typed_answer)
        evidence = [e for s in chosen for e in [Evidence.find(s, answers[0])] if e][:1]
        fields.update(answers=answers, evidence=[e.to_dict() for e in evidence],
                      sections=section_ids or [e.section for e in evidence])
        notes.append("your answer kept")
    else:
        fields.update(_answer(question, sections, section_ids, notes))
    try:
        from qg_studio.tagging import tag

        answer = (fields.get("answers") or [None])[0]
        labels = tag(question, answer, chosen)
        fields.update(element=labels.element.value, explicitness=labels.explicitness.value)
        notes.append(f"tagged {labels.element.value} / {labels.explicitness.value}"
                     f" by the tagger ({labels.source})")
    except Exception as exc:
        notes.append(f"no tagger available ({type(exc).__name__}): labels set by hand")
    return fields, notes


def _answer(question: str, sections: Sequence[Section], section_ids: list[int] | None,
            notes: list[str]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    try:
        reply = _answerer().answer([question], list(sections),
                                   [section_ids] if section_ids else None)[0]
        fields.update(answers=list(reply.answers), answer_kind=str(reply.answer_kind),
                      evidence=[e.to_dict() for e in reply.evidence],
                      sections=list(reply.sections) or (section_ids or []),
                      scores={"confidence": float(reply.confidence)})
        notes.append(f"answered by the {reply.engine or 'default'} answerer"
                     + (f" ({reply.note})" if reply.note else ""))
    except Exception as exc:  # a missing or broken answerer must not lose the question
        notes.append(f"no answerer available ({type(exc).__name__}): type the answer")
    return fields


# -- the page ----------------------------------------------------------------------------


def render() -> None:
    st.title("Curate")
    story = require_story()
    if story is None:
        return
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
        st.info("No questions yet: generate them on the **Generate** page, or add one by "
                "hand below.")
    else:
        shown = _filters(story, items)
        _editor(store, story, shown, positions, version)
        _detail(store, story, shown, positions, version)
    _add_by_hand(store, story)
    _regenerate(store, story, items)
    _undo_and_history(store, story, positions)


def _say(kind: str, text: str) -> None:
    st.session_state.setdefault(MESSAGE, []).append(f"{kind}:{text}")


def _refresh() -> None:
    """New keys for every item widget: after an undo the widgets show the store again."""
    st.session_state[VERSION] = st.session_state.get(VERSION, 0) + 1


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
    cols[0].metric("Questions", len(live), help="kept and not yet reviewed; dropped ones "
                   "are not exported")
    cols[1].metric("Kept", sum(i.status == ReviewStatus.KEPT for i in items))
    cols[2].metric("Unreviewed", sum(i.status == ReviewStatus.UNREVIEWED for i in items))
    implicit = sum(i.explicitness == Explicitness.IMPLICIT for i in live)
    cols[3].metric("Implicit", f"{implicit} of {len(live)}",
                   help=f"asked for {implicit_share:.0%}" if implicit_share is not None
                   else None)
    grade = _story_grade(story.text)
    band = project.settings.get("grade_band")
    cols[4].metric("Story grade", "–" if grade is None else f"{grade:g}",
                   help=f"target band {band}" if band else None)
    have = Counter(i.element.value for i in live)
    strip = {e.value: f"{have.get(e.value, 0)}" + (f" / {wanted[e.value]}" if wanted else "")
             for e in ELEMENTS}
    st.dataframe(pd.DataFrame([strip], index=["have / asked" if wanted else "have"]),
                 width="stretch")


def _filters(story, items: Sequence[QAItem]) -> list[QAItem]:
    cols = st.columns(3)
    sections = cols[0].multiselect("Filter by section", [s.id for s in story.sections],
                                   key="curate_f_section")
    elements = cols[1].multiselect("Filter by element", [e.value for e in ELEMENTS],
                                   key="curate_f_element")
    statuses = cols[2].multiselect("Filter by status", list(STATUS_LABELS),
                                   format_func=STATUS_LABELS.get, key="curate_f_status")
    return [i for i in items
            if (not sections or set(i.sections) & set(sections))
            and (not elements or i.element.value in elements)
            and (not statuses or i.status.value in statuses)]


def _editor(store: Store, story, shown: list[QAItem], positions: dict[int, int],
            version: int) -> None:
    st.subheader("Questions")
    st.caption("Edit any cell; each change is saved at once. Change **#** to move a "
               "question. Several answers: separate them with ' | '.")
    key = f"curate_table_{story.id}_{version}"
    config = {
        "#": st.column_config.NumberColumn("#", min_value=1, max_value=max(positions.values()),
                                           step=1, width="small"),
        "Status": st.column_config.SelectboxColumn("Status", options=list(STATUS_LABELS),
                                                   required=True),
        "Question": st.column_config.TextColumn("Question", width="large", required=True),
        "Answers": st.column_config.TextColumn("Answers", width="medium", required=True),
        "Element": st.column_config.SelectboxColumn(
            "Element", options=[e.value for e in ELEMENTS], required=True),
        "Explicitness": st.column_config.SelectboxColumn(
            "Explicitness", options=[e.value for e in Explicitness], required=True),
        "Answer kind": st.column_config.SelectboxColumn(
            "Answer kind", options=[k.value for k in AnswerKind], required=True),
        "Sections": st.column_config.TextColumn("Sections", width="small"),
        "Engine": st.column_config.TextColumn("Engine", disabled=True),
        "Confidence": st.column_config.NumberColumn("Confidence", disabled=True,
                                                    format="%.2f"),
        "Flags": st.column_config.TextColumn("Flags", disabled=True,
                                             help="what the automatic checks noticed"),
    }
    st.data_editor(table(shown, positions), key=key, hide_index=True, num_rows="fixed",
                   column_config=config, width="stretch",
                   on_change=_save_table, args=(story.id, shown,
                                                [s.id for s in story.sections], key))


def _save_table(story_id: int, shown: list[QAItem], section_ids: list[int], key: str) -> None:
    edits = st.session_state.get(key, {}).get("edited_rows", {})
    problems = apply_table_edits(get_store(), story_id, shown, edits, section_ids)
    for problem in problems:
        _say("warning", problem)
    _refresh()


def _detail(store: Store, story, shown: list[QAItem], positions: dict[int, int],
            version: int) -> None:
    if not shown:
        st.info("No question matches the filters.")
        return
    st.subheader("One question, with its evidence")
    ids = [i.id for i in shown]
    if st.session_state.get(PICK) not in ids:
        st.session_state[PICK] = ids[0]
    by_id = {i.id: i for i in shown}
    # The widget key follows the version so its labels show the question as saved now;
    # which question is open lives in PICK.
    picker = f"curate_picker_{version}"
    picked = st.selectbox("Question to review", ids, key=picker,
                          index=ids.index(st.session_state[PICK]),
                          format_func=lambda i: f"{positions[i]}. {by_id[i].question[:90]}",
                          on_change=_pick, args=(picker,))
    item = by_id[picked]
    section_ids = [s.id for s in story.sections]
    k = f"{item.id}_{version}"
    left, right = st.columns([3, 2])
    with left:
        st.radio("Status", list(STATUS_LABELS), index=list(STATUS_LABELS).index(
            item.status.value), format_func=STATUS_LABELS.get, horizontal=True,
            key=f"curate_status_{k}", on_change=_save_field,
            args=(item.id, "status", f"curate_status_{k}", section_ids))
        st.text_input("Question", item.question, key=f"curate_question_{k}",
                      on_change=_save_field,
                      args=(item.id, "question", f"curate_question_{k}", section_ids))
        st.text_area("Answers (one per line)", "\n".join(item.answers), height=80,
                     key=f"curate_answers_{k}", on_change=_save_field,
                     args=(item.id, "answers", f"curate_answers_{k}", section_ids))
        c1, c2, c3 = st.columns(3)
        for column, (label, field, options, current) in zip((c1, c2, c3), [
                ("Element", "element", [e.value for e in ELEMENTS], item.element.value),
                ("Explicitness", "explicitness", [e.value for e in Explicitness],
                 item.explicitness.value),
                ("Answer kind", "answer_kind", [a.value for a in AnswerKind],
                 item.answer_kind.value)]):
            column.selectbox(label, options, index=options.index(current),
                             key=f"curate_{field}_{k}", on_change=_save_field,
                             args=(item.id, field, f"curate_{field}_{k}", section_ids))
        st.multiselect("Sections", section_ids, default=[s for s in item.sections
                                                         if s in section_ids],
                       key=f"curate_sections_{k}", on_change=_save_field,
                       args=(item.id, "sections", f"curate_sections_{k}", section_ids))
        m1, m2, _ = st.columns([1, 1, 3])
        m1.button("Move up", key=f"curate_up_{k}", on_click=_move,
                  args=(item.id, positions[item.id] - 2), disabled=positions[item.id] == 1)
        m2.button("Move down", key=f"curate_down_{k}", on_click=_move,
                  args=(item.id, positions[item.id]),
                  disabled=positions[item.id] == len(positions))
        created = store.created_by(item.id)
        st.caption(f"Written by {created or item.engine or 'unknown'}"
                   + (f" · engine {item.engine}" if item.engine and item.engine != created
                      else "")
                   + "".join(f" · {name} {value:.2f}" for name, value in item.scores.items()
                             if isinstance(value, (int, float))))
    with right:
        mine = [s for s in story.sections if s.id in item.sections] or story.sections[:1]
        for section in mine:
            st.markdown(f"**Section {section.id}**")
            st.markdown(f"<div style='line-height:1.5'>{highlight(section, item.evidence, item.answer)}"
                        "</div>", unsafe_allow_html=True)


def _pick(picker: str) -> None:
    st.session_state[PICK] = st.session_state[picker]


def _save_field(item_id: int, field: str, key: str, section_ids: list[int]) -> None:
    try:
        value = _field_value(field, st.session_state[key], section_ids)
    except ValueError as exc:
        _say("warning", f"Not saved: {exc}; the saved value is kept.")
        _refresh()
        return
    try:
        get_store().update_item(item_id, actor=current_actor(), **{field: value})
    except StoreError as exc:
        _say("error", f"Not saved: {exc}")
    _refresh()


def _move(item_id: int, new_index: int) -> None:
    get_store().move_item(item_id, max(new_index, 0), actor=current_actor())
    _refresh()


def _add_by_hand(store: Store, story) -> None:
    with st.expander("Add a question by hand", expanded=False):
        st.caption("It is answered and tagged at once; change the answer or the labels "
                   "above if they are wrong.")
        with st.form("curate_add_form", clear_on_submit=True):
            st.text_input("Your question", key="curate_new_question")
            st.text_input("Answer (leave empty to let the answerer answer)",
                          key="curate_new_answer")
            c1, c2, c3 = st.columns(3)
            c1.multiselect("About section(s)", [s.id for s in story.sections],
                           key="curate_new_sections")
            c2.selectbox("Element", ["auto", *[e.value for e in ELEMENTS]],
                         key="curate_new_element")
            c3.selectbox("Explicitness", ["auto", *[e.value for e in Explicitness]],
                         key="curate_new_explicitness")
            st.form_submit_button("Add question", on_click=_add_question, args=(story.id,))


def _add_question(story_id: int) -> None:
    store = get_store()
    story = store.get_story(story_id)
    question = " ".join(st.session_state.get("curate_new_question", "").split())
    if not question:
        _say("warning", "Type a question first; nothing was added.")
        return
    typed = st.session_state.get("curate_new_answer", "").strip()
    section_ids = list(st.session_state.get("curate_new_sections") or [])
    fields, notes = answer_and_tag(question, story.sections, section_ids or None, typed)
    for field, key in (("element", "curate_new_element"),
                       ("explicitness", "curate_new_explicitness")):
        chosen = st.session_state.get(key, "auto")
        if chosen != "auto":
            fields[field] = chosen
    fields.setdefault("element", Element.ACTION.value)
    fields.setdefault("explicitness", Explicitness.EXPLICIT.value)
    if not fields.get("answers"):
        fields["answers"] = []
    if section_ids and not fields.get("sections"):
        fields["sections"] = section_ids
    item = QAItem.from_dict({"question": question, "engine": ACTOR,
                             "status": ReviewStatus.KEPT.value, **fields})
    [item_id] = store.add_items(story_id, [item], actor=current_actor())
    st.session_state[PICK] = item_id
    _refresh()
    answer = item.answer or "(no answer yet: type one above)"
    _say("success", f"Added “{question}” — answer: {answer}; {item.element.value} / "
         f"{item.explicitness.value} ({'; '.join(notes)}).")


def _regenerate(store: Store, story, items: Sequence[QAItem]) -> None:
    with st.expander("Regenerate a section or an element", expanded=False):
        st.caption("Replaces the questions of that section or element that you have not "
                   "kept; kept questions stay.")
        c1, c2, c3 = st.columns(3)
        what = c1.radio("Regenerate", ["section", "element"], key="curate_regen_what",
                        horizontal=True)
        if what == "section":
            target = c2.selectbox("Section", [s.id for s in story.sections],
                                  key="curate_regen_section")
        else:
            target = c2.selectbox("Element", [e.value for e in ELEMENTS],
                                  key="curate_regen_element")
        group = [i for i in items if (target in i.sections if what == "section"
                                      else i.element.value == target)]
        replace = [i for i in group if i.status != ReviewStatus.KEPT]
        count = c3.number_input("New questions", 1, 20, value=max(len(replace), 2),
                                key="curate_regen_count")
        if st.button("Regenerate", key="curate_regen"):
            _do_regenerate(store, story, what, target, int(count), group, replace)


def _do_regenerate(store: Store, story, what: str, target, count: int,
                   group: Sequence[QAItem], replace: Sequence[QAItem]) -> None:
    try:
        from qg_studio.pipeline import generate_with_fallback
    except ImportError:
        st.warning("No question generator is installed; nothing was changed.")
        return
    # The engine the Generate page last used for this project, with the same fallback.
    settings = store.get_project(story.project_id).settings
    engine = settings.get("engine", "embedded")
    options = settings.get("engine_options") or {}
    if what == "section":
        sections = [s for s in story.sections if s.id == target]
        request = GenerationRequest(count=count)
    else:
        sections = story.sections
        request = GenerationRequest(count=None, elements={target: count})
    with st.spinner("Writing new questions…"):
        try:
            run = generate_with_fallback(sections, request, engine, options,
                                         use_embeddings=False)
        except Exception as exc:  # keep everything as it was
            st.error(f"Regeneration failed, nothing was changed: {exc}")
            return
    for notice in run.notices:
        st.info(notice)
    fresh = run.items
    kept = {" ".join(i.question.lower().split()) for i in group if i.status == ReviewStatus.KEPT}
    fresh = [i for i in fresh if " ".join(i.question.lower().split()) not in kept]
    if what == "element":
        fresh = [i for i in fresh if i.element.value == target]
    fresh = fresh[:count]
    if not fresh:
        st.warning("The generator found no new question there; nothing was changed.")
        return
    store.delete_items(story.id, [i.id for i in replace], actor=current_actor())
    store.add_items(story.id, fresh, actor=fresh[0].engine or engine)
    _say("success", f"{len(fresh)} new question(s) for {what} {target}; "
         f"{len(replace)} unkept one(s) replaced.")
    _refresh()
    st.rerun()


def _undo_and_history(store: Store, story, positions: dict[int, int]) -> None:
    c1, c2 = st.columns([1, 4])
    c1.button("Undo last edit", key="curate_undo", on_click=_undo, args=(story.id,))
    with c2.expander("History of changes"):
        rows = []
        for entry in reversed(store.history(story.id)[-30:]):
            changed = entry["after"] if isinstance(entry["after"], dict) else {}
            rows.append({"Who": entry["actor"], "What": entry["action"],
                         "Question": positions.get(entry["item_id"], "–"),
                         "Fields": ", ".join(k for k in changed if k != "undoes")})
        if rows:
            st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        else:
            st.caption("No changes yet.")


def _undo(story_id: int) -> None:
    undone = get_store().undo(story_id, actor=current_actor())
    if undone is None:
        _say("info", "Nothing to undo.")
    else:
        _say("success", f"Undid a {undone['action']}.")
    _refresh()
