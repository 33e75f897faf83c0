"""Moodle's question formats: GIFT, Aiken and Moodle XML.

Open questions: GIFT and Moodle XML take them — a short answer when the answer is a few
words a student can type, an essay with the model answer as grader information
otherwise. Aiken is multiple choice only, so they are listed as skipped there.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Sequence

from qg_studio.export.quizset import ExportReport, QuizQuestion, skip
from qg_studio.export.safety import clean_text

LETTERS = "ABCDEFGHIJ"
_GIFT_SPECIAL = re.compile(r"([~=#{}:\\])")
_FORMAT_MARKER = re.compile(r"^\[(html|moodle|markdown|plain)\]", re.IGNORECASE)


def one_line(text: str) -> str:
    """Tabs, newlines and runs of spaces become one space: both formats are line-based."""
    return " ".join(clean_text(text).split())


def gift_escape(text: str) -> str:
    text = _GIFT_SPECIAL.sub(r"\\\1", one_line(text))
    # Text opening with "[html]" and the like would be read as a format marker.
    if _FORMAT_MARKER.match(text):
        text = "[plain]" + text
    return text


def _about(q: QuizQuestion) -> str:
    item = q.item
    sections = ",".join(str(s) for s in item.sections) or "-"
    return f"{item.element.value}; {item.explicitness.value}; section {sections}"


def gift(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    report = ExportReport("Moodle GIFT")
    blocks: list[str] = []
    if title:
        blocks.append(f"// {one_line(title)}\n// Made with QG Studio")
    for q in questions:
        name = gift_escape(f"Q{q.number} {q.question[:40]}")
        head = f"// {one_line(_about(q))}\n::{name}::{gift_escape(q.question)}"
        if not q.is_open:
            parts = [("=" if i == q.correct else "~") + gift_escape(o)
                     for i, o in enumerate(q.options)]
            body = "{\n\t" + "\n\t".join(parts) + "\n}"
        elif q.typed:
            body = "{" + " ".join("=" + gift_escape(a) for a in q.accepted) + "}"
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
        # A question line that looked like an option ("A. …") or the answer line would be
        # misread; a leading space never changes what the student sees.
        if re.match(r"^[A-Z][.)]\s", question) or question.upper().startswith("ANSWER:"):
            question = "Q: " + question
        lines = [question]
        lines += [f"{LETTERS[i]}. {one_line(o)}" for i, o in enumerate(q.options)]
        lines.append(f"ANSWER: {LETTERS[q.correct]}")
        blocks.append("\n".join(lines))
        report.written += 1
    return ("\n\n".join(blocks) + "\n").encode("utf-8"), report


def _text(parent: ET.Element, tag: str, text: str, **attrs: str) -> ET.Element:
    node = ET.SubElement(parent, tag, attrs)
    ET.SubElement(node, "text").text = clean_text(text)
    return node


def moodle_xml(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    report = ExportReport("Moodle XML")
    quiz = ET.Element("quiz")
    if title:
        category = ET.SubElement(quiz, "question", type="category")
        _text(category, "category", f"$course$/top/{one_line(title).replace('/', '-')}")
    for q in questions:
        if q.is_open and not q.answer:
            skip(q, "no answer", report)
            continue
        kind = "multichoice" if not q.is_open else ("shortanswer" if q.typed else "essay")
        node = ET.SubElement(quiz, "question", type=kind)
        _text(node, "name", f"Q{q.number} {one_line(q.question)[:60]}")
        _text(node, "questiontext", q.question, format="plain_text")
        _text(node, "generalfeedback", f"Answer: {q.answer}", format="plain_text")
        ET.SubElement(node, "defaultgrade").text = "1"
        tags = ET.SubElement(node, "tags")
        for tag in (q.item.element.value, q.item.explicitness.value):
            _text(tags, "tag", tag)
        if kind == "multichoice":
            ET.SubElement(node, "single").text = "true"
            ET.SubElement(node, "shuffleanswers").text = "true"
            ET.SubElement(node, "answernumbering").text = "abc"
            for i, option in enumerate(q.options):
                fraction = "100" if i == q.correct else "0"
                _text(node, "answer", option, fraction=fraction, format="plain_text")
        elif kind == "shortanswer":
            ET.SubElement(node, "usecase").text = "0"
            for accepted in q.accepted:
                _text(node, "answer", accepted, fraction="100", format="plain_text")
        else:
            ET.SubElement(node, "responseformat").text = "plain"
            ET.SubElement(node, "responsefieldlines").text = "5"
            _text(node, "graderinfo", f"Model answer: {q.answer}", format="plain_text")
        report.written += 1
    ET.indent(quiz)
    data = ET.tostring(quiz, encoding="utf-8", xml_declaration=True)
    return data, report
