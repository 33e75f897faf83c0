"""The Ask page through Streamlit's AppTest: one answerer that works, answers shown as text."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from qg_studio.schema import Section
from qg_studio.store import Store
from qg_studio.ui.text import JOINER

APP = str(Path(__file__).parent / "apps" / "ask_page.py")
PAYLOAD = "![t](http://127.0.0.1:9/x.png) <b>bold</b>"
SECTIONS = [
    Section(
        1,
        "Nell kept three brown hens behind the bakery. Every morning she "
        "gave them the crumbs from the bread.",
    ),
    Section(
        2,
        "One night a storm blew the roof off the hen house, so Nell carried "
        "the hens into her kitchen and sang to them until they slept.",
    ),
]


def _story(title: str = "Nell and the Hens") -> int:
    store = Store()
    project = store.create_project("Ask test")
    return store.add_story(project, title, "\n\n".join(s.text for s in SECTIONS), SECTIONS)


def _text(at: AppTest) -> str:
    parts = [
        e.value
        for kind in ("markdown", "caption", "info", "warning", "error", "success", "subheader")
        for e in getattr(at, kind)
    ]
    return " ".join(str(p) for p in parts)


def test_the_page_offers_no_answerer_that_would_fail_and_answers():
    _story()
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    assert not [s for s in at.selectbox if s.label == "Answerer"]
    at.text_input(key="ask_question").input("Why did Nell carry the hens into her kitchen?")
    at.button[0].click().run()
    assert not at.exception and not at.error
    answer = at.subheader[0].value.replace("\\", "").replace(JOINER, "")
    assert answer and answer in SECTIONS[1].text  # a span of the section it is about
    assert "qg-studio" not in _text(at)


def test_a_markdown_title_and_question_are_shown_as_typed():
    _story(PAYLOAD)
    at = AppTest.from_file(APP, default_timeout=120).run()
    caption = at.caption[0].value
    assert "\\!\\[t\\]\\(http" in caption and "\\<b\\>" in caption  # escaped, not an image
    shown = caption.replace("\\", "").replace(JOINER, "")
    assert shown.startswith(PAYLOAD)


def test_an_answer_in_other_words_is_never_called_stated_in_the_text():
    from qg_studio.schema import Section
    from qg_studio.services.answers import answer_and_label

    sections = [
        Section(1, "Tam found a lamb in the snow. He carried it home to his mother."),
        Section(2, "She wrapped it in a blanket. In spring he gave it back to the shepherd."),
    ]
    result = answer_and_label("How does the story end?", sections)
    assert result.answers
    stated = any(
        a.lower().rstrip(".") in " ".join(s.text.lower() for s in sections) for a in result.answers
    )
    assert result.explicit == stated  # "stated in the text" only for the text's own words
