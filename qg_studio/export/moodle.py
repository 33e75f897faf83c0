"""Moodle's question formats: GIFT, Aiken and Moodle XML.

Open questions: GIFT and Moodle XML take them — a short answer when the answer is a few
words a student can type, an essay with the model answer as grader information
otherwise. Aiken is multiple choice only, so they are listed as skipped there.
"""

from __future__ import annotations

import re
from typing import Sequence

from qg_studio.export.quizset import ExportReport
from qg_studio.export.quizset import QuizQuestion
from qg_studio.export.quizset import skip
from qg_studio.export.safety import clean_text
from qg_studio.export.safety import one_line

LETTERS = "ABCDEFGHIJ"
_GIFT_SPECIAL = re.compile(r"([~=#{}:\\])")
_FORMAT_MARKER = re.compile(r"^\[(html|moodle|markdown|plain)\]", re.IGNORECASE)
# Moodle's importer reads an answer weight wherever an answer starts like this.
_GIFT_WEIGHT = re.compile(r"^%-*[0-9]{1,2}\.?[0-9]*%")
# Aiken's importer (Moodle 4) takes any line starting "X." or "X)" as an option, the
# space after it being optional, so "T.J. asked: …" would be read as one.
_AIKEN_OPTION = re.compile(r"^[A-Z][).]")


def _escape(text: str) -> str:
    return _GIFT_SPECIAL.sub(r"\\\1", one_line(text))


def gift_escape(text: str) -> str:
    text = _escape(text)
    # Text opening with "[html]" and the like would be read as a format marker.
    if _FORMAT_MARKER.match(text):
        text = "[plain]" + text
    return text


def _wrong(text: str) -> str:
    """A wrong option: Moodle reads a leading ``%50%`` as a weight, so such text gets an
    explicit one first, as Moodle's own exporter writes weights (``~%0%%50% of them``)."""
    escaped = gift_escape(text)
    return ("~%0%" if _GIFT_WEIGHT.match(escaped) else "~") + escaped


def _about(q: QuizQuestion) -> str:
    item = q.item
    sections = ",".join(str(s) for s in item.sections) or "-"
    return f"{item.element.value}; {item.explicitness.value}; section {sections}"


