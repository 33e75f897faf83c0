"""The Story page through Streamlit's AppTest: paste, section, see grades, edit, persist."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from qg_studio.store import Store

APP = str(Path(__file__).parent / "apps" / "story_page.py")


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60)


def _new_project(at: AppTest, name: str) -> AppTest:
    at.text_input(key="new_project_name").input(name)
    at.button(key="create_project").click().run()
    return at


def test_paste_section_and_see_grades_saved(story_text):
    at = _app().run()
    assert "Create a project" in at.info[0].value
    _new_project(at, "Fables")
    at.text_area(key="story_text").input(story_text)
    at.button(key="section_story").click().run()
    assert not at.exception
    table = at.dataframe[0].value
    assert list(table["Section"]) == list(range(1, len(table) + 1))
    assert {"Grade", "Flesch–Kincaid", "Dale–Chall", "Verdict"} <= set(table.columns)
    # The fixture reads at grade 6; the default band is 3-5.
    assert any("above the target band 3-5" in w.value for w in at.warning)
    # Saved: a fresh store sees the project, the story and its sections.
    [project] = Store().list_projects()
    story = Store().latest_story(project.id)
    assert project.name == "Fables" and len(story.sections) == len(table)


def test_bad_input_shows_a_message_and_keeps_the_saved_story(story_text):
    at = _new_project(_app().run(), "Fables")
    at.text_area(key="story_text").input(story_text)
    at.button(key="section_story").click().run()
    before = len(at.dataframe[0].value)
    at.text_area(key="story_text").input("   ")
    at.button(key="section_story").click().run()
    assert any("Nothing was changed" in e.value and "empty" in e.value for e in at.error)
    assert len(at.dataframe[0].value) == before


def test_merge_updates_figures_and_store(story_text):
    at = _new_project(_app().run(), "Fables")
    at.text_area(key="story_text").input(story_text)
    at.button(key="section_story").click().run()
    before = at.dataframe[0].value
    at.button(key="merge_section").click().run()
    after = at.dataframe[0].value
    assert len(after) == len(before) - 1
    assert after["Words"].iloc[0] == before["Words"].iloc[0] + before["Words"].iloc[1]
    story = Store().latest_story(Store().list_projects()[0].id)
    assert len(story.sections) == len(after)


def test_grade_band_is_a_project_setting(story_text):
    at = _new_project(_app().run(), "Fables")
    at.selectbox(key="grade_band").select("6-8").run()
    assert Store().list_projects()[0].settings["grade_band"] == "6-8"
