"""Each teacher's projects their own; undo per user and project; ids never reused;
stale edits refused with a message; old files carried to the local user."""

from __future__ import annotations

import json
import sqlite3

import pytest

from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.store import LOCAL_USER
from qg_studio.store import MIGRATIONS
from qg_studio.store import SCHEMA_VERSION
from qg_studio.store import StaleEditError
from qg_studio.store import Store
from qg_studio.store import StoreError


def _item(question="Who found the fox?"):
    return QAItem(
        question=question,
        answers=["Elsa"],
        element="character",
        explicitness="explicit",
        sections=[1],
    )


@pytest.fixture
def alice(tmp_path):
    return Store(tmp_path / "school.sqlite3", user="alice")


def _story(store: Store, name="Class 4B (private)") -> tuple[int, int]:
    project = store.create_project(name)
    return project, store.add_story(project, "The Mill", "A.", [Section(1, "A.")])


def test_a_user_sees_and_changes_only_their_own_projects(alice):
    bob = alice.as_user("bob")
    project, story_id = _story(alice)
    [item_id] = alice.add_items(story_id, [_item()], actor="alice@school")
    assert bob.list_projects() == []
    assert [p.name for p in alice.list_projects()] == ["Class 4B (private)"]
    attempts = [
        lambda: bob.get_project(project),
        lambda: bob.find_project(str(project)),
        lambda: bob.find_project("Class 4B (private)"),
        lambda: bob.list_stories(project),
        lambda: bob.latest_story(project),
        lambda: bob.get_story(story_id),
        lambda: bob.list_items(story_id),
        lambda: bob.get_item(item_id),
        lambda: bob.history(story_id),
        lambda: bob.undo(story_id, "bob"),
        lambda: bob.update_item(item_id, "bob", question="Mine now?"),
        lambda: bob.move_item(item_id, 0, "bob"),
        lambda: bob.delete_items(story_id, [item_id], "bob"),
        lambda: bob.add_items(story_id, [_item("Sneaked in?")], "bob"),
        lambda: bob.add_story(project, "Extra", "B.", [Section(1, "B.")]),
        lambda: bob.replace_sections(story_id, [Section(1, "Gone.")]),
        lambda: bob.update_settings(project, grade_band="K-2"),
        lambda: bob.rename_project(project, "Bob's"),
        lambda: bob.rename_story(story_id, "X"),
        lambda: bob.delete_story(story_id),
        lambda: bob.delete_project(project),
    ]
    for attempt in attempts:
        with pytest.raises(StoreError, match=r"^no (project|story|question item)"):
            attempt()
    # Nothing of Alice's changed.
    assert alice.get_project(project).name == "Class 4B (private)"
    assert [i.question for i in alice.list_items(story_id)] == ["Who found the fox?"]
    assert alice.get_story(story_id).sections == [Section(1, "A.")]
    assert [h["action"] for h in alice.history(story_id)] == ["create"]


def test_history_records_the_signed_in_user(alice):
    _, story_id = _story(alice)
    [item_id] = alice.add_items(story_id, [_item()], actor="t5-small")
    alice.update_item(item_id, "alice@school.org", question="Who freed the fox?")
    assert [(h["user"], h["actor"], h["action"]) for h in alice.history(story_id)] == [
        ("alice", "t5-small", "create"),
        ("alice", "alice@school.org", "edit"),
    ]


def test_undo_is_per_user_and_per_project(alice):
    bob = alice.as_user("bob")
    _, first = _story(alice, "Alice A")
    _, second = _story(alice, "Alice B")
    _, bobs = _story(bob, "Bob")
    [a1] = alice.add_items(first, [_item()], actor="alice")
    [a2] = alice.add_items(second, [_item("Where was the mill?")], actor="alice")
    [b1] = bob.add_items(bobs, [_item("What did Bob ask?")], actor="bob")
    alice.update_item(a1, "alice", question="Alice's edit?")
    bob.update_item(b1, "bob", question="Bob's edit?")
    # Bob's undo reverts Bob's edit, in Bob's project, and nothing of Alice's.
    assert bob.undo(bobs, "bob") == {
        "action": "edit",
        "item_id": b1,
        "applied": True,
        "changes": 1,
        "label": "",
    }
    assert alice.get_item(a1).question == "Alice's edit?"
    assert bob.get_item(b1).question == "What did Bob ask?"
    # Alice's undo in her second project leaves her first project's edit alone.
    assert alice.undo(second, "alice")["item_id"] == a2
    assert alice.list_items(second) == []
    assert alice.get_item(a1).question == "Alice's edit?"
    assert alice.undo(first, "alice")["action"] == "edit"
    assert alice.get_item(a1).question == "Who found the fox?"


