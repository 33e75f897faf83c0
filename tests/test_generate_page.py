"""The Generate page through Streamlit's AppTest: request, run, see by section, saved."""

from __future__ import annotations

from pathlib import Path

from page_text import labelled
from streamlit.testing.v1 import AppTest

from qg_studio.pipeline import STORY_LEVEL_ENGINE
from qg_studio.store import Store

APP = str(Path(__file__).parent / "apps" / "generate_page.py")
STORY = Path(__file__).parent / "fixtures" / "lantern_keeper.txt"


def _story_in_store() -> int:
    from qg_studio.story import section_story

    store = Store()
    project = store.create_project("Class 4")
    text = STORY.read_text(encoding="utf-8")
    return store.add_story(project, "The Lantern Keeper", text, section_story(text))


def test_without_a_story_points_to_the_story_page():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception
    assert "Story" in at.info[0].value


def test_generate_saves_items_and_shows_them_by_section():
    story_id = _story_in_store()
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.number_input(key="gen_number").set_value(8)
    at.button(key="generate_go").click().run()
    assert not at.exception
    saved = Store().list_items(story_id)
    assert len(saved) == 8
    assert {Store().created_by(i.id) for i in saved} == {"embedded"}
    assert any("Section 1" in e.label for e in at.expander)
    shown = " ".join(m.value for m in at.markdown)
    assert saved[0].question.split()[-1].rstrip("?") in shown
    assert "-badge[" in shown  # element and explicitness badges


def test_a_custom_mix_is_followed():
    story_id = _story_in_store()
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.toggle(key="gen_balanced").set_value(False).run()
    for key in ("CHARACTER", "SETTING", "ACTION", "FEELING", "CAUSAL", "OUTCOME", "PREDICTION"):
        at.number_input(key=f"gen_mix_{key}").set_value(1 if key in ("FEELING", "SETTING") else 0)
    at.button(key="generate_go").click().run()
    assert not at.exception
    elements = sorted(i.element.value for i in Store().list_items(story_id))
    assert elements == ["feeling", "setting"]


def test_the_request_and_engine_are_saved_with_the_project_for_curate():
    story_id = _story_in_store()
    at = AppTest.from_file(APP, default_timeout=120).run()
    # The default engine is the best one here; with no question model, the embedded one.
    assert at.selectbox(key="gen_engine").value == "auto"
    assert any("built-in question writer" in c.value and "Models" in c.value for c in at.caption)
    at.number_input(key="gen_number").set_value(6)
    at.slider(key="gen_implicit").set_value(0.5)
    at.button(key="generate_go").click().run()
    assert not at.exception
    store = Store()
    settings = store.get_project(store.get_story(story_id).project_id).settings
    assert settings["request"] == {
        "count": 6,
        "per_section": None,
        "elements": "balanced",
        "implicit_share": 0.5,
    }
    assert settings["engine"] == "embedded"
    from qg_studio.ui.pages.curate import requested_counts

    wanted, share = requested_counts(settings, 4)
    assert sum(wanted.values()) == 6 and share == 0.5


def test_a_broken_model_gives_embedded_questions_and_says_so(tmp_path):
    story_id = _story_in_store()
    broken = tmp_path / "half-downloaded"
    broken.mkdir()
    (broken / "config.json").write_text('{"model_type": "t5"}')
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.selectbox(key="gen_engine").set_value("seq2seq").run()
    at.text_input(key="gen_model").set_value(str(broken))
    at.number_input(key="gen_number").set_value(5)
    at.button(key="generate_go").click().run()
    assert not at.exception and not at.error
    assert any("could not run" in w.value and "embedded" in w.value for w in at.warning)
    saved = Store().list_items(story_id)
    assert len(saved) == 5 and {i.engine for i in saved} <= {"embedded", STORY_LEVEL_ENGINE}


def _all_text(at: AppTest) -> str:
    parts = [
        e.value
        for kind in ("markdown", "caption", "info", "warning", "error", "success")
        for e in getattr(at, kind)
    ]
    parts += [e.label for e in at.expander] + [e.help or "" for e in at.selectbox]
    return " ".join(str(p) for p in parts)


