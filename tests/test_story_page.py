"""The Story page through Streamlit's AppTest: paste, section, see grades, edit, persist."""

from __future__ import annotations

from pathlib import Path

from page_text import labelled
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
    _band(at, Store().list_projects()[0].id).select("6-8").run()
    assert Store().list_projects()[0].settings["grade_band"] == "6-8"


def _band(at: AppTest, project_id: int):
    return at.selectbox(key=f"grade_band_{project_id}")


def test_landing_says_what_it_does_and_the_sample_story_opens_in_one_click():
    at = _app().run()
    assert at.title[0].value == "QG Studio"
    text = " ".join(m.value for m in at.markdown)
    assert "writes reading-comprehension questions" in text
    for n, step in enumerate(["Story", "Generate", "Curate", "Export"], start=1):
        assert f"{n}. {step}" in text
    assert at.text_input(key="new_project_name").label  # in plain sight, not in a popover
    at.button(key="try_sample").click().run()
    assert not at.exception
    [project] = Store().list_projects()
    story = Store().latest_story(project.id)
    assert story.title == "The Paper Boat" and 200 < len(story.text.split()) < 300
    assert at.dataframe[0].value["Section"].tolist()  # sections with their grades
    assert at.button(key="story_next").label == "Next: write questions"


def test_a_project_is_created_once_and_only_with_a_name():
    at = _new_project(_app().run(), "Class 3B")
    assert [p.name for p in Store().list_projects()] == ["Class 3B"]
    assert at.text_input(key="new_project_name").value == ""  # emptied after Create
    at.button(key="create_project").click().run()  # a second click
    assert [p.name for p in Store().list_projects()] == ["Class 3B"]
    assert any("Type a name" in w.value for w in at.warning)


def test_picking_another_project_opens_it(story_text):
    at = _new_project(_app().run(), "Older")
    at.text_area(key="story_text").input(story_text)
    at.button(key="section_story").click().run()
    _new_project(at, "Newer")
    older, newer = sorted(p.id for p in Store().list_projects())
    assert at.session_state["project_id"] == newer
    labelled(at.selectbox, "Project").select(older).run()
    assert at.session_state["project_id"] == older
    assert labelled(at.selectbox, "Project").value == older
    assert at.title[0].value == "Story"  # the older project's story is shown
    at.run()  # and it stays open on the next run
    assert labelled(at.selectbox, "Project").value == older


def test_delete_confirmation_does_not_carry_to_the_next_project():
    at = _new_project(_new_project(_app().run(), "Keep me"), "Delete me")
    keep, gone = sorted(p.id for p in Store().list_projects())
    at.checkbox(key=f"confirm_delete_{gone}").check().run()
    at.button(key="delete_project").click().run()
    assert [p.id for p in Store().list_projects()] == [keep]
    assert at.session_state["project_id"] == keep
    assert not at.checkbox(key=f"confirm_delete_{keep}").value
    assert at.button(key="delete_project").disabled
    assert any("Deleted the project “Delete me”" in s.value for s in at.success)


def test_grade_band_is_not_carried_to_a_new_project():
    at = _new_project(_app().run(), "Older class")
    first = Store().list_projects()[0].id
    _band(at, first).select("6-8").run()
    _new_project(at, "Younger class")
    second = Store().list_projects()[0].id
    assert second != first
    assert _band(at, second).value == "3-5"
    assert Store().get_project(second).settings["grade_band"] == "3-5"
    assert Store().get_project(first).settings["grade_band"] == "6-8"


def test_replace_with_a_new_story_replaces_and_keeps_the_old_one_reachable(story_text):
    from qg_studio.schema import QAItem

    at = _new_project(_app().run(), "Fables")
    at.text_area(key="story_text").input(story_text)
    at.button(key="section_story").click().run()
    [project] = Store().list_projects()
    old = Store().latest_story(project.id)
    Store().add_items(old.id, [QAItem("Who ran?", ["the fox"], "character", "explicit")], "t")
    fable = (Path(__file__).parent / "fixtures" / "fable_crow_goat.txt").read_text("utf-8")
    at.text_area(key="story_text").input(fable)
    at.button(key="section_story").click().run()
    assert not at.exception
    # The project has the new story only; its Generate and Curate see it.
    stories = Store().list_stories(project.id)
    assert [s.title for s in stories] == ["The Crow and the Goat"]
    assert Store().list_items(stories[0].id) == []
    # The old story and its question moved to a project of their own.
    aside = [p for p in Store().list_projects() if p.id != project.id]
    assert [p.name for p in aside] == [f"Fables – {old.title} (replaced)"]
    kept = Store().latest_story(aside[0].id)
    assert kept.id == old.id and [i.question for i in Store().list_items(kept.id)] == ["Who ran?"]
    assert any("kept in a project of their own" in m.value for m in at.success)
