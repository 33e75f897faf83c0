"""The CPU answerer: shipped model, fallback, answer kinds, yes/no and awkward questions."""

from __future__ import annotations

import pytest
from answering_story import story_sections
from answering_story import tiny_span_model

from qg_studio.answer_kind import answer_kind
from qg_studio.answering import Answer
from qg_studio.answering import Answerer
from qg_studio.answering import QuestionError
from qg_studio.answering import get_answerer
from qg_studio.answering.extractive import DEFAULT_MODEL_DIR
from qg_studio.answering.extractive import ExtractiveAnswerer
from qg_studio.answering.extractive import model_present
from qg_studio.answering.kind import is_question
from qg_studio.answering.kind import yes_or_no
from qg_studio.answering.kind import yesno_reply
from qg_studio.schema import AnswerKind
from qg_studio.schema import Section


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    return tiny_span_model(tmp_path_factory.mktemp("tiny-span"))


@pytest.fixture(scope="module")
def fallback(tmp_path_factory):
    return ExtractiveAnswerer(model_dir=tmp_path_factory.mktemp("empty-model-dir"))


def _check_evidence(answer: Answer, sections) -> None:
    by_id = {s.id: s for s in sections}
    assert answer.evidence, "every reply points at the text it came from"
    for ev in answer.evidence:
        assert ev.section in answer.sections
        assert by_id[ev.section].text[ev.start : ev.end] == ev.text


# --------------------------------------------------------------- shipped model


