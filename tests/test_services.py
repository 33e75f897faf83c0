"""The use cases the pages and the commands share (qg_studio.services)."""

from __future__ import annotations

import json

from qg_studio.cli import main
from qg_studio.schema import Scope
from qg_studio.schema import Section
from qg_studio.services.answers import answer_and_label

SECTIONS = [
    Section(
        1,
        "Pim the baker rose before the sun. She baked twelve round loaves "
        "and set them on the windowsill to cool.",
    ),
    Section(
        2,
        "A crow stole the smallest loaf. Pim laughed and baked another one, "
        "because the crow had hungry chicks in the old oak.",
    ),
]


class _Broken:
    def answer(self, *args, **kwargs):
        raise RuntimeError("no checkpoint")


def test_a_typed_answer_is_kept_located_and_scoped_to_its_section():
    result = answer_and_label("What did Pim bake?", SECTIONS, typed_answer="twelve round loaves")
    assert result.answers == ["twelve round loaves"]
    assert [(e.section, e.text) for e in result.evidence] == [(1, "twelve round loaves")]
    assert result.sections == [1] and result.scope is Scope.LOCAL
    item = result.to_item("teacher")
    assert item.answers == ["twelve round loaves"] and item.sections == [1]


def test_an_answerer_that_fails_keeps_the_question_with_a_note():
    result = answer_and_label("Why did Pim bake another loaf?", SECTIONS, [2], answerer=_Broken())
    assert result.answerer_failed and "no checkpoint" in result.notes[0]
    assert result.sections == [2] and not result.answers
    assert result.to_item("teacher").question == "Why did Pim bake another loaf?"


def test_a_question_about_two_sections_is_a_summary_question():
    result = answer_and_label(
        "What happened to the loaves?",
        SECTIONS,
        [1, 2],
        typed_answer="a crow stole one",
        label=False,
    )
    assert result.sections == [1, 2] and result.scope is Scope.SUMMARY


def test_section_and_generate_count_the_same_words(tmp_path, capsys):
    story = tmp_path / "pim.txt"
    story.write_text(
        "Pim and the Crow\n\n" + "\n\n".join(s.text for s in SECTIONS) * 3, encoding="utf-8"
    )
    assert main(["section", str(story), "--json"]) == 0
    sectioned = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert main(["generate", str(story), "--count", "1", "--json"]) == 0
    generated = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert sectioned["story"] == generated["story"]
    assert [s["text"] for s in sectioned["sections"]] == [s["text"] for s in generated["sections"]]
