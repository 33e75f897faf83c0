"""``eval sets``: each set is asked of the story on its own, then the custom mix again
after the default set, whose repeats of the default set are counted. The story and the
questions are the project's own."""

from __future__ import annotations

from qg_studio.answering import Answer
from qg_studio.schema import AnswerKind
from qg_studio.schema import Evidence
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.set_eval import CUSTOM_REQUEST
from qg_studio.set_eval import DEFAULT_REQUEST
from qg_studio.set_eval import SetFigures
from qg_studio.set_eval import measure_story

STORY = (
    "Wren the baker lived above her shop at the end of Mill Lane. Every morning she "
    "baked twelve round loaves before the sun came up. One winter night the oven went "
    "cold, and Wren could not light it again. She knocked at the smith's door and asked "
    "for a coal. The smith gave her a glowing coal in an iron pot. Wren carried it home "
    "through the snow and lit her oven. By morning the loaves were warm, and the whole "
    "lane came to buy bread. "
) * 2


def _item(question: str, answer: str, element: str, explicitness: str = "explicit") -> QAItem:
    start = STORY.index(answer)
    return QAItem(
        question,
        [answer],
        element,
        explicitness,
        evidence=[Evidence(1, start, start + len(answer), answer)],
        sections=[1],
    )


DEFAULT_SET = [
    _item("Where did Wren live?", "above her shop", "setting"),
    _item("What did Wren bake every morning?", "twelve round loaves", "action"),
    _item("What did the smith give Wren?", "a glowing coal", "action"),
    _item("How did Wren get the coal home?", "through the snow", "action", "implicit"),
]
CUSTOM_SET = [
    _item("Who gave Wren a coal?", "The smith", "character"),
    _item("Who came to buy bread?", "the whole lane", "outcome resolution"),
]


class _Reader:
    """Answers each question with its key's answer, except the ones it cannot."""

    def __init__(self, cannot: set[str]):
        self.cannot = cannot

    def answer(self, questions, sections, section_ids, title=""):
        keys = {i.question: i.answer for i in DEFAULT_SET + CUSTOM_SET}
        return [
            Answer(["nobody" if q in self.cannot else keys[q]], AnswerKind.EXTRACTIVE)
            for q in questions
        ]


def test_each_set_is_asked_on_its_own_and_the_second_run_counts_its_repeats():
    calls = []

    def generate(sections, request, existing):
        calls.append((request, list(existing)))
        if request is DEFAULT_REQUEST:
            return DEFAULT_SET
        if not existing:
            return CUSTOM_SET
        # Asked again after the default set: one new question and one repeat.
        return [CUSTOM_SET[0], _item("Where did Wren live?", "above her shop", "setting")]

    figures = SetFigures()
    sections = [Section(1, STORY)]
    made = measure_story("wren", sections, generate, _Reader({"Who came to buy bread?"}), figures)
    assert [(r, e) for r, e in calls] == [
        (DEFAULT_REQUEST, []),
        (CUSTOM_REQUEST, []),
        (CUSTOM_REQUEST, DEFAULT_SET),
    ]
    result = figures.result(1)
    assert len(made) == 3
    assert (result["asked"], result["given"]) == (20, 6)
    assert result["duplicate_share"] == 0.0
    assert result["answerable"] == round(5 / 6, 4)
    assert result["answerable_section_level"] == round(5 / 6, 4)  # none is story-level
    assert result["second_run"] == {"asked": 10, "given": 2, "repeats": 1}
    assert figures.short_stories == ["wren"]
    # The one the reader could not answer is named, for --show to mark.
    assert figures.unanswered == ["wren: Who came to buy bread?"]