@pytest.mark.skipif(
    not model_present(DEFAULT_MODEL_DIR), reason="models/qa-extractive has not been trained yet"
)
def test_shipped_model_loads_offline_and_finds_the_span(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    answerer = get_answerer("extractive")
    assert isinstance(answerer, Answerer)
    assert not answerer.fallback, answerer.load_error
    sections = story_sections()
    replies = answerer.answer(
        ["What did the old woman press into Lina's hand?", "Who was Lina's father?"],
        sections,
        [[2], [1]],
    )
    assert "silver key" in replies[0].answers[0].lower()
    assert "tomas" in replies[1].answers[0].lower()
    assert replies[0].answer_kind is AnswerKind.EXTRACTIVE and replies[0].explicit
    assert replies[0].note == ""
    for reply in replies:
        _check_evidence(reply, sections)


# --------------------------------------------------------------- fallback


def test_missing_model_falls_back_to_a_sentence_and_says_so(fallback):
    assert fallback.fallback
    sections = story_sections()
    reply = fallback.answer(["What did the old woman give Lina?"], sections, [[2]])[0]
    assert "fallback" in reply.note and "lower quality" in reply.note
    assert "silver key" in reply.answers[0]
    assert 0.0 <= reply.confidence <= 0.5  # a fallback never claims high confidence
    _check_evidence(reply, sections)


def test_broken_model_folder_falls_back_instead_of_failing(tmp_path):
    (tmp_path / "config.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "model.safetensors").write_bytes(b"junk")
    answerer = ExtractiveAnswerer(model_dir=tmp_path)
    assert answerer.fallback and answerer.load_error
    reply = answerer.answer(["Where did Tomas live?"], story_sections())[0]
    assert reply.answers[0] and "fallback" in reply.note


# --------------------------------------------------------------- model path (tiny model)


def test_model_path_gives_valid_spans_in_batches(tiny_model):
    answerer = ExtractiveAnswerer(model_dir=tiny_model)
    assert not answerer.fallback, answerer.load_error
    sections = story_sections()
    questions = [
        "Who was Tomas?",
        "What did the dragon do in the storm?",
        "Where was the lighthouse?",
    ]
    replies = answerer.answer(questions, sections, [[1], [3, 4], None])
    assert len(replies) == 3
    assert replies[1].sections == [3, 4]
    for reply in replies:
        assert reply.engine == "extractive" and reply.answers[0]
        assert 0.0 <= reply.confidence <= 1.0
        _check_evidence(reply, sections)


def test_unknown_section_ids_fall_back_to_retrieval(tiny_model):
    answerer = ExtractiveAnswerer(model_dir=tiny_model)
    reply = answerer.answer(["Who gave Lina a key?"], story_sections(), [[99]])[0]
    assert reply.sections and all(1 <= s <= 5 for s in reply.sections)


# --------------------------------------------------------------- awkward questions


@pytest.mark.parametrize("question", ["", "   ", "\n"])
def test_empty_question_is_a_clear_error(fallback, question):
    with pytest.raises(QuestionError, match="empty"):
        fallback.answer([question], story_sections())


def test_story_without_text_is_a_clear_error(fallback):
    with pytest.raises(QuestionError, match="no text"):
        fallback.answer(["Who?"], [])


def test_very_long_question_is_answered(tiny_model):
    answerer = ExtractiveAnswerer(model_dir=tiny_model)
    question = "Why did Lina run to the lighthouse " + "during the terrible storm " * 400 + "?"
    reply = answerer.answer([question], story_sections())[0]
    assert reply.answers[0]
    _check_evidence(reply, story_sections())


def test_a_statement_is_answered_as_a_search_and_noted(fallback):
    reply = fallback.answer(["the glass dragon in the lighthouse"], story_sections())[0]
    assert "not read as a question" in reply.note
    assert "dragon" in reply.answers[0].lower()


# --------------------------------------------------------------- kinds and yes/no


@pytest.mark.parametrize(
    "question, kind",
    [
        ("Who lived by the sea?", AnswerKind.EXTRACTIVE),
        ("Why did Tomas not come home?", AnswerKind.EXTRACTIVE),
        ("Did Lina help the old woman?", AnswerKind.YESNO),
        ("Was the dragon asleep?", AnswerKind.YESNO),
        ("Is the lamp young or old?", AnswerKind.EXTRACTIVE),
        ("What will happen to the dragon next?", AnswerKind.ABSTRACTIVE),
        ("How will Lina feel when her father is home?", AnswerKind.ABSTRACTIVE),
        ("Why do you think the old woman chose Lina?", AnswerKind.ABSTRACTIVE),
    ],
)
def test_answer_kind(question, kind):
    assert answer_kind(question) is kind


def test_is_question():
    assert is_question("Who was Tomas?")
    assert is_question("why did the dragon glow")
    assert not is_question("The dragon glowed.")


def test_yes_no_polarity_from_the_evidence():
    assert (
        yes_or_no(
            "Did Lina give the old woman her coat?", "Lina gave the old woman her warm coat."
        )[0]
        is True
    )
    assert yes_or_no("Did Tomas come home?", "Tomas did not come home.")[0] is False
    assert yes_or_no("Did the mayor sing a song?", "The waves grew as tall as houses.")[0] is False
    reply, confidence = yesno_reply(
        "Was the dragon made of glass?", "Inside lay a dragon made of glass."
    )
    assert reply.startswith("Yes. ") and "dragon made of glass" in reply
    assert 0.5 <= confidence <= 1.0


def test_yes_no_question_gets_yes_or_no_with_a_justification(fallback):
    sections = story_sections()
    replies = fallback.answer(
        ["Did Tomas come home during the storm?", "Did Lina give the old woman her warm coat?"],
        sections,
    )
    assert replies[0].answer_kind is AnswerKind.YESNO
    assert replies[0].answers[0].startswith("No. ")
    assert replies[1].answers[0].startswith("Yes. ")
    assert "coat" in replies[1].answers[0]
    for reply in replies:
        assert not reply.explicit  # "yes" is not a span of the text
        _check_evidence(reply, sections)


def test_abstractive_question_is_flagged_not_in_text(fallback):
    reply = fallback.answer(["What will the dragon do next winter?"], story_sections())[0]
    assert reply.answer_kind is AnswerKind.ABSTRACTIVE and not reply.explicit
    assert "not stated" in reply.note


def test_only_the_windows_sharing_the_question_words_are_read(tiny_model):
    """A long context is cut into windows; the model reads those nearest the question."""
    answerer = ExtractiveAnswerer(model_dir=tiny_model, max_length=64, stride=16, max_windows=1)
    sections = story_sections()
    reply = answerer.answer(
        ["What did the mayor declare at the gathering on the cliff?"], sections, [[1, 2, 3, 4, 5]]
    )[0]
    assert reply.sections == [1, 2, 3, 4, 5]
    assert reply.evidence[0].section == 5
    _check_evidence(reply, sections)


# --------------------------------------------------------------- predictions

FERRY = (
    "The ferryman rowed the goat across the wide river. The goat jumped onto the bank and "
    "thanked him. A storm came over the hills that evening. The ferryman tied his boat to "
    "the old oak and ran to his hut. The goat sheltered under a rock until morning."
)


@pytest.mark.parametrize(
    "question, moment, told",
    [
        (
            "What will the goat do after she reached the bank?",
            "she reached the bank",
            "What did the goat do?",
        ),
        (
            "What do you think the ferryman will do when the storm comes?",
            "the storm comes",
            "What did the ferryman do?",
        ),
        (
            "What will happen to the goat after the storm?",
            "the storm",
            "What happened to the goat?",
        ),
    ],
)
def test_a_prediction_question_is_read_as_what_the_story_tells_next(question, moment, told):
    from qg_studio.answering.prediction import read_prediction

    read = read_prediction(question)
    assert (read.moment, read.told) == (moment, told)


def test_not_every_question_is_a_prediction():
    from qg_studio.answering.prediction import read_prediction

    assert read_prediction("What did the goat do after she reached the bank?") is None
    assert read_prediction("Will the goat cross the river?") is None


def test_the_answer_to_a_prediction_comes_after_its_moment(fallback):
    from qg_studio.answering.prediction import following_span

    start, end = following_span(FERRY, "a storm came over the hills")
    assert FERRY[start:].startswith("The ferryman tied his boat")
    # Even the sentence-matching fallback reads on from the moment, not the moment itself.
    question = "What will the ferryman do after a storm came over the hills?"
    reply = fallback.answer([question], [Section(1, FERRY)])[0]
    assert reply.evidence[0].start >= start
    assert "tied his boat" in reply.answers[0]