def gift(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    """GIFT as Moodle's exporter writes it: question text marked ``[plain]`` (answers and
    feedback inherit it), so ``<b>`` or ``<script>`` typed in a question stay text."""
    report = ExportReport("Moodle GIFT")
    blocks: list[str] = []
    if title:
        blocks.append(f"// {one_line(title)}\n// Made with QG Studio")
    for q in questions:
        name = _escape(f"Q{q.number} {q.question[:40]}")
        head = f"// {one_line(_about(q))}\n::{name}::[plain]{_escape(q.question)}"
        typed = q.typed and "->" not in q.answer
        if q.typed and not typed:
            # "=a -> b" makes Moodle read a matching question and abort the whole import;
            # GIFT has no escape for "->", so the answer goes to the grader as an essay.
            report.notes.append(
                f'Q{q.number}: the answer holds "->", which GIFT cannot '
                "take as a typed answer; written as an essay"
            )
        if not q.is_open:
            parts = [
                "=" + gift_escape(o) if i == q.correct else _wrong(o)
                for i, o in enumerate(q.options)
            ]
            if q.correct == 0 and "->" in q.options[0]:
                # gift-pegjs (other importers' parser) reads a first "=a -> b" as a
                # matching pair; a wrong option first keeps it multiple choice.
                parts = parts[1:] + parts[:1]
            body = "{\n\t" + "\n\t".join(parts) + "\n}"
        elif typed:
            body = (
                "{" + " ".join("=%100%" + gift_escape(a) for a in q.accepted if "->" not in a) + "}"
            )
        elif q.answer:
            body = "{####" + gift_escape("Model answer: " + q.answer) + "}"  # an essay
        else:
            skip(q, "no answer", report)
            continue
        blocks.append(f"{head} {body}")
        report.written += 1
    return ("\n\n".join(blocks) + "\n").encode("utf-8"), report


def aiken(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    report = ExportReport("Aiken")
    blocks: list[str] = []
    for q in questions:
        if q.is_open:
            skip(q, "open question (Aiken is multiple choice only)", report)
            continue
        question = one_line(q.question)
        # A question line Moodle would read as an option or the answer line, or skip as
        # too short, would lose the question: "Q: " in front never changes its meaning.
        if (
            _AIKEN_OPTION.match(question)
            or question.startswith("ANSWER:")
            or len(question.encode("utf-8")) < 2
        ):
            question = "Q: " + question
        lines = [question]
        lines += [f"{LETTERS[i]}. {one_line(o)}" for i, o in enumerate(q.options)]
        lines.append(f"ANSWER: {LETTERS[q.correct]}")
        blocks.append("\n".join(lines))
        report.written += 1
    return ("\n\n".join(blocks) + "\n").encode("utf-8"), report


def _xml_text(text: str) -> str:
    """Text as Moodle's exporter writes it (``xml_escape``): in CDATA when it holds a
    character XML escapes. Escaped, ``&lt; &gt;`` reaches Moodle's parser in three pieces
    and it drops the lone space between them; CDATA arrives whole."""
    text = clean_text(text)
    if not any(c in text for c in '&<>"'):
        return text
    return "<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


class _Xml:
    """Moodle XML written line by line, as Moodle's own exporter writes it."""

    def __init__(self) -> None:
        self.lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<quiz>"]

    def text(self, tag: str, text: str, depth: int, **attrs: str) -> None:
        pad = "  " * depth
        self.lines += [
            f"{pad}<{tag}{_attrs(attrs)}>",
            f"{pad}  <text>{_xml_text(text)}</text>",
            f"{pad}</{tag}>",
        ]

    def value(self, tag: str, value: str, depth: int) -> None:
        self.lines.append(f"{'  ' * depth}<{tag}>{value}</{tag}>")

    def raw(self, line: str, depth: int) -> None:
        self.lines.append("  " * depth + line)

    def bytes(self) -> bytes:
        return ("\n".join(self.lines + ["</quiz>"]) + "\n").encode("utf-8")


def _attrs(attrs: dict[str, str]) -> str:
    from xml.sax.saxutils import quoteattr

    return "".join(f" {k}={quoteattr(v)}" for k, v in attrs.items())


def moodle_xml(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    report = ExportReport("Moodle XML")
    out = _Xml()
    if title:
        out.raw('<question type="category">', 1)
        out.text("category", f"$course$/top/{one_line(title).replace('/', '-')}", 2)
        out.raw("</question>", 1)
    for q in questions:
        if q.is_open and not q.answer:
            skip(q, "no answer", report)
            continue
        kind = "multichoice" if not q.is_open else ("shortanswer" if q.typed else "essay")
        out.raw(f'<question type="{kind}">', 1)
        out.text("name", f"Q{q.number} {one_line(q.question)[:60]}", 2)
        out.text("questiontext", q.question, 2, format="plain_text")
        out.text("generalfeedback", f"Answer: {q.answer}", 2, format="plain_text")
        out.value("defaultgrade", "1", 2)
        out.raw("<tags>", 2)
        for tag in (q.item.element.value, q.item.explicitness.value):
            out.text("tag", tag, 3)
        out.raw("</tags>", 2)
        if kind == "multichoice":
            for name, value in (
                ("single", "true"),
                ("shuffleanswers", "true"),
                ("answernumbering", "abc"),
            ):
                out.value(name, value, 2)
            for i, option in enumerate(q.options):
                fraction = "100" if i == q.correct else "0"
                out.text("answer", option, 2, fraction=fraction, format="plain_text")
        elif kind == "shortanswer":
            out.value("usecase", "0", 2)
            for accepted in q.accepted:
                out.text("answer", accepted, 2, fraction="100", format="plain_text")
        else:
            out.value("responseformat", "plain", 2)
            out.value("responsefieldlines", "5", 2)
            out.text("graderinfo", f"Model answer: {q.answer}", 2, format="plain_text")
        out.raw("</question>", 1)
        report.written += 1
    return out.bytes(), report
