"""Feeling questions get the feeling, not the deed that shows it."""

import pytest

from qg_studio.answering.feeling import feeling_answer
from qg_studio.answering.feeling import is_feeling_question


@pytest.mark.parametrize(
    "span, feeling",
    [
        ("trembled", "scared"),
        ("screamed", "scared"),
        ("weeping", "sad"),
        ("angrily", "angry"),
        ("wild with rage", "angry"),
        ("laughter", "happy"),
    ],
)
def test_a_shown_feeling_becomes_the_feeling(span, feeling):
    assert feeling_answer("How did the geese feel when they saw the fox?", span) == feeling


@pytest.mark.parametrize(
    "span",
    [
        "delighted",
        "more than pleased",
        "joy",
        "sorrow",
        "astonishment",
        "the King's Palace",
        "frowned",  # anger, worry or puzzlement: no one feeling every reader would name
    ],
)
def test_a_named_feeling_or_no_feeling_is_left_alone(span):
    assert feeling_answer("How did the King feel?", span) is None


def test_only_feeling_questions_are_touched():
    assert feeling_answer("What did the trolls do when they saw the wolves?", "screamed") is None
    assert is_feeling_question("How did Mira feel about the owl?")
    assert is_feeling_question("What were the queen's feelings?")
    assert not is_feeling_question("How did Mira cross the river?")


def test_a_long_span_is_an_event_not_a_feeling():
    span = 'silly child!" cried the miller. "Do you think I want a lantern'
    assert feeling_answer("How did the miller feel when Elsa handed him the lantern?", span) is None
