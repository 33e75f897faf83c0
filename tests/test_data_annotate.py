"""The Annotate page through Streamlit's AppTest: validation before saving, the second
annotator's pass, and the engine suggestions' fallbacks."""

from __future__ import annotations

from pathlib import Path

import pytest
from page_text import labelled
from page_text import read
from streamlit.testing.v1 import AppTest

from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.services import suggestions
from qg_studio.store import Store

APP = str(Path(__file__).parent / "apps" / "annotate_page.py")
SECTIONS = [
    Section(1, "Once a miller lived by a cold river with one grey donkey."),
    Section(2, "One morning a fox came to the mill and asked for bread."),
]


@pytest.fixture
def story_id():
    store = Store()
    project = store.create_project("Miller")
    return store.add_story(project, "The Miller", "\n\n".join(s.text for s in SECTIONS), SECTIONS)


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=60).run()


def _key(story_id: int, name: str) -> str:
    return f"ann_{story_id}_{name}"


def _messages(at: AppTest) -> list[str]:
    return [read(e.value) for e in at.error]


def test_invalid_pairs_are_refused_naming_fields_and_nothing_saved_is_lost(story_id):
    at = _app()
    assert not at.exception
    at.text_area(key=_key(story_id, "question")).input("Where did the miller live?").run()
    at.button(key=_key(story_id, "save")).click().run()
    errors = _messages(at)
    assert any(e.startswith("element:") for e in errors)
    assert any(e.startswith("sections:") for e in errors)
    assert any(e.startswith("answer1:") for e in errors)
    assert Store().list_items(story_id) == []
    # what was typed is still there to fix
    assert at.text_area(key=_key(story_id, "question")).value == "Where did the miller live?"

    at.selectbox(key=_key(story_id, "element")).select("setting")
    at.multiselect(key=_key(story_id, "sections")).select(1)
    at.text_input(key=_key(story_id, "a1")).input("by a cold river")
    at.button(key=_key(story_id, "save")).click().run()
    assert not _messages(at)
    assert any("saved" in s.value for s in at.success)
    [saved] = Store().list_items(story_id)
    assert (saved.element.value, saved.sections, saved.answers) == (
        "setting",
        [1],
        ["by a cold river"],
    )
    assert at.text_area(key=_key(story_id, "question")).value == ""  # ready for the next

    # a refused second pair leaves the first one exactly as it was
    at.text_area(key=_key(story_id, "question")).input("Who came to the mill?")
    at.selectbox(key=_key(story_id, "element")).select("character")
    at.multiselect(key=_key(story_id, "sections")).select(2)
    at.button(key=_key(story_id, "save")).click().run()
    assert [e for e in _messages(at) if e.startswith("answer1:")]
    assert [i.to_dict() for i in Store().list_items(story_id)] == [saved.to_dict()]


def test_explicit_answer_not_in_the_text_is_saved_with_a_warning(story_id):
    at = _app()
    at.text_area(key=_key(story_id, "question")).input("Where did the miller live?")
    at.selectbox(key=_key(story_id, "element")).select("setting")
    at.multiselect(key=_key(story_id, "sections")).select(1)
    at.text_input(key=_key(story_id, "a1")).input("by the sea")
    at.button(key=_key(story_id, "save")).click().run()
    assert any(read(w.value).startswith("answer1: marked explicit") for w in at.warning)
    assert len(Store().list_items(story_id)) == 1


def test_second_pass_hides_first_answers_and_records_answer4(story_id):
    store = Store()
    store.add_items(
        story_id,
        [QAItem("Who came to the mill?", ["a hungry fox"], "character", "explicit", sections=[2])],
        actor="annotator:a",
    )
    at = _app()
    assert "a hungry fox" in at.dataframe[0].value.to_string()  # first pass shows it
    at.radio(key="ann_mode").set_value("Second annotator").run()
    page = " ".join(str(e.value) for e in at.markdown) + at.dataframe[0].value.to_string()
    assert "a hungry fox" not in page and "Who came to the mill?" in page
    at.text_input(key=_key(story_id, f"s4_{store.list_items(story_id)[0].id}")).input("a fox")
    submit = [b for b in at.button if b.label == "Save second answers"]
    submit[0].click().run()
    [item] = Store().list_items(story_id)
    assert item.second_answers == ["a fox"] and item.answers == ["a hungry fox"]
    assert item.second_explicitness.value == "explicit"
    history = Store().history(story_id, item.id)
    assert history[-1]["actor"] == "annotator:annotator" and history[-1]["action"] == "edit"


