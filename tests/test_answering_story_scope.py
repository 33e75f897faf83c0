"""Questions a passage cannot answer: about the whole story, and predictions.

"How does the story end?" typed in Ask, or asked by a story-level item of a set, is
answered from the story as a whole by every answerer; "What will the ferryman do after
…?" by what that character does next, not by whatever happens next."""

from __future__ import annotations

from pathlib import Path

import pytest

from qg_studio.answering.extractive import ExtractiveAnswerer
from qg_studio.answering.story_scope import story_question
from qg_studio.schema import AnswerKind
from qg_studio.schema import Section

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def answerers(tmp_path_factory):
    """The sentence-matching fallback and the shipped span model: both must read the
    whole story for a whole-story question."""
    return [ExtractiveAnswerer(model_dir=tmp_path_factory.mktemp("no-model")), ExtractiveAnswerer()]


@pytest.fixture(scope="module")
def snail():
    from qg_studio.story import section_story

    text = (FIXTURES / "fable_snail_hares.txt").read_text(encoding="utf-8")
    return section_story(text)


@pytest.mark.parametrize(
    "question, kind",
    [
        ("Who is the main character of the story?", "who"),
        ("Who are the two main characters of the story?", "who"),
        ("Who is this story mostly about?", "who"),
        ("Where does this story take place?", "where"),
        ("How does the fable end?", "end"),
        ("What lesson does the story teach?", "lesson"),
        ("What is the moral of this story?", "lesson"),
        ("Who is the main character's friend?", None),
        ("Where did the Snail live?", None),
        ("How did the Hare end up in the net?", None),
        ("What important thing happened one hot afternoon?", "turn"),
        ("What important thing happened to the smallest Hare?", None),
    ],
)
def test_a_whole_story_question_is_told_from_a_passage_question(question, kind):
    assert story_question(question) == kind


def test_whole_story_questions_are_answered_from_the_whole_story(answerers, snail):
    questions = [
        "What is the moral of this story?",
        "How does the story end?",
        "Who are the main characters of the story?",
        "Where does this story take place?",
    ]
    for answerer in answerers:
        moral, end, who, where = answerer.answer(questions, snail)
        assert moral.answers == ["Being slow is no shame, and a small friend can do a great deed"]
        assert moral.answer_kind is AnswerKind.ABSTRACTIVE and not moral.explicit
        # The last event, not the moral after it nor the passage that says "end".
        assert "walked beside the Snail all the way to the oak tree" in end.answers[0]
        assert "Snail" in who.answers[0] and "Hare" in who.answers[0]
        assert "Millbrook Farm" in where.answers[0]
        for reply in (moral, end, who, where):
            section = next(s for s in snail if s.id == reply.evidence[0].section)
            ev = reply.evidence[0]
            assert section.text[ev.start : ev.end] == ev.text
            assert reply.confidence >= 0.4, "a reading of the whole story is not a guess"


def test_a_passage_question_still_goes_to_the_span_reader(answerers, snail):
    reply = answerers[1].answer(["What did the Snail nibble through?"], snail)[0]
    assert reply.answers == ["the strings"]
    assert reply.note != "read from the whole story"


# After the moment, someone else acts first; the question names the ferryman.
HARBOUR = (
    "The ferryman rowed the goat across the wide river and left her on the far bank. "
    "A storm came over the hills that evening. The goat ran to the ferryman's hut and "
    "hid behind the ferryman's nets. Then the ferryman tied his boat to the old oak."
)


def test_a_prediction_is_answered_by_what_that_character_does_next(answerers):
    question = "What will the ferryman do after a storm came over the hills?"
    for answerer in answerers:
        reply = answerer.answer([question], [Section(1, HARBOUR)])[0]
        assert "tied his boat to the old oak" in reply.answers[0]
        assert reply.answer_kind is AnswerKind.ABSTRACTIVE and not reply.explicit
        assert "the ferryman tied his boat" in reply.evidence[0].text


def test_a_prediction_asked_where_a_section_ends_is_answered_by_the_next_section(answerers):
    sections = [
        Section(
            1, "The ferryman rowed the goat across the wide river. A storm came over the hills."
        ),
        Section(2, "The ferryman tied his boat to the old oak. The goat slept in the barn."),
    ]
    question = "What will the ferryman do after a storm came over the hills?"
    for answerer in answerers:
        reply = answerer.answer([question], sections)[0]
        assert "tied his boat to the old oak" in reply.answers[0]
        assert reply.evidence[0].section == 2


def test_a_next_section_opening_on_he_answers_a_prediction_about_him(answerers):
    # The key was written reading "He" as the ferryman the section before ended on; the
    # reader of the answer key reads it the same way.
    sections = [
        Section(1, "The ferryman rowed the goat across the river. A storm came over the hills."),
        Section(2, "He tied his boat to the old oak. The goat slept in the barn."),
    ]
    question = "What will the ferryman do after a storm came over the hills?"
    for answerer in answerers:
        reply = answerer.answer([question], sections)[0]
        assert reply.answers[0].startswith("the ferryman tied his boat to the old oak")
        assert reply.evidence[0].section == 2
