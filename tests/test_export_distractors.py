"""Distractors are of the answer's own type, from the story first, never the answer itself;
and nothing written to a spreadsheet is a formula."""

from __future__ import annotations

import openpyxl
from export_story import items
from export_story import sections

from qg_studio.export.distractors import FEELING_WORDS
from qg_studio.export.distractors import DistractorFinder
from qg_studio.export.distractors import same_answer
from qg_studio.export.safety import csv_cell
from qg_studio.export.safety import write_cell
from qg_studio.schema import QAItem
from qg_studio.schema import Section


def _find(question, answer, element, secs=None, **kw):
    secs = secs or sections()
    item = QAItem(question, [answer], element, "explicit", sections=[1, 2], **kw)
    return DistractorFinder(secs).find(item)


def test_character_answer_gets_other_characters_of_the_story():
    found = _find("Who rode past the mill?", "the king", "character")
    assert found.kind == "character" and len(found.options) == 3 and found.from_story == 3
    story = " ".join(sections()[i].text.lower() for i in range(2))
    assert all(o.lower().split()[-1] in story for o in found.options)
    assert not any("king" in o.lower() for o in found.options)


def test_place_answer_keeps_its_preposition_and_takes_story_places():
    found = _find("Where did the miller live?", "near the dark forest", "setting")
    assert found.kind == "place"
    assert all(o.startswith("near ") for o in found.options)
    assert "near the castle" in found.options


def test_feeling_distractors_are_other_feelings_never_synonyms():
    found = _find("How did Greta feel?", "frightened", "feeling")
    assert found.kind == "feeling" and len(found.options) == 3
    groups = {FEELING_WORDS[o] for o in found.options}
    assert FEELING_WORDS["frightened"] not in groups and len(groups) == 3
    assert {"proud", "happy"} <= set(found.options)  # the story's own feelings first
    assert not {"scared", "afraid", "terrified"} & set(found.options)


def test_yes_no_and_clause_answers():
    assert _find("Was the miller proud?", "yes", "character", answer_kind="yesno").options == ["No"]
    found = _find(
        "Why did the little man spin the straw?",
        "because she gave him her necklace",
        "causal relationship",
    )
    assert found.kind == "phrase" and len(found.options) == 3
    assert all(o.startswith("because ") for o in found.options)
    assert not any("necklace" in o for o in found.options)


def test_never_the_right_answer_in_disguise():
    secs = [
        Section(
            1,
            "The King walked home. The king was tired. A king is a king. "
            "The old king sat with the queen and the miller in the castle.",
        )
    ]
    found = _find("Who sat in the castle?", "the king", "character", secs)
    assert not any("king" in o.lower() for o in found.options)
    assert same_answer("The King.", "the king")
    assert same_answer("the old king", "king")
    assert same_answer("glad", "happy")
    assert not same_answer("the queen", "the king")
    # second annotator's answers count as right answers too
    item = QAItem(
        "Who helped?",
        ["the miller"],
        "character",
        "explicit",
        sections=[1],
        second_answers=["the queen"],
    )
    options = DistractorFinder(secs).find(item).options
    assert not any("queen" in o.lower() or "miller" in o.lower() for o in options)


def test_distractors_are_the_same_every_time():
    secs = sections()
    first = [DistractorFinder(secs).find(i).options for i in items(secs)]
    again = [DistractorFinder(secs).find(i).options for i in items(secs)]
    assert first == again


def test_csv_cells_are_never_formulas():
    # The guard is an invisible ZERO WIDTH SPACE (issue 16: an apostrophe shows on Blooket).
    for value, expected in [
        ("=1+1", "\u200b=1+1"),
        ("+1", "\u200b+1"),
        ("-5 coins", "\u200b-5 coins"),
        ("@SUM(A1)", "\u200b@SUM(A1)"),
        ("\t=cmd", "\u200b=cmd"),
        ("\r\n+x", "\u200b+x"),
        (" =1", "\u200b=1"),
        ("plain", "plain"),
        ("a=b", "a=b"),
        ("😀 שלום", "😀 שלום"),
    ]:
        assert csv_cell(value) == expected


def test_workbook_cells_are_text_even_when_they_look_like_formulas(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    values = ['=HYPERLINK("http://x","y")', "+1", "@SUM(A1)", "-2", "bell\x07 and\x00 nul"]
    for row, value in enumerate(values, start=1):
        write_cell(ws, row, 1, value)
    write_cell(ws, 6, 1, 42)
    wb.save(tmp_path / "t.xlsx")
    back = openpyxl.load_workbook(tmp_path / "t.xlsx").active
    assert [back.cell(r, 1).value for r in range(1, 5)] == values[:4]
    assert all(back.cell(r, 1).data_type == "s" for r in range(1, 6))
    assert back.cell(5, 1).value == "bell and nul"  # characters a workbook cannot hold
    assert back.cell(6, 1).value == 42 and back.cell(6, 1).data_type == "n"


def test_the_quiz_gives_the_wrong_options_curate_showed_or_the_teachers_own():
    from qg_studio.export.quizset import prepare
    from qg_studio.services.exports import quiz_options

    secs = sections()
    item = items(secs)[0]  # "Who rode past the mill?" - "the king"
    shown = quiz_options(item, secs)
    quiz = prepare([item], secs)[0]
    assert len(shown) == 3 and sorted(quiz.options) == sorted(shown + ["the king"])
    # The teacher's options win; one that is a right answer never reaches the quiz.
    item.distractors = ["the miller", "The King", "a shepherd"]
    assert quiz_options(item, secs) == ["the miller", "a shepherd"]
    quiz = prepare([item], secs)[0]
    assert sorted(quiz.options) == ["a shepherd", "the king", "the miller"]
    assert quiz.options[quiz.correct] == "the king"
    assert quiz_options(items(secs)[4], secs) == []  # yes/no: Yes and No


class _Reader:
    """An answerer that replies one fixed span to every question (what a model read)."""

    def __init__(self, reply: str):
        self.reply = reply

    def answer(self, questions, sections, scopes=None):
        from qg_studio.answering import Answer

        return [Answer([self.reply], "extractive") for _ in questions]


def test_an_option_the_answerer_gives_is_never_offered_as_wrong():
    from qg_studio.export import export_story
    from qg_studio.export.quizset import prepare

    secs = sections()
    item = QAItem("Who rode past the mill?", ["the king"], "character", "explicit", sections=[1, 2])
    bare = prepare([item], secs)[0]
    wrong = [o for n, o in enumerate(bare.options) if n != bare.correct]
    # The story has a second right answer the key does not list; the answerer finds it.
    reader = _Reader(f"{wrong[0]} rode past it at noon")
    checked = prepare([item], secs, answerer=reader)[0]
    assert wrong[0] not in checked.options and len(checked.options) == len(bare.options)
    data = export_story("gimkit", "T", secs, [item], answerer=reader).data.decode("utf-8-sig")
    assert wrong[0] not in data and "the king" in data


def test_a_reply_agrees_with_an_option_by_its_content_words_not_its_articles():
    from qg_studio.export.distractors import is_true

    assert not is_true("the queen", "the king")  # "the" is no agreement
    assert not is_true("on the hill", "on the boat")
    assert is_true("walked quietly on", "he walked quietly on through the wood")
    assert is_true("the old miller", "The Miller")