def test_suggestions_report_a_missing_engine_instead_of_failing(monkeypatch):
    import qg_studio.answering as answering

    def broken(*args, **kwargs):
        raise RuntimeError("no checkpoint")

    monkeypatch.setattr(answering, "get_answerer", broken)
    result = suggestions.suggest_answer("Who came to the mill?", SECTIONS)
    assert not result.ok and "no checkpoint" in result.note
    assert "write the question first" in suggestions.suggest_labels("", "", SECTIONS).note
    assert "answer1" in suggestions.suggest_question(SECTIONS, " ", "character").note


def test_suggested_pairs_keep_engine_provenance_when_accepted_or_edited(story_id, monkeypatch):
    def fake_items(sections, count=3, engine="embedded"):
        return suggestions.Suggestion(
            items=[
                QAItem(
                    "Who came to the mill?",
                    ["a fox"],
                    "character",
                    "explicit",
                    sections=[2],
                    engine="embedded",
                ),
                QAItem(
                    "What did the fox ask for?",
                    ["bread"],
                    "action",
                    "explicit",
                    sections=[2],
                    engine="embedded",
                ),
            ],
            engine="embedded",
        )

    monkeypatch.setattr(suggestions, "suggest_items", fake_items)
    at = _app()
    at.button(key=_key(story_id, "sug_items")).click().run()
    [b for b in at.button if b.label == "Accept"][0].click().run()
    [b for b in at.button if b.label == "Edit"][0].click().run()
    assert at.text_area(key=_key(story_id, "question")).value == "What did the fox ask for?"
    at.text_input(key=_key(story_id, "a1")).input("some bread")
    at.button(key=_key(story_id, "save")).click().run()
    assert not _messages(at)

    from qg_studio.data.projects import export_project

    store = Store()
    [export] = export_project(store, store.get_story(story_id).project_id)
    assert [q.row["answer1"] for q in export.story.questions] == ["a fox", "some bread"]
    assert [
        (p["origin"], p["created_by"], p["edited"], p["edited_by"]) for p in export.provenance
    ] == [("engine", "embedded", "no", ""), ("engine", "embedded", "yes", "annotator:annotator")]


def test_editing_a_saved_pair_updates_it_in_place_and_logs_the_editor(story_id):
    store = Store()
    [item_id] = store.add_items(
        story_id,
        [QAItem("Who came to the mill?", ["a fox"], "character", "explicit", sections=[2])],
        actor="fairytaleqa",
    )
    at = _app()
    at.button(key=_key(story_id, "edit_saved")).click().run()
    assert at.text_input(key=_key(story_id, "a1")).value == "a fox"
    at.text_input(key=_key(story_id, "a1")).input("a hungry fox")
    at.selectbox(key=_key(story_id, "element2")).select("feeling")
    at.button(key=_key(story_id, "save")).click().run()
    [item] = Store().list_items(story_id)
    assert item.id == item_id and item.answers == ["a hungry fox"]
    assert item.element2.value == "feeling"
    assert Store().history(story_id, item_id)[-1]["actor"] == "annotator:annotator"


def test_picking_another_project_opens_it(story_id):
    store = Store()
    newer = store.create_project("Newer")
    store.add_story(newer, "Second", "\n\n".join(s.text for s in SECTIONS), SECTIONS)
    older = store.get_story(story_id).project_id
    at = _app()
    assert at.session_state["project_id"] == newer  # the latest project opens first
    labelled(at.selectbox, "Project").select(older).run()
    assert not at.exception
    assert at.session_state["project_id"] == older
    assert labelled(at.selectbox, "Project").value == older
    assert at.text_area(key=_key(story_id, "question"))  # the older story's form
    at.run()
    assert labelled(at.selectbox, "Project").value == older


def test_the_saved_count_is_what_the_export_writes(story_id):
    from qg_studio.data.projects import export_story

    store = Store()
    items = [
        QAItem("Who lived by the river?", ["a miller"], "character", "explicit", sections=[1]),
        QAItem("Who came to the mill?", ["a fox"], "character", "explicit", sections=[2]),
    ]
    ids = store.add_items(story_id, items, actor="teacher")
    store.update_item(ids[1], "teacher", status="dropped")
    at = _app()
    assert not at.exception
    headers = [h.value for h in at.subheader]
    written = export_story(store, store.get_story(story_id)).story.questions
    assert f"Saved QA pairs ({len(written)})" in headers and len(written) == 1
    assert any("1 dropped in Curate" in c.value for c in at.caption)