def test_a_teacher_reads_no_command_lines_and_is_led_to_curate():
    _story_in_store()
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert "qg-studio" not in _all_text(at) and "pip install" not in _all_text(at)
    at.number_input(key="gen_number").set_value(4)
    at.button(key="generate_go").click().run()
    assert not at.exception
    assert "qg-studio" not in _all_text(at)
    assert at.button(key="generate_next").label == "Next: review the questions"


def test_the_teachers_settings_outlive_a_visit_to_another_page():
    _story_in_store()
    app = str(Path(__file__).parent / "apps" / "generate_or_elsewhere.py")
    at = AppTest.from_file(app, default_timeout=120).run()
    at.number_input(key="gen_number").set_value(6)
    at.slider(key="gen_implicit").set_value(0.5)
    at.checkbox(key="gen_check").uncheck().run()
    at.session_state["elsewhere"] = True  # the teacher visits Curate
    at.run()
    at.session_state["elsewhere"] = False  # and comes back
    at.run()
    assert not at.exception
    assert at.number_input(key="gen_number").value == 6
    assert at.slider(key="gen_implicit").value == 0.5
    assert at.checkbox(key="gen_check").value is False
    # Per section keeps its own number: switching does not ask 6 per section.
    at.radio(key="gen_mode").set_value("Per section").run()
    assert at.number_input(key="gen_per_section").value == 2


def test_a_second_generate_asks_whether_to_add_or_replace_the_unreviewed():
    story_id = _story_in_store()
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert "This story has questions already" not in [
        r.label for r in at.radio
    ]  # nothing saved: nothing to ask
    at.number_input(key="gen_number").set_value(6)
    at.button(key="generate_go").click().run()
    store = Store()
    first = store.list_items(story_id)
    kept, dropped = first[0], first[1]
    store.update_item(kept.id, "teacher", status="kept")
    store.update_item(dropped.id, "teacher", status="dropped")
    at.run()
    choice = labelled(at.radio, "This story has questions already")
    assert "Add new questions to the 6" in choice.options[0]
    choice.set_value("replace")
    at.number_input(key="gen_number").set_value(4)
    at.button(key="generate_go").click().run()
    assert not at.exception
    after = Store().list_items(story_id)
    ids = {i.id for i in after}
    assert {kept.id, dropped.id} <= ids  # the teacher's decisions stay
    assert not ids & {i.id for i in first[2:]}  # the four not reviewed were replaced
    assert len(after) == 2 + 4
    # One undo takes the whole second generate back.
    undone = Store().undo(story_id, actor="teacher")
    assert undone["label"] == "generated 4 questions in place of 4 not reviewed"
    assert {i.id for i in Store().list_items(story_id)} == {i.id for i in first}


def test_the_mix_asked_for_is_whole_questions():
    from qg_studio.mix import whole_counts
    from qg_studio.schema import GenerationRequest

    counts = whole_counts(GenerationRequest(count=10), 3)
    assert sum(counts.values()) == 10 and set(counts.values()) == {1, 2}
    custom = whole_counts(GenerationRequest(count=None, elements={"feeling": 2, "action": 1}), 3)
    assert {e.value: n for e, n in custom.items()} == {"feeling": 2, "action": 1}


def test_the_mix_chart_names_its_two_bars():
    # Its legend read "undefined": the bars were coloured by a column the data lacked.
    from qg_studio.schema import QAItem
    from qg_studio.ui.pages.generate import mix_chart

    items = [QAItem("Who?", ["Ann"], "character", "explicit")]
    spec = mix_chart(items, {"character": 1.0, "feeling": 1.0}).to_dict()
    rows = next(iter(spec["datasets"].values()))
    field = spec["encoding"]["color"]["field"]
    assert {row[field] for row in rows} == {"requested", "generated"}
    written = {r["element"]: r["questions"] for r in rows if r[field] == "generated"}
    assert written["character"] == 1 and written["feeling"] == 0
