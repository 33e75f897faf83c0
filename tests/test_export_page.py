"""The Export page through AppTest: options, preview, warnings and the file offered."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from export_story import STORY
from export_story import items
from export_story import sections
from streamlit.testing.v1 import AppTest

from qg_studio.store import Store

APP = str(Path(__file__).parent / "apps" / "export_page.py")


def _seed(project_name: str, story_title: str):
    secs = sections()
    with Store() as store:
        project = store.create_project(project_name)
        story = store.add_story(project, story_title, "\n\n".join(STORY), secs)
        store.add_items(story, items(secs), actor="embedded")
    return story


@pytest.fixture
def seeded():
    return _seed("Year 3", "Greta")


def _download(at):
    [button] = at.get("download_button")
    return button.proto


def test_worksheet_options_and_preview(seeded):
    at = AppTest.from_file(APP, default_timeout=90).run()
    assert not at.exception
    # The teacher has kept questions: only those go out unless she asks for the others.
    assert at.checkbox(key="export_kept_only").value is True
    assert len(at.dataframe[0].value) == 5
    at.checkbox(key="export_kept_only").uncheck().run()
    preview = at.dataframe[0].value
    assert len(preview) == 6 and "What did the king say about the weather?" not in set(
        preview["Question"]
    )
    at.radio(key="export_paper").set_value("letter")
    at.checkbox(key="export_q_only").check().run()
    assert not at.exception
    label = _download(at).label.replace("\\", "")  # the page escapes Markdown
    assert label.startswith("Download Greta-worksheet.xlsx")


def test_with_nothing_kept_yet_every_question_not_dropped_is_offered():
    story = _seed("Year 4", "Greta")
    with Store() as store:
        for item in store.list_items(story):
            if item.status.value == "kept":
                store.update_item(item.id, "teacher", status="unreviewed")
    at = AppTest.from_file(APP, default_timeout=90).run()
    assert at.checkbox(key="export_kept_only").value is False
    assert len(at.dataframe[0].value) == 6


def test_pasted_story_files_are_named_after_the_project():
    _seed("Year 3 owls", "Story")  # a pasted story without a title line
    at = AppTest.from_file(APP, default_timeout=90).run()
    assert not at.exception
    assert _download(at).label.replace("\\", "").startswith("Download Year-3-owls-worksheet.xlsx")
    at.selectbox(key="export_format").set_value("gift").run()
    assert _download(at).label.replace("\\", "").startswith("Download Year-3-owls-gift.gift.txt")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_students_and_teacher_pdfs_are_offered_apart(seeded):
    at = AppTest.from_file(APP, default_timeout=180).run()
    at.button(key="export_make_pdf").click().run()
    assert not at.exception
    buttons = {b.proto.label: b.proto for b in at.get("download_button")}
    assert "Download the students' PDF" in buttons
    assert "Download the teacher's PDF (answer key)" in buttons


def test_quiz_format_warns_about_skipped_open_questions(seeded):
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.selectbox(key="export_format").set_value("kahoot").run()
    assert not at.exception
    assert any("skipped in Kahoot" in w.value for w in at.warning)
    preview = at.dataframe[0].value
    row = preview[preview["Question"] == "Who rode past the mill?"].iloc[0]
    assert row["Right answer"] == "the king" and row["Wrong options"].count("·") == 2
    assert "(open question)" in set(preview["Wrong options"])
