"""Writing a story in the FairytaleQA layout, for tests that read one (our own texts).

The question columns are written out here, from the dataset's README, rather than taken
from the code under test: a test of the reader states the layout it expects."""

from __future__ import annotations

import csv
from pathlib import Path

QUESTION_HEADER = [
    "question_id",
    "local-or-sum",
    "cor_section",
    "attribute1",
    "attribute2",
    "question",
    "ex-or-im1",
    "answer1",
    "answer2",
    "answer3",
    "ex-or-im2",
    "answer4",
    "answer5",
    "answer6",
]


def write_story(root: Path, split: str, name: str, sections: list[str], rows: list[dict]) -> None:
    """``sections`` as ``section-stories/<split>/<name>-story.csv`` and ``rows`` (column ->
    value; a column left out is empty) as ``questions/<split>/<name>-questions.csv``."""
    (root / "section-stories" / split).mkdir(parents=True, exist_ok=True)
    (root / "questions" / split).mkdir(parents=True, exist_ok=True)
    story = root / "section-stories" / split / f"{name}-story.csv"
    with open(story, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["section", "text"])
        for i, text in enumerate(sections, 1):
            writer.writerow([i, text])
    questions = root / "questions" / split / f"{name}-questions.csv"
    with open(questions, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(QUESTION_HEADER)
        for row in rows:
            writer.writerow([row.get(column, "") for column in QUESTION_HEADER])


def tiny_split(root: Path, split: str = "train") -> Path:
    """A one-story folder of our own in the FairytaleQA layout, with one expert pair."""
    write_story(
        root,
        split,
        "ant-and-dove",
        [
            "A thirsty ant went to the river to drink. The water swept her away. A dove "
            "dropped a leaf, and the ant floated to the bank.",
            "A hunter aimed his net at the dove. The ant bit his heel, and the dove flew away.",
        ],
        [
            {
                "question_id": "q1",
                "local-or-sum": "local",
                "cor_section": "2",
                "attribute1": "action",
                "question": "What did the ant do to the hunter?",
                "ex-or-im1": "explicit",
                "answer1": "bit his heel",
            }
        ],
    )
    return root
