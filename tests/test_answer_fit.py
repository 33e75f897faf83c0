"""A key of another kind than its question asks is wrong whatever the story says: no
feeling for "how did … feel", someone for "where", a place for "who". Our own sentences;
the keys a child could give stay, feelings the word lists do not hold among them."""

from __future__ import annotations

import pytest

from qg_studio.reading.analysis import analyse_each
from qg_studio.reading.answer_fit import misfit
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Section

WRONG_KIND = [
    ("How did the old willow feel when the water rose?", "heavy rain", "feeling"),
    ("How did the miller feel?", "The room was dark", "feeling"),
    ("How will the Hare feel when the race is over?", "the meadow", "feeling"),
    ("Where did the young Bear find a hollow tree?", "a young Bear", "where"),
    ("Where did the hen live?", "the old Farmer", "where"),
    ("Where did the geese rest?", "on the roof, cold and wet, and their wings ached", "event"),
    ("Who lived by the river?", "by the river", "who"),
    ("Who did the fox meet at dawn?", "the forest", "who"),
]

RIGHT_KIND = [
    ("How did the Badger feel after the bees flew home?", "thankful"),
    ("How did the Pigeon feel?", "very cold and tired"),
    ("How will the fox feel when he sees the hen?", "He will be full of joy"),
    ("How did the miller feel?", "he wept"),
    ("How do you think Tom felt?", "angry because his kite broke"),
    # Feelings the lexicon does not list are not taken for wrong keys.
    ("How did the goose feel when the gate slammed?", "startled"),
    ("How did the people feel about the old judge?", "respect"),
    ("How did the Beaver feel about the storm?", "a deep dread"),
    ("Where did the Bear hide?", "the river"),
    ("Where did the Bear hide?", "in the Badger's den"),
    ("Where did the hen go?", "to her sister"),
    ("Where did the Mouse stop before going home?", "the Baker's"),
    ("Where did the traveller rest?", "Brindlewick"),  # a name may be a town's
    ("Who lived by the river?", "an old Otter"),
    ("Who lived in the cottage?", "an oil lamp"),  # a fable's lamp speaks
    ("Who came to the door?", "the Baker from the village"),
    ("Why did the Bear run?", "the bees stung him"),
    ("What did the Crow drop?", "the cheese"),
]


@pytest.mark.parametrize("question,answer,kind", WRONG_KIND)
def test_a_key_of_another_kind_is_faulted(question, answer, kind):
    why = misfit(question, analyse_each([answer])[0])
    assert why is not None and kind in why


@pytest.mark.parametrize("question,answer", RIGHT_KIND)
def test_a_key_a_child_could_give_stands(question, answer):
    assert misfit(question, analyse_each([answer])[0]) is None


def test_the_pipeline_leaves_out_a_key_of_another_kind():
    from qg_studio.pipeline import told_as_the_story_tells

    story = "An old willow stood by the pond. One night heavy rain fell, and the willow shook."

    def item(question: str, answer: str) -> QAItem:
        return QAItem(
            question=question,
            answers=[answer],
            element=Element.FEELING,
            explicitness=Explicitness.IMPLICIT,
            sections=[1],
        )

    kept = told_as_the_story_tells(
        [
            item("How did the willow feel when the rain fell?", "heavy rain"),
            item("How did the willow feel when the rain fell?", "afraid"),
        ],
        [Section(1, story)],
    )
    assert [i.answer for i in kept] == ["afraid"]


RESTATED = [
    ("Why did the miller not open the gate?", "The miller did not open the gate"),
    ("Why did the geese fly to the lake?", "The geese flew to the lake"),
    ("Why was the little goat sad?", "He was sad"),
    ("Why did Tomas never see the comet?", "He never saw the comet"),
]
TELLS_SOMETHING = [
    # the same words turned round are a reason
    ("Why did the heron help the frog?", "The frog had helped the heron before"),
    ("Why did the miller not open the gate?", "The miller was asleep"),
    # a small word may be the whole reason
    ("Why did the fox walk home without a lamp?", "He had no lamp"),
    # a name all of whose words the question holds answers it
    ("Who did Mrs. Alder's son buy the kettle for?", "Mrs. Alder"),
]


@pytest.mark.parametrize("question,answer", RESTATED)
def test_a_key_that_says_its_question_again_is_faulted(question, answer):
    from qg_studio.reading.answer_fit import restated

    q, a = analyse_each([question, answer])
    assert restated(q, a) is not None


@pytest.mark.parametrize("question,answer", TELLS_SOMETHING)
def test_a_key_that_tells_something_new_stands(question, answer):
    from qg_studio.reading.answer_fit import restated

    q, a = analyse_each([question, answer])
    assert restated(q, a) is None


def test_a_who_question_keyed_with_its_own_subject_is_faulted():
    from qg_studio.reading.answer_fit import asked_of_itself

    def fault(question, answer):
        return asked_of_itself(*analyse_each([question, answer]))

    assert fault("Who did the baker buy the flour from?", "the baker") is not None
    # another of the same kind, or who someone is, stand
    assert fault("Who did the boy see by the river?", "a tall boy") is None
    assert fault("Who was the cleverest hen?", "Henny the hen") is None
    assert fault("Who did the baker buy the flour from?", "the miller") is None
    # nor with the one it asks about by the name the story gives
    story = "By the mill lived a grey cat named Pell. A young cat called Rue lived there too."
    q, a = analyse_each(["Who did Pell live with?", "a grey cat"])
    assert asked_of_itself(q, a, story) is not None
    q, a = analyse_each(["Who did Pell live with?", "a young cat"])
    assert asked_of_itself(q, a, story) is None
