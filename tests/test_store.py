"""The project store: every change saved when made, nothing lost on a crash."""

from __future__ import annotations

import sqlite3

import pytest

from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.store import SCHEMA_VERSION
from qg_studio.store import Store
from qg_studio.store import StoreError
from qg_studio.store import default_data_dir


def _item(question="Who found the fox?", element="character"):
    return QAItem(
        question=question, answers=["Elsa"], element=element, explicitness="explicit", sections=[1]
    )


def test_data_folder_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("QG_STUDIO_HOME", str(tmp_path / "elsewhere"))
    assert default_data_dir() == tmp_path / "elsewhere"
    store = Store()
    assert store.path.parent == tmp_path / "elsewhere"
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.version == SCHEMA_VERSION


def test_round_trip_across_reopening(tmp_path):
    path = tmp_path / "db.sqlite3"
    with Store(path) as store:
        project = store.create_project("Grade 4 fables", {"grade_band": "3-5"})
        story_id = store.add_story(
            project, "The Fox", "A.\n\nB.", [Section(1, "A."), Section(2, "B.")]
        )
        [item_id] = store.add_items(story_id, [_item()], actor="embedded")
        store.update_item(item_id, "teacher", question="Who helped the fox?")
    with Store(path) as store:
        [info] = store.list_projects()
        assert (info.name, info.settings, info.stories) == (
            "Grade 4 fables",
            {"grade_band": "3-5"},
            1,
        )
        story = store.latest_story(info.id)
        assert [s.text for s in story.sections] == ["A.", "B."]
        [item] = store.list_items(story.id)
        assert item.question == "Who helped the fox?" and item.answers == ["Elsa"]
        actions = [(h["actor"], h["action"]) for h in store.history(story.id)]
        assert actions == [("embedded", "create"), ("teacher", "edit")]
        assert store.history(story.id)[1]["before"] == {"question": "Who found the fox?"}


def test_interrupted_write_leaves_earlier_state(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    project = store.create_project("P")
    story_id = store.add_story(project, "T", "A.", [Section(1, "A.")])
    store.add_items(story_id, [_item()], actor="embedded")
    # The second item is invalid: the whole batch must roll back, the first item stays.
    bad = _item("Where?")
    bad.to_dict = lambda: (_ for _ in ()).throw(RuntimeError("power cut"))  # type: ignore
    with pytest.raises(RuntimeError, match="power cut"):
        store.add_items(story_id, [_item("What did Elsa carry?"), bad], actor="embedded")
    with pytest.raises(sqlite3.IntegrityError):
        store.replace_sections(story_id, [Section(1, "A."), Section(1, "dup")])
    store.close()
    reopened = Store(tmp_path / "db.sqlite3")
    assert [i.question for i in reopened.list_items(story_id)] == ["Who found the fox?"]
    assert [s.text for s in reopened.get_story(story_id).sections] == ["A."]


def test_edit_with_a_bad_label_is_refused_and_nothing_changes(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    story_id = store.add_story(store.create_project("P"), "T", "A.", [Section(1, "A.")])
    [item_id] = store.add_items(story_id, [_item()], actor="embedded")
    with pytest.raises(ValueError, match="element"):
        store.update_item(item_id, "teacher", element="weather")
    assert store.get_item(item_id).element.value == "character"


def test_undo_reverts_edits_deletes_and_creations_in_order(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    story_id = store.add_story(store.create_project("P"), "T", "A.", [Section(1, "A.")])
    first, second = store.add_items(
        story_id, [_item(), _item("Where was the mill?", "setting")], actor="embedded"
    )
    store.update_item(first, "teacher", question="Who freed the fox?")
    store.delete_items(story_id, [second], actor="teacher")
    assert store.undo(story_id, "teacher")["action"] == "delete"
    assert [i.id for i in store.list_items(story_id)] == [first, second]
    assert store.undo(story_id, "teacher")["action"] == "edit"
    assert store.get_item(first).question == "Who found the fox?"


def test_rename_reorder_and_delete_projects(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    project = store.create_project("Old")
    store.rename_project(project, "New")
    assert store.find_project("New").id == project
    story_id = store.add_story(project, "T", "A.", [Section(1, "A.")])
    ids = store.add_items(story_id, [_item("Q1?"), _item("Q2?"), _item("Q3?")], "embedded")
    store.move_item(ids[2], 0, "teacher")
    assert [i.question for i in store.list_items(story_id)] == ["Q3?", "Q1?", "Q2?"]
    store.delete_project(project)
    assert store.list_projects() == []
    with pytest.raises(StoreError):
        store.get_story(story_id)


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "db.sqlite3"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer"):
        Store(path)
