"""The Curate page through Streamlit's AppTest: every edit is saved at once, with history."""

from __future__ import annotations

from pathlib import Path

import pytest
from export_story import STORY
from export_story import items
from export_story import sections
from page_text import labelled
from streamlit.testing.v1 import AppTest

from qg_studio.store import Store
from qg_studio.ui.pages.curate import apply_table_edits
from qg_studio.ui.pages.curate import highlight
from qg_studio.ui.pages.curate import parse_answers

APP = str(Path(__file__).parent / "apps" / "curate_page.py")


@pytest.fixture
def seeded():
    secs = sections()
    with Store() as store:
        project = store.create_project("Year 3", {"request": {"count": 7, "implicit_share": 0.3}})
        story = store.add_story(project, "Greta", "\n\n".join(STORY), secs)
        ids = store.add_items(story, items(secs), actor="embedded")
    return story, ids


def _app() -> AppTest:
    return AppTest.from_file(APP, default_timeout=90).run()


def _picker(at):
    return labelled(at.selectbox, "Question to review")


def _metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def test_summary_and_detail_edits_are_saved_with_history(seeded):
    story, ids = seeded
    at = _app()
    assert not at.exception
    assert _metric(at, "Questions") == "6" and _metric(at, "Unreviewed") == "1"
    at.radio(key=next(r.key for r in at.radio if r.key.startswith("curate_status_"))).set_value(
        "dropped"
    ).run()
    at.text_input(
        key=next(t.key for t in at.text_input if t.key.startswith("curate_question_"))
    ).input("Who rode past the old mill?").run()
    assert not at.exception
    with Store() as store:
        first = store.get_item(ids[0])
        assert first.status.value == "dropped" and first.question == "Who rode past the old mill?"
        edits = [h for h in store.history(story, ids[0]) if h["action"] == "edit"]
        assert [h["actor"] for h in edits] == ["teacher", "teacher"]
        assert edits[1]["before"] == {"question": "Who rode past the mill?"}
    assert _metric(at, "Questions") == "5"
    # a fresh session (a reopened tab) shows the edits
    again = _app()
    assert any(o.startswith("1. Who rode past the old mill?") for o in _picker(again).options)


def test_empty_question_is_refused_and_undo_restores(seeded):
    story, ids = seeded
    at = _app()
    key = next(t.key for t in at.text_input if t.key.startswith("curate_question_"))
    at.text_input(key=key).input("   ").run()
    assert any("cannot be empty" in w.value for w in at.warning)
    with Store() as store:
        assert store.get_item(ids[0]).question == "Who rode past the mill?"
    element = next(s.key for s in at.selectbox if s.key.startswith("curate_element_"))
    at.selectbox(key=element).set_value("setting").run()
    with Store() as store:
        assert store.get_item(ids[0]).element.value == "setting"
    at.button(key="curate_undo").click().run()
    assert not at.exception
    with Store() as store:
        assert store.get_item(ids[0]).element.value == "character"
    # the widget shows the restored value, not the undone one
    element = next(s.key for s in at.selectbox if s.key.startswith("curate_element_"))
    assert at.selectbox(key=element).value == "character"
    # the message names the question whose edit was undone
    shown = [m.value.replace("\\", "") for m in at.success]  # as the reader sees it
    assert "Undid your edit of “Who rode past the mill?”." in shown


def test_history_names_changes_in_plain_words(seeded):
    story, ids = seeded
    at = _app()
    element = next(s.key for s in at.selectbox if s.key.startswith("curate_element_"))
    at.selectbox(key=element).set_value("setting").run()
    history = at.dataframe[-1].value
    assert list(history.columns) == ["Who", "What", "#", "Question", "Changed"]
    first = history.iloc[0]
    assert first["What"] == "edited" and first["Changed"] == "narrative element"
    assert first["Question"] == "Who rode past the mill?"
    assert "added" in set(history["What"]) and "create" not in set(history["What"])


def test_add_by_hand_is_tagged_and_kept(seeded):
    story, ids = seeded
    at = _app()
    at.text_input(key="curate_new_question").input("Where did the king take Greta?")
    at.text_input(key="curate_new_answer").input("to the castle")
    at.multiselect(key="curate_new_sections").set_value([2])
    at.button(
        key=next(
            b.key
            for b in at.button
            if "FormSubmitter" in (b.key or "") or b.label == "Add question"
        )
    ).click().run()
    assert not at.exception
    with Store() as store:
        added = store.list_items(story)[-1]
    assert added.question == "Where did the king take Greta?"
    assert added.answers == ["to the castle"] and added.sections == [2]
    assert added.status.value == "kept" and added.engine == "teacher"
    assert added.element.value == "setting"  # from the tagger, not the manual default
    assert added.evidence and added.evidence[0].text == "to the castle"
    assert any("Added" in s.value for s in at.success)
    assert _picker(at).value == added.id


def test_filters_narrow_the_list(seeded):
    at = _app()
    at.multiselect(key="curate_f_element").set_value(["feeling"]).run()
    assert [o.split(". ", 1)[1] for o in _picker(at).options] == ["How did Greta feel in the room?"]


