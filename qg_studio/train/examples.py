"""Training examples from a folder in the FairytaleQA layout, for every recipe.

The dataset, or the project's own exports of curated items: train and val stories
(:func:`load_splits`), each expert pair with an answer and its cor_sections' text
(:func:`expert_pairs`), and the seq2seq recipe's inputs and targets for question
generation (:func:`qg_pairs`) and unified QA (:func:`qa_pairs`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Sequence

from qg_studio.answer_kind import YESNO_ANSWER
from qg_studio.answer_kind import answer_kind
from qg_studio.data.fairytaleqa import FtqaStory
from qg_studio.data.fairytaleqa import read_split
from qg_studio.data.question_rows import FtqaQuestion
from qg_studio.models.prompts import answer_window
from qg_studio.models.prompts import qa_input
from qg_studio.models.prompts import qa_target
from qg_studio.models.prompts import qg_input
from qg_studio.schema import AnswerKind
from qg_studio.schema import QAItem
from qg_studio.schema import section_texts

YES_NO = {"yes", "no"}


@dataclass
class Pair:
    source: str
    target: str
    references: list[str] = field(default_factory=list)  # what val ROUGE-L is scored against
    kind: str = ""


def expert_pairs(
    stories: Sequence[FtqaStory], with_question: bool = True
) -> Iterator[tuple[FtqaQuestion, QAItem, str]]:
    """(the expert's row, it as an item, the text of its cor_sections) for each pair that
    has an answer and a text (and, ``with_question``, a question)."""
    for story in stories:
        for q in story.questions:
            context = section_texts(story.sections, q.sections)
            if not context.strip() or not q.answers:
                continue
            if with_question and not q.row.get("question", "").strip():
                continue
            yield q, q.to_item(), context


def qg_pairs(
    stories: Sequence[FtqaStory], fmt: str = "qg-control", context_words: int | None = None
) -> list[Pair]:
    pairs = []
    for q, item, context in expert_pairs(stories):
        context = answer_window(context, q.answers[0], context_words)
        pairs.append(
            Pair(
                qg_input(context, item.element, item.explicitness, q.answers[0], fmt=fmt),
                item.question.strip(),
                [item.question.strip()],
                f"{item.element.value}/{item.explicitness.value}",
            )
        )
    return pairs


def qa_pairs(
    stories: Sequence[FtqaStory], fmt: str = "storyqa", context_words: int | None = None
) -> list[Pair]:
    # context_words is accepted for a uniform call but unused: at answering time the
    # answer is unknown, so a window around it could not be rebuilt.
    pairs = []
    for q, item, context in expert_pairs(stories, with_question=False):
        kind = answer_kind(answer=q.answers[0], explicitness=item.explicitness)
        target = (
            YESNO_ANSWER.match(q.answers[0]).group(1).lower()
            if kind is AnswerKind.YESNO
            else qa_target(q.answers[0])
        )
        refs = [a for a in (q.answers[0], *(q.second_answers[:1])) if a.strip()]
        pairs.append(
            Pair(qa_input(item.question, context, kind, fmt=fmt), target, refs, kind.value)
        )
    return pairs


def load_splits(
    data: str | Path, train_split: str = "train", val_split: str = "val", val_share: float = 0.1
) -> tuple[list[FtqaStory], list[FtqaStory]]:
    """Train and val stories; a folder without a val split (an export) gives up every
    tenth story to val, so early stopping and the card's figure are still held out."""
    root = Path(data)
    train = read_split(root, train_split)
    if (root / "section-stories" / val_split).is_dir():
        return train, read_split(root, val_split)
    if len(train) < 2:
        return train, []
    step = max(2, round(1 / val_share)) if val_share > 0 else len(train) + 1
    held = {i for i in range(len(train)) if i % step == step - 1} or {len(train) - 1}
    return (
        [s for i, s in enumerate(train) if i not in held],
        [s for i, s in enumerate(train) if i in held],
    )
