"""The teacher's decisions are data: what was dropped stays dropped, an edited question
replaces its first wording for good, kept and whole-story questions outlive a regenerate,
and one undo takes back one whole action."""

from __future__ import annotations

from pathlib import Path

import pytest

from qg_studio.schema import GenerationRequest
from qg_studio.schema import ReviewStatus
from qg_studio.store import Store

FABLE = (Path(__file__).parent / "fixtures" / "fable_snail_hares.txt").read_text(encoding="utf-8")


@pytest.fixture
def saved(tmp_path):
    from qg_studio.services.generation import generate
    from qg_studio.services.stories import ingest

    story = ingest(FABLE)
    store = Store(tmp_path / "store.sqlite3")
    project = store.create_project("Snail", {"engine": "embedded"})
    story_id = store.add_story(project, story.title, story.text, story.sections)
    run = generate(story.sections, GenerationRequest(count=8), "embedded", use_embeddings=False)
    store.add_items(story_id, run.items, actor="embedded", label="generated 8 questions")
    yield store, store.get_story(story_id)
    store.close()


def _regenerate(store, story, section: int):
    from qg_studio.services.generation import regenerate

    items = store.list_items(story.id)
    return regenerate(store, story, "section", section, 3, items, actor="teacher")


def _section_with_questions(store, story) -> int:
    from qg_studio.services.generation import regenerate_group

    items = store.list_items(story.id)
    return max(
        (s.id for s in story.sections), key=lambda s: len(regenerate_group(items, "section", s))
    )


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def test_a_dropped_question_stays_dropped_and_is_never_asked_again(saved):
    from qg_studio.services.generation import regenerate_group

    store, story = saved
    section = _section_with_questions(store, story)
    target = regenerate_group(store.list_items(story.id), "section", section)[0]
    store.update_item(target.id, "teacher", status=ReviewStatus.DROPPED)
    for _ in range(2):  # twice: the second run must not bring it back either
        _regenerate(store, story, section)
    after = store.list_items(story.id)
    same = [i for i in after if _norm(i.question) == _norm(target.question)]
    assert [i.id for i in same] == [target.id]  # still saved, as the teacher left it
    assert same[0].status is ReviewStatus.DROPPED


def test_an_edited_question_replaces_its_first_wording_for_good(saved):
    from qg_studio.services.generation import regenerate_group

    store, story = saved
    section = _section_with_questions(store, story)
    target = regenerate_group(store.list_items(story.id), "section", section)[0]
    store.update_item(
        target.id,
        "teacher",
        question=target.question.rstrip("?") + " that day?",
        status=ReviewStatus.KEPT,
    )
    _regenerate(store, story, section)
    questions = [_norm(i.question) for i in store.list_items(story.id)]
    assert _norm(target.question) not in questions
    assert _norm(target.question.rstrip("?") + " that day?") in questions


def test_kept_and_whole_story_questions_outlive_a_sections_regenerate(saved):
    store, story = saved
    items = store.list_items(story.id)
    whole_story = [i.id for i in items if i.scores.story_level]
    assert whole_story, "the default set asks about the whole story"
    section = _section_with_questions(store, story)
    kept = next(i for i in items if section in i.sections and not i.scores.story_level)
    store.update_item(kept.id, "teacher", status=ReviewStatus.KEPT)
    _regenerate(store, story, section)
    ids = {i.id for i in store.list_items(story.id)}
    assert set(whole_story) <= ids and kept.id in ids


def test_one_undo_takes_back_a_whole_regenerate_and_history_says_it_once(saved):
    store, story = saved
    before = {(i.id, i.question) for i in store.list_items(story.id)}
    section = _section_with_questions(store, story)
    done = _regenerate(store, story, section)
    assert done.added and done.replaced  # several changes in one action
    undone = store.undo(story.id, actor="teacher")
    assert undone["changes"] == len(done.added) + done.replaced
    assert undone["label"].startswith(f"regenerated section {section}")
    assert {(i.id, i.question) for i in store.list_items(story.id)} == before
    labels = [h["label"] for h in store.history(story.id) if h["label"]]
    steps = {h["step"] for h in store.history(story.id) if h["label"].startswith("regenerated")}
    assert len(steps) == 1 and any(label.startswith("undid: regenerated") for label in labels)
    # The next undo takes back the generate before it, also as one action.
    assert store.undo(story.id, actor="teacher")["label"] == "generated 8 questions"
    assert store.list_items(story.id) == []