def test_table_edits_are_validated_and_saved(seeded):
    story, ids = seeded
    with Store() as store:
        shown = store.list_items(story)
        problems = apply_table_edits(
            store,
            story,
            shown,
            {
                0: {"Answers": "the king | King Otto", "Sections": "1, 2"},
                1: {"Question": ""},
                2: {"Sections": "9"},
                3: {"#": 1, "Status": "kept"},
            },
            [1, 2],
        )
        after = {i.id: i for i in store.list_items(story)}
        order = [i.id for i in store.list_items(story)]
    assert after[ids[0]].answers == ["the king", "King Otto"] and after[ids[0]].sections == [1, 2]
    assert after[ids[1]].question == "Where did the miller live?"
    assert after[ids[2]].sections == [2]
    assert order[0] == ids[3] and after[ids[3]].status.value == "kept"
    assert len(problems) == 2 and "cannot be empty" in problems[0]


def test_evidence_highlight_escapes_html():
    secs = sections(["The <b>king</b> rode past the mill."])
    marked = highlight(secs[0], [], "rode past the mill")
    assert "<mark>rode past the mill</mark>" in marked and "&lt;b&gt;" in marked
    assert parse_answers("a | b\nc") == ["a", "b", "c"]


@pytest.mark.slow  # loads the answering model (~15 s on a shared 2-core machine)
def test_add_by_hand_without_answer_asks_the_answerer(seeded):
    story, ids = seeded
    at = _app()
    at.text_input(key="curate_new_question").input("Who locked Greta in a room full of straw?")
    at.button(key=next(b.key for b in at.button if b.label == "Add question")).click().run()
    assert not at.exception
    with Store() as store:
        added = store.list_items(story)[-1]
    assert added.question == "Who locked Greta in a room full of straw?"
    assert added.answers and added.answers[0].strip()  # the answerer's reply
    assert any("answered by" in s.value or "no answerer" in s.value for s in at.success)


def test_regenerate_a_section_keeps_kept_questions(seeded):
    story, ids = seeded
    with Store() as store:
        before = store.list_items(story)
    kept_in_2 = [i.id for i in before if 2 in i.sections and i.status.value == "kept"]
    unkept_in_2 = [i.id for i in before if 2 in i.sections and i.status.value != "kept"]
    at = _app()
    at.selectbox(key="curate_regen_section").set_value(2)
    at.button(key="curate_regen").click().run()
    assert not at.exception
    with Store() as store:
        after = store.list_items(story)
    ids_after = {i.id for i in after}
    assert set(kept_in_2) <= ids_after and not set(unkept_in_2) & ids_after
    fresh = [i for i in after if i.id not in {b.id for b in before}]
    assert fresh and all(i.sections == [2] for i in fresh)
    assert {i.id for i in before if 2 not in i.sections} <= ids_after


def test_wrong_options_are_shown_and_edited_before_any_quiz(seeded):
    story, ids = seeded
    at = _app()
    key = next(t.key for t in at.text_area if t.key.startswith("curate_distractors_"))
    suggested = at.text_area(key=key).value.splitlines()
    assert len(suggested) == 3 and "the king" not in [s.lower() for s in suggested]
    with Store() as store:
        assert store.get_item(ids[0]).distractors == []  # shown, not yet the teacher's
    at.text_area(key=key).input("the miller\nthe King\na shepherd").run()
    assert not at.exception
    with Store() as store:
        assert store.get_item(ids[0]).distractors == ["the miller", "the King", "a shepherd"]
    # A right answer typed as a wrong option is pointed out.
    assert any("is also an answer" in w.value for w in at.warning)


def test_every_question_shows_its_mark_first_and_the_sure_ones_are_kept_in_one_action():
    from qg_studio.schema import QAItem
    from qg_studio.ui.curate_fields import table

    secs = sections()
    sure = QAItem(
        "Who came at midnight?",
        ["a little man"],
        "character",
        "explicit",
        sections=[2],
        scores={"confidence": 0.9, "answerability": 1.0},
    )
    doubtful = QAItem(
        "Why was the king happy?",
        ["the straw was gold"],
        "causal relationship",
        "implicit",
        sections=[2],
        scores={"confidence": 0.9, "answerability": 0.05},
    )
    with Store() as store:
        project = store.create_project("Marks")
        story = store.add_story(project, "Greta", "\n\n".join(STORY), secs)
        store.add_items(story, [sure, doubtful], actor="embedded")
        saved = store.list_items(story)
    # The mark is the column a teacher reads first, its reason the last.
    frame = table(saved, {item.id: n for n, item in enumerate(saved, 1)})
    assert list(frame.columns)[:3] == ["#", "Mark", "Status"]
    # An implicit answer the span answerer does not find is to check, not wrong: the
    # answerer agrees little with a paraphrase even when it is right.
    assert list(frame["Mark"]) == ["✓ sure", "? check this"]
    assert "another answer" in frame["Why"][1]
    at = _app()
    assert not at.exception
    button = at.button(key="curate_keep_sure")
    assert "Keep the 1 not reviewed that are marked sure" in button.label
    button.click().run()
    assert not at.exception
    with Store() as store:
        assert [i.status.value for i in store.list_items(story)] == ["kept", "unreviewed"]
        undone = store.undo(story, actor="teacher")
        assert undone["label"] == "kept 1 questions marked sure"
        assert [i.status.value for i in store.list_items(story)] == ["unreviewed"] * 2


def test_a_new_answer_moves_the_highlight_to_where_the_story_says_it(seeded):
    from qg_studio.services.curation import edit_item

    story, ids = seeded
    with Store() as store:
        item = store.get_item(ids[0])
        assert item.evidence and "the king" in item.evidence[0].text
        moved = edit_item(store, story, ids[0], "teacher", answers=["the miller"])
        assert moved.evidence[0].text.lower() == "the miller"  # where the story says it
        gone = edit_item(store, story, ids[0], "teacher", answers=["a dragon"])
        assert gone.evidence == []  # the story does not say it: nothing is highlighted
