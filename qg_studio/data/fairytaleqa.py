"""Read folders in the FairytaleQA layout (see the dataset's README).

    questions/<split>/<story>-questions.csv
    section-stories/<split>/<story>-story.csv

Rows keep every column as the string the file holds, so that writing them back
reproduces the files; :meth:`FtqaQuestion.to_item` turns a row into a QAItem.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from qg_studio.schema import AnswerKind, QAItem, Section

QUESTION_COLUMNS = ["question_id", "local-or-sum", "cor_section", "ex-or-im1", "attribute1",
                    "attribute2", "question", "answer1", "answer2", "answer3", "ex-or-im2",
                    "answer4", "answer5", "answer6"]


@dataclass
class FtqaQuestion:
    row: dict[str, str]

    @property
    def sections(self) -> list[int]:
        return [int(s) for s in self.row["cor_section"].replace(" ", "").split(",") if s]

    @property
    def answers(self) -> list[str]:
        return [self.row[f"answer{i}"] for i in (1, 2, 3) if self.row.get(f"answer{i}")]

    @property
    def second_answers(self) -> list[str]:
        return [self.row[f"answer{i}"] for i in (4, 5, 6) if self.row.get(f"answer{i}")]

    def to_item(self) -> QAItem:
        return QAItem(
            question=self.row["question"], answers=self.answers,
            element=self.row["attribute1"], element2=self.row.get("attribute2") or None,
            explicitness=self.row["ex-or-im1"], scope=self.row["local-or-sum"],
            answer_kind=AnswerKind.EXTRACTIVE if self.row["ex-or-im1"] == "explicit"
            else AnswerKind.ABSTRACTIVE,
            sections=self.sections, engine="expert")


@dataclass
class FtqaStory:
    name: str
    sections: list[Section]
    questions: list[FtqaQuestion] = field(default_factory=list)


def story_names(root: str | Path, split: str) -> list[str]:
    folder = Path(root) / "section-stories" / split
    if not folder.is_dir():
        raise FileNotFoundError(f"no FairytaleQA stories at {folder}")
    return sorted(p.name[: -len("-story.csv")] for p in folder.glob("*-story.csv"))


def read_story(root: str | Path, split: str, name: str) -> FtqaStory:
    root = Path(root)
    with open(root / "section-stories" / split / f"{name}-story.csv", encoding="utf-8",
              newline="") as fh:
        sections = [Section(id=int(r["section"]), text=r["text"]) for r in csv.DictReader(fh)]
    questions: list[FtqaQuestion] = []
    qpath = root / "questions" / split / f"{name}-questions.csv"
    if qpath.exists():
        with open(qpath, encoding="utf-8", newline="") as fh:
            questions = [FtqaQuestion(dict(r)) for r in csv.DictReader(fh)]
    return FtqaStory(name=name, sections=sections, questions=questions)


def read_split(root: str | Path, split: str) -> list[FtqaStory]:
    return [read_story(root, split, name) for name in story_names(root, split)]