def test_undo_in_two_tabs_of_one_user_goes_back_newest_first(alice):
    _, story_id = _story(alice)
    [item_id] = alice.add_items(story_id, [_item()], actor="x")
    alice.update_item(item_id, "tab1", question="First tab?")
    other_tab = alice.as_user("alice")
    other_tab.update_item(item_id, "tab2", answers=["Hans"])
    assert alice.undo(story_id, "tab1")["action"] == "edit"  # the answers, made last
    assert alice.get_item(item_id).answers == ["Elsa"]
    assert alice.get_item(item_id).question == "First tab?"
    assert other_tab.undo(story_id, "tab2")["action"] == "edit"
    assert alice.get_item(item_id).question == "Who found the fox?"
    assert alice.undo(story_id, "tab1")["action"] == "create"
    assert alice.undo(story_id, "tab1") is None


def test_ids_are_never_reused_and_undo_survives_adds_elsewhere(alice):
    _, here = _story(alice, "Here")
    _, elsewhere = _story(alice, "Elsewhere")
    first, last = alice.add_items(here, [_item(), _item("Where was the mill?")], actor="x")
    alice.delete_items(here, [last], "alice")
    [newer] = alice.add_items(elsewhere, [_item("Who came next?")], actor="x")
    assert newer > last
    # Undo the delete: the old id is still free, so this cannot collide (it used to).
    assert alice.undo(here, "alice") == {
        "action": "delete",
        "item_id": last,
        "applied": True,
        "changes": 1,
        "label": "",
    }
    assert [i.id for i in alice.list_items(here)] == [first, last]
    assert [i.id for i in alice.list_items(elsewhere)] == [newer]
    # Deleting a whole project does not free its ids either.
    project, story_id = _story(alice, "Temporary")
    [temp] = alice.add_items(story_id, [_item()], actor="x")
    alice.delete_project(project)
    assert alice.create_project("Next") > project
    _, again = _story(alice, "Again")
    assert alice.add_items(again, [_item()], actor="x")[0] > temp


def test_a_stale_section_edit_is_refused_with_a_message(alice):
    _, story_id = _story(alice)
    opened_by_me = alice.get_story(story_id)
    opened_by_other = alice.get_story(story_id)
    alice.replace_sections(
        story_id,
        [Section(1, "The other teacher's text.")],
        expected_version=opened_by_other.version,
    )
    with pytest.raises(StaleEditError, match="changed by someone else since you opened it"):
        alice.replace_sections(
            story_id, [Section(1, "My text.")], expected_version=opened_by_me.version
        )
    assert alice.get_story(story_id).text == "The other teacher's text."


def test_a_stale_item_edit_is_refused_but_other_fields_merge(alice):
    _, story_id = _story(alice)
    [item_id] = alice.add_items(story_id, [_item()], actor="x")
    seen = alice.get_item(item_id)
    alice.update_item(item_id, "other tab", question="Who rescued the fox?")
    with pytest.raises(StaleEditError, match="changed by someone else since you opened it"):
        alice.update_item(item_id, "me", seen=seen, question="Who chased the fox?")
    alice.update_item(item_id, "me", seen=seen, answers=["Hans"])  # a field nobody touched
    item = alice.get_item(item_id)
    assert (item.question, item.answers) == ("Who rescued the fox?", ["Hans"])


def test_an_old_database_is_carried_to_the_local_user(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0] + "PRAGMA user_version=1;")
    item = json.dumps({k: v for k, v in _item().to_dict().items() if k != "id"})
    db.executescript(f"""
        INSERT INTO project VALUES (1, 'Grade 4 fables', '{{"grade_band": "3-5"}}', 1, 2);
        INSERT INTO story VALUES (1, 1, 'The Fox', 'A.', 1, 1);
        INSERT INTO section VALUES (1, 1, 'A.');
        INSERT INTO item VALUES (3, 1, 0, '{item}', 'embedded', 1);
        INSERT INTO item_history VALUES (1, 3, 1, 'embedded', 'create', NULL, '{{}}', 1);
        INSERT INTO item_history VALUES (2, 9, 1, 'teacher', 'delete',
            '{item[:-1]}, "position": 1}}', NULL, 2);
    """)
    db.commit()
    db.close()
    local = Store(path)
    assert local.version == SCHEMA_VERSION
    [project] = local.list_projects()
    assert (project.name, project.owner, project.settings) == (
        "Grade 4 fables",
        LOCAL_USER,
        {"grade_band": "3-5"},
    )
    assert local.as_user("alice").list_projects() == []
    assert [h["user"] for h in local.history(1)] == [LOCAL_USER, LOCAL_USER]
    # Item 9 was deleted before the migration: its id stays taken, and undo brings it back.
    [new_id] = local.add_items(1, [_item("Where?")], actor="x")
    assert new_id > 9
    assert local.undo(1, "teacher")["action"] == "create"  # the newest change first
    assert local.undo(1, "teacher") == {
        "action": "delete",
        "item_id": 9,
        "applied": True,
        "changes": 1,
        "label": "",
    }
    assert sorted(i.id for i in local.list_items(1)) == [3, 9]
    assert local._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert local._db.execute("PRAGMA foreign_key_check").fetchall() == []
    local.close()
    assert Store(path).version == SCHEMA_VERSION  # reopening migrates nothing twice
