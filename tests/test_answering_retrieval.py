"""Finding the section a question is about in a story the teacher did not annotate."""

from __future__ import annotations

import pytest
from answering_story import SECTIONS_TEXT
from answering_story import story_sections

from qg_studio.answering.extractive import ExtractiveAnswerer
from qg_studio.answering.retrieval import choose_sections
from qg_studio.answering.retrieval import rank_sections
from qg_studio.answering.retrieval import retrieve
from qg_studio.answering.retrieval import sentences
from qg_studio.schema import Section
from qg_studio.text.words import content_words

FILLER = (
    "The wind moved over the fields and the farmers worked from dawn until the light "
    "faded. Children carried water from the well, the baker sold bread in the lane, and "
    "the river ran slowly past the mill where the miller counted his sacks of flour. "
)


def long_story() -> list[Section]:
    """Twenty sections, ~1,800 words: the five story sections hidden among filler."""
    texts = []
    for i, text in enumerate(SECTIONS_TEXT):
        texts += [FILLER * 2, text, FILLER * 2, FILLER] if i % 2 == 0 else [text]
    texts += [FILLER * 2] * (20 - len(texts))
    return [Section(id=i + 1, text=t) for i, t in enumerate(texts[:20])]


def section_of(sections, phrase: str) -> int:
    (hit,) = [s.id for s in sections if phrase in s.text]
    return hit


@pytest.mark.parametrize(
    "question, phrase",
    [
        ("What did the old woman press into Lina's hand?", "pressed a silver key"),
        ("What was sleeping around the great lamp?", "dragon made of glass lay sleeping"),
        ("Where did the storm come from?", "storm came from the west"),
        ("Who became the keeper of the lighthouse?", "keeper of the lighthouse"),
        ("What colour was the fisherman's cottage?", "blue cottage"),
    ],
)
def test_retrieval_finds_the_only_section_with_the_answer(question, phrase):
    sections = long_story()
    assert sum(s.words for s in sections) > 1500
    ranking = rank_sections([question], sections)[0]
    assert ranking[0][0] == section_of(sections, phrase)
    assert [sid for sid, _ in ranking] == sorted(
        (sid for sid, _ in ranking), key=lambda s: -dict(ranking)[s]
    )


def test_answer_on_a_long_story_comes_from_the_right_section(tmp_path):
    sections = long_story()
    answerer = ExtractiveAnswerer(model_dir=tmp_path)  # the retrieval path, without a model
    reply = answerer.answer(["What did the old woman press into Lina's hand?"], sections)[0]
    home = section_of(sections, "pressed a silver key")
    assert home in reply.sections
    assert reply.evidence[0].section == home and "silver key" in reply.answers[0]


def test_second_section_joins_only_when_close():
    assert choose_sections([(3, 0.9), (4, 0.88), (1, 0.2)]) == [3, 4]
    assert choose_sections([(3, 0.9), (4, 0.5)]) == [3]
    assert choose_sections([]) == []
    # Best first: the reply's first section is the one retrieval trusts most
    # (eval qa's retrieval accuracy reads it).
    assert choose_sections([(7, 0.9), (2, 0.88)]) == [7, 2]


def test_batch_retrieval_keeps_question_order():
    sections = story_sections()
    ids = retrieve(
        ["Who shone in the storm to guide Tomas home?", "What did the mayor declare?"],
        sections,
        max_sections=1,
    )
    assert ids == [[4], [5]]


def test_sentences_and_content_words():
    text = 'He ran. "Stop!" she cried. Then all was quiet'
    spans = sentences(text)
    assert [text[a:b] for a, b in spans] == [
        "He ran.",
        '"Stop!" she cried.',  # speech stays with its tag
        "Then all was quiet",
    ]
    assert content_words("The dragons were glowing") == ["dragon", "glow"]
