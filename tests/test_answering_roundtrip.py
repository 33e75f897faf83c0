"""Round trip: an item whose intended answer the answerer cannot find scores low."""

from __future__ import annotations

import pytest
from answering_story import story_sections

from qg_studio.answering import Answer
from qg_studio.answering.extractive import DEFAULT_MODEL_DIR
from qg_studio.answering.extractive import ExtractiveAnswerer
from qg_studio.answering.extractive import model_present
from qg_studio.answering.roundtrip import ANSWERABILITY_FLOOR
from qg_studio.answering.roundtrip import agreement
from qg_studio.answering.roundtrip import flagged
from qg_studio.answering.roundtrip import score_answerability
from qg_studio.schema import AnswerKind
from qg_studio.schema import Evidence
from qg_studio.schema import QAItem


def _items() -> list[QAItem]:
    return [
        QAItem(
            "What did the old woman press into Lina's hand?",
            ["a silver key"],
            "action",
            "explicit",
            sections=[2],
        ),
        # Keyed wrongly: the story never says the dragon was made of ice.
        QAItem(
            "What was the dragon made of?",
            ["ice and snow from the mountains"],
            "character",
            "explicit",
            sections=[3],
        ),
        QAItem(
            "Did Lina give the old woman her warm coat?",
            ["yes"],
            "action",
            "implicit",
            answer_kind=AnswerKind.YESNO,
            sections=[2],
        ),
        QAItem(
            "Did Tomas come home during the storm?",
            ["yes"],
            "action",
            "implicit",
            answer_kind=AnswerKind.YESNO,
            sections=[4],
        ),
    ]


class _Scripted:
    """An answerer that replies from a script: isolates the scoring from any model."""

    name = "scripted"

    def __init__(self, replies):
        self.replies = replies
        self.calls = []

    def answer(self, questions, sections, section_ids=None):
        self.calls.append((list(questions), section_ids))
        return [
            Answer([self.replies[q]], AnswerKind.EXTRACTIVE, [Evidence(1, 0, 1, "x")])
            for q in questions
        ]


def test_agreement():
    assert agreement("a silver key", "the silver key") > 0.6
    assert agreement("golden light", "ice and snow") == 0.0
    assert agreement("No. Tomas did not come home.", "yes", yesno=True) == 0.0
    assert agreement("Yes. She gave her coat.", "Yes, she did", yesno=True) == 1.0


def test_scores_are_stored_and_low_ones_flagged():
    items = _items()[:2]
    answerer = _Scripted({items[0].question: "a silver key", items[1].question: "glass"})
    score_answerability(items, story_sections(), answerer)
    assert answerer.calls[0][1] == [[2], [3]]  # the item's own sections are used
    assert items[0].scores.answerability == 1.0
    assert items[1].scores.answerability == 0.0
    assert flagged(items) == [items[1]]


def test_items_without_question_or_answer_are_left_unscored():
    items = [QAItem("", ["x"], "action", "explicit"), QAItem("Who?", [], "action", "explicit")]
    score_answerability(items, story_sections(), _Scripted({}))
    assert all(it.scores.answerability is None for it in items)
    assert flagged(items) == []


def test_round_trip_with_the_fallback_answerer(tmp_path):
    items = _items()
    score_answerability(items, story_sections(), ExtractiveAnswerer(model_dir=tmp_path))
    good, wrong, yes_ok, yes_wrong = (it.scores.answerability for it in items)
    assert wrong < ANSWERABILITY_FLOOR < good
    assert yes_ok == 1.0 and yes_wrong == 0.0
    assert flagged(items) == [items[1], items[3]]


@pytest.mark.skipif(
    not model_present(DEFAULT_MODEL_DIR), reason="models/qa-extractive has not been trained yet"
)
def test_round_trip_with_the_shipped_model():
    items = _items()[:2]
    score_answerability(items, story_sections(), ExtractiveAnswerer())
    assert items[0].scores.answerability >= 0.8
    assert items[1].scores.answerability < ANSWERABILITY_FLOOR
