"""The kept items made ready for a quiz platform: choices, open questions, limits.

Every quiz writer starts from :func:`prepare`: it decides per item whether it is a
multiple-choice question (with distractors from :mod:`qg_studio.export.distractors` and
the right answer at a fixed, spread-out position) or an open one, and it shortens text
to a platform's limits while recording what it shortened, so the writers stay small.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import Any
from typing import Sequence

from qg_studio import toml as tomllib
from qg_studio.export.distractor_words import same_answer
from qg_studio.export.distractors import DistractorFinder
from qg_studio.export.distractors import Distractors
from qg_studio.export.distractors import answer_position
from qg_studio.export.safety import one_line
from qg_studio.paths import shipped
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.schema import Section

TEMPLATES = shipped("templates")


@lru_cache(maxsize=4)
def quiz_settings(path: str | None = None) -> dict[str, Any]:
    file = Path(path) if path else TEMPLATES / "quizzes.toml"
    with open(file, "rb") as handle:
        return tomllib.load(handle)


@dataclass
class QuizQuestion:
    number: int
    item: QAItem
    question: str
    answer: str
    accepted: list[str]  # every right answer (first = ``answer``)
    options: list[str] = field(default_factory=list)  # empty for an open question
    correct: int = 0  # index of the right answer in ``options``
    kind: str = ""  # the answer's type, as distractors saw it

    @property
    def is_open(self) -> bool:
        return not self.options

    @property
    def typed(self) -> bool:
        """A short open answer a platform can match as typed."""
        limit = quiz_settings()["common"]["typed_answer_words"]
        return self.is_open and bool(self.answer) and len(self.answer.split()) <= limit


@dataclass
class ExportReport:
    """What a teacher must know about an export: what was shortened and what was left out."""

    format: str
    written: int = 0
    shortened: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def warnings(self) -> list[str]:
        out: list[str] = []
        if self.shortened:
            out.append(
                f"{len(self.shortened)} text(s) shortened to fit {self.format}: "
                + "; ".join(self.shortened)
            )
        if self.skipped:
            out.append(
                f"{len(self.skipped)} question(s) skipped in {self.format}: "
                + "; ".join(self.skipped)
            )
        return out + self.notes

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "written": self.written,
            "shortened": self.shortened,
            "skipped": self.skipped,
            "notes": self.notes,
        }


def exportable(items: Sequence[QAItem], kept_only: bool = False) -> list[QAItem]:
    """Items a teacher exports: never dropped ones; with ``kept_only`` only kept ones."""
    if kept_only:
        return [i for i in items if i.status == ReviewStatus.KEPT]
    return [i for i in items if i.status != ReviewStatus.DROPPED]


def prepare(
    items: Sequence[QAItem],
    sections: Sequence[Section],
    choices: bool = True,
    answerer=None,
) -> list[QuizQuestion]:
    """Number the items and give each its options (``choices=False``: all open). With an
    ``answerer``, no wrong option is one it gives for the question either."""
    settings = quiz_settings()["common"]
    finder = DistractorFinder(sections, answerer) if choices else None
    out: list[QuizQuestion] = []
    for number, item in enumerate(items, start=1):
        # Every text on one line: a line break in an option would reach a quiz cell.
        accepted = [one_line(a) for a in item.answers if one_line(a)]
        answer = quiz_key(accepted, settings["open_answer_words"])
        question = QuizQuestion(number, item, one_line(item.question), answer, accepted)
        long_answer = len(answer.split()) > settings["open_answer_words"]
        if finder is not None and answer and not long_answer:
            found = wrong_options(item, finder, settings["distractors"])
            question.kind = found.kind
            needed = 1 if found.kind == "yesno" else settings["distractors"]
            if item.distractors and found.options:
                needed = len(found.options)  # the teacher's choice, even of fewer
            if found.kind == "yesno":
                # Yes/No in a fixed order reads better than a shuffled pair.
                question.options = ["Yes", "No"]
                question.correct = 0 if answer.lower().startswith("yes") else 1
            elif len(found.options) >= needed:
                options = [one_line(o) for o in found.options[:needed]]
                position = answer_position(item.question, len(options) + 1)
                options.insert(position, answer)
                question.options, question.correct = options, position
        out.append(question)
    return out


def quiz_key(answers: Sequence[str], open_words: int) -> str:
    """The answer a quiz shows as right: the first, unless it is too long for a choice and
    another answer the teacher gave is short enough ("a full sentence | the fox"); the
    worksheet's key keeps the full first answer."""
    if not answers:
        return ""
    if len(answers[0].split()) <= open_words:
        return answers[0]
    short = [a for a in answers[1:] if len(a.split()) <= open_words]
    return min(short, key=lambda a: len(a.split())) if short else answers[0]


def wrong_options(item: QAItem, finder: DistractorFinder, n: int) -> Distractors:
    """The options the teacher kept in Curate (never one that is a right answer), else
    the finder's: the quiz shows what Curate showed."""
    found = finder.find(item, n)
    if not item.distractors or found.kind == "yesno":
        return found
    rights = [a for a in [*item.answers, *item.second_answers] if a.strip()]
    kept = [d for d in item.distractors if not any(same_answer(d, r) for r in rights)]
    return Distractors(found.answer, found.kind, kept[:n], len(kept[:n]))


def shorten(text: str, limit: int, what: str, report: ExportReport) -> str:
    """``text`` cut at a word boundary to ``limit`` characters (0: no limit), reported."""
    if not limit or len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    short = cut.rstrip(" ,;:") + "…"
    report.shortened.append(f"{what} ({len(text)} → {len(short)} characters)")
    return short


def fit_options(question: QuizQuestion, limit: int, report: ExportReport) -> list[str]:
    """The options shortened to ``limit`` characters, each cut reported."""
    return [
        shorten(
            option,
            limit,
            f"Q{question.number} "
            + ("right answer" if i == question.correct else f"option {i + 1}"),
            report,
        )
        for i, option in enumerate(question.options)
    ]


def skip(question: QuizQuestion, why: str, report: ExportReport) -> None:
    text = question.question if len(question.question) <= 60 else question.question[:57] + "…"
    report.skipped.append(f"Q{question.number} “{text}”: {why}")
