"""A question must not say a character did what the story tells of another (a misread
"he", or a model's confusion): the pipeline drops it, whatever engine wrote it."""

from __future__ import annotations

import pytest

from qg_studio.pipeline import told_as_the_story_tells
from qg_studio.reading.analysis import analyse_each
from qg_studio.reading.analysis import analyse_many
from qg_studio.reading.deeds import doers
from qg_studio.reading.deeds import misattributed
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Section

STORY = (
    "The Badger dug a tunnel under the hedge. The Rabbit watched him from the long grass. "
    "Then the Fox chased the Rabbit across the field, and the Rabbit hid in the tunnel. "
    "Later the Rabbit was thanked by the Badger's mother."
)


@pytest.fixture(scope="module")
def told():
    return doers(analyse_many([STORY]))


@pytest.mark.parametrize(
    "question, doer",
    [
        ("Why did the Badger chase the Rabbit?", "fox"),
        ("Why did the Rabbit dig a tunnel under the hedge?", "badger"),
        ("Where did the Fox hide?", "rabbit"),
    ],
)
def test_a_deed_given_to_the_wrong_character_is_caught(told, question, doer):
    assert misattributed(analyse_each([question])[0], told) == doer


@pytest.mark.parametrize(
    "question",
    [
        "Why did the Fox chase the Rabbit?",  # as told
        "What did the Rabbit do when the Fox chased her?",  # her: the question's own pronoun
        "Who dug a tunnel under the hedge?",  # "who" names no one
        "Why did the Wolf chase the Rabbit?",  # not in the story: another check's business
        "Why did the Rabbit run to the tunnel?",  # a verb the story never tells of anyone
        "Why did the Badger's mother thank the Rabbit?",  # the story tells it in the passive
    ],
)
def test_what_the_story_does_not_contradict_is_kept(told, question):
    assert misattributed(analyse_each([question])[0], told) is None


def _item(question: str, answer: str = "an answer") -> QAItem:
    return QAItem(
        question=question,
        answers=[answer],
        element=Element.CAUSAL,
        explicitness=Explicitness.IMPLICIT,
        sections=[1],
    )


def test_the_pipeline_drops_the_misattributed_candidates():
    items = [
        _item("Why did the Badger chase the Rabbit?"),
        _item("Why did the Fox chase the Rabbit?"),
    ]
    kept = told_as_the_story_tells(items, [Section(1, STORY)])
    assert [i.question for i in kept] == ["Why did the Fox chase the Rabbit?"]


def test_a_deed_only_a_speech_tells_of_i_or_you_holds_no_one_to_it():
    # '"Why do you light it?" … "I have lit one ever since," she said': the two lit it
    told = {"light": {"you", "i"}, "keep": {"badger"}, "ask": {"rabbit"}}
    question = analyse_each(["Why did the Badger light the lamp?"])[0]
    assert misattributed(question, told) is None
    assert misattributed(analyse_each(["Why did the Rabbit keep a lamp?"])[0], told) == "badger"
