"""The Annotate page's project picker and story upload, and its progress and
training-data exports."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from qg_studio.data.fairytaleqa import FtqaFormatError
from qg_studio.data.fairytaleqa import parse_story
from qg_studio.data.fairytaleqa import safe_name
from qg_studio.data.projects import StoryImportError
from qg_studio.data.projects import import_story
from qg_studio.data.projects import slug
from qg_studio.data.projects import story_record
from qg_studio.data.stats import DATASET_ELEMENTS
from qg_studio.data.stats import DATASET_EXPLICIT
from qg_studio.data.stats import GUIDELINE
from qg_studio.schema import QAItem
from qg_studio.ui import cache
from qg_studio.ui.state import current_project_id
from qg_studio.ui.state import get_store
from qg_studio.ui.state import open_project
from qg_studio.ui.text import plain
from qg_studio.ui.widgets import pick_option

PICKER = "ann_project"
SPLITS = ["train", "val", "test"]


# -- opening a story --------------------------------------------------------------------


def open_controls(store) -> None:
    projects = store.list_projects()
    current = current_project_id()
    cols = st.columns([3, 2])
    with cols[0]:
        if projects:
            ids = [p.id for p in projects]
            names = {p.id: f"{p.name} (#{p.id})" for p in projects}
            # The picker follows a project opened elsewhere (an upload, another page); a
            # choice made here was already opened by on_change, before this run.
            pick_option(
                "selectbox", "Project", ids, names, PICKER, value=current, on_change=open_project
            )
    with cols[1]:
        with st.expander("Open a FairytaleQA story", expanded=not projects):
            # A new key after each opened story empties the uploaders for the next one.
            n = st.session_state.get("ann_upload_n", 0)
            story_file = st.file_uploader(
                "Story CSV (section,text)", type=["csv"], key=f"ann_upload_story_{n}"
            )
            questions_file = st.file_uploader(
                "Questions CSV (optional)", type=["csv"], key=f"ann_upload_questions_{n}"
            )
            default = (
                story_file.name.removesuffix(".csv").removesuffix("-story") if story_file else ""
            )
            name = st.text_input(
                "Story name",
                placeholder=default or "from the file name",
                key=f"ann_upload_name_{n}",
            )
            if st.button("Open as a new project", key="ann_upload_go", disabled=story_file is None):
                try:
                    chosen_name = name.strip() or default or "story"
                    if not safe_name(chosen_name):
                        chosen_name = slug(chosen_name)
                    story = parse_story(
                        chosen_name,
                        story_file.getvalue(),
                        questions_file.getvalue() if questions_file else None,
                    )
                    result = import_story(store, story)
                except (FtqaFormatError, StoryImportError) as exc:
                    st.error(plain(exc))
                else:
                    open_project(result.project_id)
                    st.session_state["ann_upload_n"] = n + 1
                    st.rerun()


# -- progress and agreement -------------------------------------------------------------


def progress(story, items: list[QAItem]) -> None:
    title, sections = story.title, story.sections
    stats = cache.annotation_stats(
        cache.stamp(get_store(), story), title, [s.id for s in sections], items
    )
    st.subheader("Progress and agreement")
    low, high = GUIDELINE
    cols = st.columns(4)
    cols[0].metric("QA pairs", stats.qa_pairs)
    cols[1].metric(
        "Per section",
        f"{stats.questions_per_section:.2f}",
        help=f"Questions per section; the FairytaleQA guideline is about {low:.0f}–{high:.0f}.",
    )
    share = stats.explicit / stats.qa_pairs if stats.qa_pairs else 0.0
    cols[2].metric("Explicit", f"{share:.0%}", help=f"FairytaleQA train: {DATASET_EXPLICIT:.0%}")
    summary = stats.to_dict()
    agreement = summary["agreement_rouge_l"]
    cols[3].metric(
        "Agreement",
        "—" if agreement is None else f"{agreement:.3f}",
        help="how closely the two annotators' answers agree (answer1 vs answer4, ROUGE-L, "
        "over pairs with a second annotator); FairytaleQA val: 0.653",
    )
    if stats.uncovered_sections:
        st.caption(
            "Sections without a question yet: " + ", ".join(map(str, stats.uncovered_sections))
        )
    mix = pd.DataFrame({"this story": summary["elements"], "FairytaleQA": DATASET_ELEMENTS})
    st.dataframe((mix * 100).round(1).rename_axis("element (%)"), width="stretch")


# -- exports ----------------------------------------------------------------------------


def _export_bytes(project_id: int, split: str, fmt: str):
    """The download, written only when the button is clicked (not on every rerun)."""
    from qg_studio.services.exports import training_data

    store = get_store()  # the callable runs on another thread, outside the page's context
    return lambda: training_data(store, project_id, split, fmt)


def exports(project_id: int, story) -> None:
    st.subheader("Export as training data")
    record = story_record(get_store(), project_id, story.id) or {}
    default = record.get("split") or "train"
    options = SPLITS if default in SPLITS else [default] + SPLITS
    split = st.selectbox("Split", options, index=options.index(default), key="ann_split")
    name = record.get("name") or slug(story.title)
    store = get_store()
    n = cache.training_pairs(cache.project_stamp(store, project_id), project_id, split, store)
    st.caption(f"{n} QA pairs in the {split} split.")
    downloads = (  # format, label, file ending, mime, widget key
        ("fairytaleqa", "FairytaleQA (.zip)", "fairytaleqa.zip", "application/zip", "ftqa"),
        ("storyqa", "StoryQA (.jsonl)", "storyqa.jsonl", "application/jsonl", "storyqa"),
        ("hf", "Hugging Face (.zip)", "hf.zip", "application/zip", "hf"),
    )
    row = st.container(horizontal=True)  # each button as wide as its label
    for fmt, label, ending, mime, key in downloads:
        row.download_button(
            label,
            _export_bytes(project_id, split, fmt),
            file_name=f"{name}-{ending}",
            mime=mime,
            key=f"ann_dl_{key}",
            on_click="ignore",
        )
    st.caption(
        "The FairytaleQA zip keeps the dataset's columns exactly; who wrote each "
        "pair (engine or person) and whether it was edited is in "
        "provenance/<split>/<story>-provenance.csv beside it."
    )
