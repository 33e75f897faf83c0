"""The Story page: projects, paste or upload a story, graded sections, section edits."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from qg_studio.schema import Section
from qg_studio.story import (
    GradeBand,
    StoryInputError,
    edit_section,
    grade_sections,
    load_story_file,
    merge_sections,
    parse_story,
    section_story,
    split_section,
)
from qg_studio.ui.state import current_project_id, current_story, get_store, open_project

BANDS = ["K-2", "3-5", "6-8", "K-8", "K", "1", "2", "3", "4", "5", "6", "7", "8"]


def render() -> None:
    st.title("Story")
    _project_bar()
    project_id = current_project_id()
    if project_id is None:
        st.info("Create a project to start: give it a name above.")
        return
    project = get_store().get_project(project_id)
    band = _band_picker(project_id, project.settings.get("grade_band", "3-5"))
    story = current_story()
    with st.expander("Add a story" if story is None else "Replace with a new story",
                     expanded=story is None):
        _story_input(project_id)
    story = current_story()
    if story is not None:
        _show_sections(story.id, story.title, story.sections, band)


def _project_bar() -> None:
    store = get_store()
    projects = store.list_projects()
    current = current_project_id()
    cols = st.columns([3, 2, 1])
    with cols[0]:
        if projects:
            ids = [p.id for p in projects]
            names = {p.id: f"{p.name} ({p.stories} {'story' if p.stories == 1 else 'stories'})"
                     for p in projects}
            # The picker follows the open project (a new one, or one opened elsewhere);
            # otherwise it would keep its old choice and switch back.
            st.session_state["project_picker"] = current if current in ids else ids[0]
            chosen = st.selectbox("Project", ids, format_func=names.get, key="project_picker")
            if chosen != current:
                open_project(chosen)
                st.rerun()
    with cols[1]:
        with st.popover("New project"):
            name = st.text_input("Project name", key="new_project_name")
            if st.button("Create", key="create_project"):
                open_project(store.create_project(name or "Untitled project",
                                                  {"grade_band": "3-5"}))
                st.rerun()
    with cols[2]:
        if current is not None:
            with st.popover("Manage"):
                new_name = st.text_input("Rename to", key="rename_to")
                if st.button("Rename", key="rename_project") and new_name.strip():
                    store.rename_project(current, new_name)
                    st.rerun()
                st.divider()
                sure = st.checkbox("Delete this project and all its questions",
                                   key="confirm_delete")
                if st.button("Delete project", key="delete_project", disabled=not sure,
                             type="primary"):
                    store.delete_project(current)
                    open_project(None)
                    st.rerun()


def _band_picker(project_id: int, saved: str) -> GradeBand:
    index = BANDS.index(saved) if saved in BANDS else 1
    choice = st.selectbox("Target grade band", BANDS, index=index, key="grade_band",
                          help="The grades of the class you teach (K–8).")
    if choice != saved:
        get_store().update_settings(project_id, grade_band=choice)
    return GradeBand.parse(choice)


def _story_input(project_id: int) -> None:
    upload = st.file_uploader("Upload a story (.txt or .docx)", type=["txt", "docx"],
                              key="story_upload")
    text = st.text_area("…or paste it here", height=220, key="story_text",
                        placeholder="Paste the story. A short first line is taken as its "
                                    "title.")
    if not st.button("Section the story", type="primary", key="section_story"):
        return
    try:
        if upload is not None:
            text = load_story_file(upload.name, upload.getvalue())
        sections = section_story(text)
    except StoryInputError as exc:
        st.error(f"Nothing was changed: {exc}.")
        return
    parsed = parse_story(text)
    title = parsed.title or (upload.name.rsplit(".", 1)[0] if upload is not None else "Story")
    get_store().add_story(project_id, title, parsed.text, sections)
    st.rerun()


@st.cache_data(show_spinner=False, max_entries=64)
def _graded(texts: tuple[str, ...], band: str):
    sections = [Section(id=i + 1, text=t) for i, t in enumerate(texts)]
    report = grade_sections(sections, band)
    return sections, report


def _show_sections(story_id: int, title: str, stored: list[Section], band: GradeBand) -> None:
    sections, report = _graded(tuple(s.text for s in stored), str(band))
    figures = report.story
    st.subheader(title or "Story")
    cols = st.columns(5)
    cols[0].metric("Words", f"{figures.words:,}")
    cols[1].metric("Sections", len(sections))
    cols[2].metric("Grade (consensus)", f"{figures.grade:g}")
    cols[3].metric("Flesch–Kincaid", f"{figures.fk_grade:g}")
    cols[4].metric("Dale–Chall", f"{figures.dale_chall:g}")
    verdict = {"in": "within", "below": "below", "above": "above"}[report.verdict]
    st.caption(f"The story reads {verdict} your band ({band}).")
    for warning in report.warnings:
        st.warning(warning)

    table = pd.DataFrame([{
        "Section": s.id, "Words": s.words, "Sentences": s.readability.sentences,
        "Grade": s.readability.grade, "Flesch–Kincaid": s.readability.fk_grade,
        "Dale–Chall": s.readability.dale_chall, "Verdict": s.verdict,
        "Begins": s.text[:80].replace("\n", " ") + ("…" if len(s.text) > 80 else ""),
    } for s in sections])
    st.dataframe(table, hide_index=True, width="stretch")
    st.bar_chart(table.set_index("Section")["Grade"], height=180, x_label="Section",
                 y_label="Grade")
    _section_editor(story_id, stored)


def _section_editor(story_id: int, sections: list[Section]) -> None:
    st.markdown("#### Edit sections")
    ids = [s.id for s in sections]
    chosen = st.selectbox("Section", ids, key="edit_section_id")
    section = next(s for s in sections if s.id == chosen)
    text = st.text_area(f"Text of section {chosen}", section.text, height=200,
                        key=f"section_text_{story_id}_{chosen}_{hash(section.text)}")
    cols = st.columns(3)
    try:
        if cols[0].button("Save text", key="save_section"):
            _save(story_id, edit_section(sections, chosen, text))
        if cols[1].button("Merge with next", key="merge_section",
                          disabled=chosen == ids[-1]):
            _save(story_id, merge_sections(sections, chosen))
        if cols[2].button("Split in two", key="split_section"):
            _save(story_id, split_section(sections, chosen))
    except StoryInputError as exc:
        st.error(str(exc))


def _save(story_id: int, sections: list[Section]) -> None:
    get_store().replace_sections(story_id, sections)
    st.rerun()
