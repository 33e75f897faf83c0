"""Issue 16's Moodle and game-platform misreadings, each read back as the platform reads it.

The Moodle readers (tests/moodle_readers.py) follow Moodle's own import code; a text
Moodle would misread (a weight, a matching question, markup, a lost question, a dropped
space) fails them.
"""

from __future__ import annotations

import csv
import io
import unicodedata

import openpyxl
import pytest
from moodle_readers import ImportFailed
from moodle_readers import read_aiken
from moodle_readers import read_gift
from moodle_readers import read_moodle_xml
from moodle_readers import right_answers
from moodle_readers import shown
from moodle_readers import wrong_answers

from qg_studio.export import moodle
from qg_studio.export import platforms
from qg_studio.export.quizset import QuizQuestion
from qg_studio.schema import QAItem


def _q(
    question: str, answer: str, options: list[str] | None = None, correct: int = 0, number: int = 1
) -> QuizQuestion:
    item = QAItem(question, [answer], "action", "explicit", sections=[1])
    return QuizQuestion(number, item, question, answer, [answer], list(options or []), correct)


def test_gift_typed_answer_starting_with_a_weight_imports_literally():
    data, _ = moodle.gift([_q("How many of the pigs ran?", "%50% of them")])
    [q] = read_gift(data.decode())
    assert q["type"] == "shortanswer"
    assert right_answers(q) == ["%50% of them"]


def test_gift_wrong_option_starting_with_a_weight_stays_wrong_and_literal():
    data, _ = moodle.gift([_q("How many ran?", "all", ["all", "%50% of them", "none"])])
    [q] = read_gift(data.decode())
    assert right_answers(q) == ["all"] and wrong_answers(q) == ["%50% of them", "none"]


def test_gift_answer_with_an_arrow_is_not_a_matching_question():
    data, report = moodle.gift(
        [_q("Which way did the fox go?", "barn -> woods"), _q("Who ran?", "the fox", number=2)]
    )
    parsed = read_gift(data.decode())  # Moodle aborts the whole file on a matching misread
    assert [q["text"] for q in parsed] == ["Which way did the fox go?", "Who ran?"]
    assert "barn -> woods" in shown(*parsed[0]["feedback"]) + " ".join(right_answers(parsed[0]))


@pytest.mark.parametrize(
    "text",
    ["Was <b>Greta</b> brave?", "Did <script>alert(1)</script> run?", "Is 3 &lt; 4 or 3 < 4?"],
)
def test_gift_question_text_is_plain_text(text):
    data, _ = moodle.gift([_q(text, "yes", ["Yes", "No"])])
    [q] = read_gift(data.decode())
    assert q["format"] == "plain" and shown(q["format"], q["text"]) == text
    assert right_answers(q) == ["Yes"]


@pytest.mark.parametrize(
    "text",
    [
        "T.J. asked: where is the mill?",
        "A.J. ran home. Why?",
        "B)ob said what?",
        "ANSWER: is this a question?",
        "Q",
    ],
)
def test_aiken_question_that_looks_like_an_option_is_kept(text):
    data, _ = moodle.aiken(
        [
            _q(text, "the king", ["the king", "the fox"]),
            _q("Who ran?", "the fox", ["the king", "the fox"], 1, 2),
        ]
    )
    parsed = read_aiken(data.decode())
    assert len(parsed) == 2
    assert parsed[0]["text"].endswith(text) and parsed[0]["answer"] == "the king"
    assert parsed[1]["answer"] == "the fox"


def test_aiken_strict_reader_rejects_what_moodle_loses():
    with pytest.raises(ImportFailed):
        read_aiken("T.J. asked: where?\nA. here\nB. there\nANSWER: A\n")


@pytest.mark.parametrize(
    "text",
    [
        "Which sign is < > here?",
        "Tom & Jerry & Spike?",
        'Say "<" "&" now',
        "Ends in ]]> and <![CDATA[ x",
    ],
)
def test_moodle_xml_keeps_a_space_between_escaped_characters(text):
    data, _ = moodle.moodle_xml([_q(text, "a < b", ["a < b", "x & y"])])
    [q] = read_moodle_xml(data)
    assert q["text"] == text and q["format"] == "plain_text"
    assert [t for f, t in q["answers"] if f == 1.0] == ["a < b"]
    assert [t for f, t in q["answers"] if f == 0.0] == ["x & y"]


def _visible(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


@pytest.mark.parametrize("writer", [platforms.blooket, platforms.gimkit])
def test_csv_formula_guard_is_invisible(writer):
    questions = [
        _q(
            "-the first pig ran where?",
            "-the first pig",
            ["-the first pig", "=1+1", "@home", "+more"],
        )
    ]
    data, _ = writer(questions)
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    cells = [c for row in rows[2:] for c in row if c and not c.isdigit()]
    assert cells
    for cell in cells:
        assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r", "'"), cell
    assert _visible(rows[2][1 if writer is platforms.blooket else 0]) == "-the first pig ran where?"
    assert {_visible(c) for c in cells} >= {"-the first pig", "=1+1", "@home", "+more"}


def _cells(data: bytes, fmt: str) -> list[str]:
    if fmt in ("blooket", "gimkit"):
        rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))[2:]
        return [c for row in rows for c in row]
    wb = openpyxl.load_workbook(io.BytesIO(data))
    first = 9 if fmt == "kahoot" else 2
    return [
        c.value
        for row in wb.active.iter_rows(min_row=first)
        for c in row
        if isinstance(c.value, str)
    ]


@pytest.mark.parametrize("fmt", ["kahoot", "quizizz", "blooket", "gimkit"])
def test_newlines_in_options_never_reach_a_cell(fmt):
    from qg_studio.export import export_story
    from qg_studio.schema import Section

    secs = [Section(1, "The fox ran to the old barn.\nThe king rode to the mill at noon.")]
    items = [
        QAItem(
            "Where did\nthe fox run?", ["to the old\nbarn"], "setting", "explicit", sections=[1]
        ),
        QAItem("Who rode\r\nto the mill?", ["the\rking"], "character", "explicit", sections=[1]),
    ]
    result = export_story(fmt, "T", secs, items)
    cells = _cells(result.data, fmt)
    assert "to the old barn" in cells and "the king" in cells
    assert not [c for c in cells if "\n" in c or "\r" in c]


def test_gift_right_option_with_an_arrow_is_not_written_first():
    """gift-pegjs (checked with 1.0.2) reads a first "=a -> b" as a matching pair."""
    data, _ = moodle.gift([_q("Which way?", "barn -> woods", ["barn -> woods", "home"])])
    [q] = read_gift(data.decode())
    assert q["type"] == "multichoice" and right_answers(q) == ["barn -> woods"]
    first = data.decode().split("{\n\t", 1)[1]
    assert first.startswith("~home")
