"""A question is put together as English puts one: after "did", "does" or "do" the verb is
bare, and so is every verb "and" joins to it. Our own questions; the forms a past shares
with its bare verb ("put", "set") and verbs of other clauses stand."""

from __future__ import annotations

import pytest

from qg_studio.reading.analysis import analyse_each
from qg_studio.reading.question_form import misformed

MISFORMED = [
    "Why did the Crow tumbled down the hill and run away into the forest?",
    "Why did the bear ran away?",
    "What did the Magpie hid in her nest?",
    "Why did the old woman light a candle and then lit the lamp again?",
    "What does the Owl keeps in the hollow oak?",
]

WELL_FORMED = [
    "What did the fox do after he saw the hen?",  # "saw" is in a clause of its own
    "Why did the Goat lower her horns?",
    "How did the Mole feel when he could not fly?",
    "What did the Baker put into the oven?",  # "put" is bare and past alike
    "Why did the Hare set off before dawn?",
    "Why did the tired Badger lay down his spade?",
    "What did the king give the boy who had found the ring?",
    "Who helped the Mouse?",  # no "did" to follow
    "Why was the Lion so angry?",
]


@pytest.mark.parametrize("question", MISFORMED)
def test_a_verb_not_bare_after_do_is_faulted(question):
    assert misformed(analyse_each([question])[0]) is not None


@pytest.mark.parametrize("question", WELL_FORMED)
def test_a_well_formed_question_stands(question):
    assert misformed(analyse_each([question])[0]) is None


def test_the_pipeline_leaves_a_misformed_question_out():
    from qg_studio.pipeline import told_as_the_story_tells
    from qg_studio.schema import Element
    from qg_studio.schema import Explicitness
    from qg_studio.schema import QAItem
    from qg_studio.schema import Section

    story = "The bear ran away when the bees came out of the hollow tree."
    items = [
        QAItem(
            question=q,
            answers=["the bees came out"],
            element=Element.CAUSAL,
            explicitness=Explicitness.EXPLICIT,
            sections=[1],
        )
        for q in ("Why did the bear ran away?", "Why did the bear run away?")
    ]
    kept = told_as_the_story_tells(items, [Section(1, story)])
    assert [i.question for i in kept] == ["Why did the bear run away?"]
