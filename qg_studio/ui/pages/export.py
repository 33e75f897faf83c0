"""The Export page: choose a format and its options, preview, download."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from qg_studio.export import FORMATS
from qg_studio.export import document_title
from qg_studio.export import export_handouts
from qg_studio.export import export_story
from qg_studio.export.quizset import exportable
from qg_studio.export.worksheet import WorksheetOptions
from qg_studio.export.worksheet import load_template
from qg_studio.export.worksheet import ordered
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.schema import Section
from qg_studio.ui import cache
from qg_studio.ui import engines
from qg_studio.ui.state import get_store
from qg_studio.ui.state import require_story
from qg_studio.ui.text import plain

# What an export is made of, as plain values Streamlit can hash: the title, the sections
# and the items as JSON, kept only, and the worksheet's paper, questions only, show element.
Content = tuple[str, str, str, bool, str, bool, bool]


def _unpack(content: Content):
    title, sections_json, items_json, kept_only, paper, questions_only, show_element = content
    sections = [Section.from_dict(s) for s in json.loads(sections_json)]
    items = [QAItem.from_dict(i) for i in json.loads(items_json)]
    options = WorksheetOptions(
        paper=paper, questions_only=questions_only, show_element=show_element
    )
    return title, sections, items, kept_only, options


@st.cache_data(show_spinner=False, max_entries=16)
def _export(fmt: str, content: Content):
    """Cached on the exact content, so moving between pages does not rebuild the file."""
    title, sections, items, kept_only, options = _unpack(content)
    answerer = None if fmt == "xlsx" else engines.quiz_answerer()
    result = export_story(
        fmt, title, sections, items, kept_only=kept_only, worksheet=options, answerer=answerer
    )
    report = result.report
    return result.data, result.filename, result.mime, report.warnings(), report.written


@st.cache_data(show_spinner=False, max_entries=4)
def _pdfs(content: Content):
    """The students' and the teacher's PDF, cached on the same content as the file."""
    title, sections, items, kept_only, options = _unpack(content)
    return export_handouts(title, sections, exportable(items, kept_only), options)


def _title(story) -> str:
    from qg_studio.store import StoreError

    try:
        project = get_store().get_project(story.project_id).name
    except StoreError:  # the project's name only improves the file name
        project = ""
    return document_title(project, story.title)


def render() -> None:
    st.title("Export")
    story = require_story()
    if story is None:
        return
    items = get_store().list_items(story.id)
    if not items:
        st.info("No questions yet: generate them on the **Generate** page first.")
        return
    counts = {s: sum(i.status == s for i in items) for s in ReviewStatus}
    st.caption(
        f"{counts[ReviewStatus.KEPT]} kept, {counts[ReviewStatus.UNREVIEWED]} not "
        f"reviewed, {counts[ReviewStatus.DROPPED]} dropped (never exported)."
    )
    names = list(FORMATS)
    fmt = st.selectbox("Format", names, format_func=lambda n: FORMATS[n].label, key="export_format")
    # Once the teacher has kept any question, the questions nobody reviewed stay out of
    # the class's file unless they ask for them.
    kept_only = st.checkbox(
        "Only the questions I marked Keep",
        key="export_kept_only",
        value=counts[ReviewStatus.KEPT] > 0,
    )
    layout = load_template()
    paper, questions_only, show_element = layout.get("paper", "a4"), False, False
    if fmt == "xlsx":
        c1, c2, c3 = st.columns(3)
        paper = c1.radio(
            "Paper",
            ["a4", "letter"],
            format_func={"a4": "A4", "letter": "Letter"}.get,
            index=0 if paper == "a4" else 1,
            horizontal=True,
            key="export_paper",
        )
        questions_only = c2.checkbox(
            "No story text", key="export_q_only", help="the questions only, without the story"
        )
        show_element = c3.checkbox(
            "Show elements",
            help="print each question's narrative element beside it",
            key="export_show_element",
            value=bool(layout["student"].get("show_element")),
        )
    chosen = exportable(items, kept_only)
    if not chosen:
        st.warning(
            "Nothing to export: mark some questions **Keep** on the Curate page, "
            "or untick “Only the questions I marked Keep”."
        )
        return
    if counts[ReviewStatus.UNREVIEWED] and not kept_only:
        st.info(
            f"{counts[ReviewStatus.UNREVIEWED]} question(s) are not reviewed yet; "
            "they are included."
        )
    title = _title(story)
    content = (
        title,
        json.dumps([s.to_dict() for s in story.sections]),
        json.dumps([i.to_dict() for i in items]),
        kept_only,
        paper,
        questions_only,
        show_element,
    )
    with st.spinner("Preparing the file…"):
        data, filename, mime, warnings, written = _export(fmt, content)
    for warning in warnings:
        st.warning(plain(warning))
    _preview(fmt, story.sections, chosen, (cache.stamp(get_store(), story), kept_only))
    st.download_button(
        f"Download {plain(filename)}",
        data,
        file_name=filename,
        mime=mime,
        type="primary",
        key="export_download",
        icon=":material/download:",
    )
    st.caption(f"{written} question(s) in the file.")
    if fmt == "xlsx":
        _pdf_offer(content)


def _preview(fmt: str, sections, chosen, key) -> None:
    st.subheader("Preview")
    if fmt == "xlsx":
        rows = [
            {
                "#": n,
                "Question": i.question,
                "Answer": " / ".join(i.answers),
                "Section": ", ".join(map(str, i.sections)),
                "Element": i.element.value,
            }
            for n, i in enumerate(ordered(chosen), start=1)
        ]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
        return
    rows = []
    # Cached under the story's last change: every quiz format shows the same preview.
    for q in cache.quiz_preview(*key, chosen, sections):
        rows.append(
            {
                "#": q.number,
                "Question": q.question,
                "Right answer": q.answer,
                "Wrong options": " · ".join(o for i, o in enumerate(q.options) if i != q.correct)
                or "(open question)",
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _pdf_offer(content: Content) -> None:
    from qg_studio.export.pdf import PdfUnavailable
    from qg_studio.export.pdf import soffice

    if soffice() is None:
        return
    if st.button(
        "Make the PDFs to print",
        key="export_make_pdf",
        help="One PDF for the students (story and questions) and one for you "
        "(answer key and teacher sheet).",
    ):
        with st.spinner("LibreOffice is converting the worksheet…"):
            try:
                st.session_state["export_pdf"] = (content, _pdfs(content))
            except PdfUnavailable as exc:
                st.error(str(exc))
    made = st.session_state.get("export_pdf")
    if made and made[0] == content:  # only the PDFs of the file as it is now
        h = made[1]
        pdfs = (  # label, file, its name, widget key
            ("Download the students' PDF", h.students, h.students_name, "students"),
            ("Download the teacher's PDF (answer key)", h.teacher, h.teacher_name, "teacher"),
        )
        for col, (label, data, name, key) in zip(st.columns(2), pdfs):
            col.download_button(
                label,
                data,
                file_name=name,
                mime="application/pdf",
                key=f"export_pdf_{key}",
                icon=":material/download:",
            )
