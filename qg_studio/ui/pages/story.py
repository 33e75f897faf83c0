"""The Story page: projects, paste or upload a story, graded sections, section edits."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from qg_studio.schema import Section
from qg_studio.store import StaleEditError
from qg_studio.story import GradeBand
from qg_studio.story import StoryInputError
from qg_studio.story import edit_section
from qg_studio.story import grade_sections
from qg_studio.story import load_story_file
from qg_studio.story import merge_sections
from qg_studio.story import parse_story
from qg_studio.story import section_story
from qg_studio.story import split_section
from qg_studio.ui.state import current_project_id
from qg_studio.ui.state import current_story
from qg_studio.ui.state import get_store
from qg_studio.ui.state import open_project
from qg_studio.ui.steps import next_step
from qg_studio.ui.text import plain
from qg_studio.ui.welcome import SAMPLE_PROJECT
from qg_studio.ui.welcome import SAMPLE_STORY
from qg_studio.ui.welcome import welcome
from qg_studio.ui.widgets import pick_option

BANDS = ["K-2", "3-5", "6-8", "K-8", "K", "1", "2", "3", "4", "5", "6", "7", "8"]
DEFAULT_BAND = "3-5"
PICKER = "project_picker"
NOTE = "story_note"
DONE = "story_done"  # what was just done, said once on the next run
SEEN_VERSION = "story_version_seen"


def render() -> None:
    store = get_store()
    project_id = current_project_id()
    story = current_story() if project_id is not None else None
    if story is None:
        welcome()  # first use, or a project still without a story
    else:
        st.title("Story")
    _project_bar(store)
    project_id = current_project_id()
    if project_id is None:
        return
    project = store.get_project(project_id)
    band = _band_picker(project_id, project.settings.get("grade_band", DEFAULT_BAND))
    story = current_story()
    with st.expander(
        "Add a story" if story is None else "Replace with a new story", expanded=story is None
    ):
        _story_input(project_id)
    story = current_story()
    if story is not None:
        _show_sections(story.id, story.title, story.sections, band)
        next_step("generate", "Next: write questions", key="story_next")


def _project_bar(store) -> None:
    projects = store.list_projects()
    current = current_project_id()
    if not projects:
        st.subheader("Start")
        st.button(
            "Try it with a sample story",
            type="primary",
            key="try_sample",
            icon=":material/auto_stories:",
            on_click=_open_sample,
        )
        _new_project_form("…or start your own project")
        return
    cols = st.columns([3, 3, 2], vertical_alignment="bottom")
    with cols[0]:
        ids = [p.id for p in projects]
        names = {
            p.id: f"{p.name} ({p.stories} {'story' if p.stories == 1 else 'stories'})"
            for p in projects
        }
        # The picker follows a project opened elsewhere (a new one, another page); a
        # choice made here was already opened by on_change, before this run.
        pick_option(
            "selectbox", "Project", ids, names, PICKER, value=current, on_change=open_project
        )
    with cols[1]:
        _new_project_form("New project")
    with cols[2]:
        if current is not None:
            _manage(store, current)


def _new_project_form(label: str) -> None:
    # A form: Enter in the name field creates the project, and the field empties, so a
    # second click cannot make a copy of it.
    with st.form("new_project_form", clear_on_submit=True, border=False):
        cols = st.columns([3, 2], vertical_alignment="bottom")
        cols[0].text_input(label, key="new_project_name", placeholder="e.g. Class 3B")
        cols[1].form_submit_button("Create", key="create_project", on_click=_create)
    for message in st.session_state.pop(NOTE, []):
        st.warning(message)
    for message in st.session_state.pop(DONE, []):
        st.success(message)


def _create() -> None:
    name = " ".join(st.session_state.get("new_project_name", "").split())
    if not name:
        st.session_state[NOTE] = ["Type a name for the project first; nothing was created."]
        return
    open_project(get_store().create_project(name, {"grade_band": DEFAULT_BAND}))
    st.session_state["new_project_name"] = ""


def _open_sample() -> None:
    project_id = get_store().create_project(SAMPLE_PROJECT, {"grade_band": DEFAULT_BAND})
    _add_sample(project_id)
    open_project(project_id)


def _add_sample(project_id: int) -> None:
    parsed = parse_story(SAMPLE_STORY)
    get_store().replace_story(
        project_id, parsed.title or "Sample story", parsed.text, section_story(SAMPLE_STORY)
    )


def _manage(store, current: int) -> None:
    # Keyed by project: the popover of the next project opens closed.
    with st.popover("Manage", key=f"manage_{current}"):
        new_name = st.text_input("Rename to", key=f"rename_to_{current}")
        if st.button("Rename", key="rename_project") and new_name.strip():
            store.rename_project(current, new_name)
            st.rerun()
        st.divider()
        # Keyed by project: ticking it for one project never arms the next one.
        sure = st.checkbox(
            "Delete this project and all its questions", key=f"confirm_delete_{current}"
        )
        st.button(
            "Delete project",
            key="delete_project",
            disabled=not sure,
            type="primary",
            on_click=_delete,
            args=(current,),
        )


def _delete(project_id: int) -> None:
    store = get_store()
    name = store.get_project(project_id).name
    store.delete_project(project_id)
    st.session_state.pop(f"confirm_delete_{project_id}", None)
    st.session_state[DONE] = [f"Deleted the project “{name}” and its questions."]
    open_project(None)


def _band_picker(project_id: int, saved: str) -> GradeBand:
    index = BANDS.index(saved) if saved in BANDS else BANDS.index(DEFAULT_BAND)
    # One widget per project: a band chosen for one project is not carried to the next.
    column = st.columns([1, 3])[0]
    choice = column.selectbox(
        "Target grade band",
        BANDS,
        index=index,
        key=f"grade_band_{project_id}",
        help="The grades of the class you teach (K–8).",
    )
    if choice != saved:
        get_store().update_settings(project_id, grade_band=choice)
    return GradeBand.parse(choice)


def _story_input(project_id: int) -> None:
    upload = st.file_uploader(
        "Upload a story (.txt or .docx)", type=["txt", "docx"], key="story_upload"
    )
    text = st.text_area(
        "…or paste it here",
        height=220,
        key="story_text",
        placeholder="Paste the story. A short first line is taken as its title.",
    )
    cols = st.columns([1, 1, 3])
    cols[1].button(
        "Use the sample story", key="use_sample", on_click=_add_sample, args=(project_id,)
    )
    if not cols[0].button("Section the story", type="primary", key="section_story"):
        return
    try:
        if upload is not None:
            text = load_story_file(upload.name, upload.getvalue())
        sections = section_story(text)
    except StoryInputError as exc:
        st.error(f"Nothing was changed: {plain(exc)}.")
        return
    parsed = parse_story(text)
    title = parsed.title or (upload.name.rsplit(".", 1)[0] if upload is not None else "Story")
    _, aside = get_store().replace_story(project_id, title, parsed.text, sections)
    if aside:
        st.session_state[DONE] = [
            "The earlier story and its questions are kept in a project of their own "
            "(“… (replaced)” in the project list)."
        ]
    st.rerun()


@st.cache_data(show_spinner=False, max_entries=64)
def _graded(texts: tuple[str, ...], band: str):
    sections = [Section(id=i + 1, text=t) for i, t in enumerate(texts)]
    report = grade_sections(sections, band)
    return sections, report


def _show_sections(story_id: int, title: str, stored: list[Section], band: GradeBand) -> None:
    sections, report = _graded(tuple(s.text for s in stored), str(band))
    figures = report.story
    st.subheader(plain(title or "Story"))
    cols = st.columns(5)
    cols[0].metric("Words", f"{figures.words:,}")
    cols[1].metric("Sections", len(sections))
    cols[2].metric(
        "Grade",
        f"{figures.grade:g}",
        help="the school grade most readability formulas agree on (textstat's consensus of "
        "Flesch–Kincaid, Dale–Chall, Coleman–Liau and others): one formula alone can "
        "differ from it by a grade or two",
    )
    cols[3].metric("Flesch–Kincaid", f"{figures.fk_grade:g}")
    cols[4].metric("Dale–Chall", f"{figures.dale_chall:g}")
    if report.verdict == "in":  # out of the band, the warning below says so, once
        st.caption(f"The story reads within your band ({band}).")
    for warning in report.warnings:
        st.warning(warning)

    table = pd.DataFrame(
        [
            {
                "Section": s.id,
                "Words": s.words,
                "Sentences": s.readability.sentences,
                "Grade": s.readability.grade,
                "Flesch–Kincaid": s.readability.fk_grade,
                "Dale–Chall": s.readability.dale_chall,
                "Verdict": s.verdict,
                "Begins": s.text[:80].replace("\n", " ") + ("…" if len(s.text) > 80 else ""),
            }
            for s in sections
        ]
    )
    st.dataframe(table, hide_index=True, width="stretch")
    st.bar_chart(
        table.set_index("Section")["Grade"], height=180, x_label="Section", y_label="Grade"
    )
    _section_editor(story_id, stored)


def _section_editor(story_id: int, sections: list[Section]) -> None:
    st.markdown("#### Edit sections")
    ids = [s.id for s in sections]
    chosen = st.selectbox("Section", ids, key="edit_section_id")
    section = next(s for s in sections if s.id == chosen)
    text = st.text_area(
        f"Text of section {chosen}",
        section.text,
        height=200,
        key=f"section_text_{story_id}_{chosen}_{hash(section.text)}",
    )
    cols = st.columns(3)
    try:
        if cols[0].button("Save text", key="save_section"):
            _save(story_id, edit_section(sections, chosen, text))
        if cols[1].button("Merge with next", key="merge_section", disabled=chosen == ids[-1]):
            _save(story_id, merge_sections(sections, chosen))
        if cols[2].button("Split in two", key="split_section"):
            _save(story_id, split_section(sections, chosen))
    except (StoryInputError, StaleEditError) as exc:
        st.error(plain(exc))
    # The version on screen when the teacher clicks: a save is checked against it.
    st.session_state[f"{SEEN_VERSION}_{story_id}"] = get_store().get_story(story_id).version


def _save(story_id: int, sections: list[Section]) -> None:
    seen = st.session_state.get(f"{SEEN_VERSION}_{story_id}")
    get_store().replace_sections(story_id, sections, expected_version=seen)
    st.rerun()
