"""Exports of a curated story: the worksheet and the quiz platforms' files.

:func:`export_story` is the one entry point the CLI and the Export page share: it picks
the items to export, writes the chosen format and returns the bytes with a report of
what was shortened or skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable
from typing import Sequence

from qg_studio.export.quizset import ExportReport
from qg_studio.export.quizset import exportable
from qg_studio.export.quizset import prepare
from qg_studio.export.worksheet import WorksheetOptions
from qg_studio.export.worksheet import build_workbook
from qg_studio.export.worksheet import workbook_bytes
from qg_studio.schema import QAItem
from qg_studio.schema import Section

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclass(frozen=True)
class Format:
    name: str
    label: str
    extension: str
    mime: str
    writer: str  # "module:function" under qg_studio.export, or "" for the worksheet


FORMATS: dict[str, Format] = {
    f.name: f
    for f in [
        Format("xlsx", "Worksheet (Excel) with answer key", ".xlsx", XLSX, ""),
        Format("kahoot", "Kahoot (.xlsx)", ".xlsx", XLSX, "platforms:kahoot"),
        Format("quizizz", "Quizizz / Wayground (.xlsx)", ".xlsx", XLSX, "platforms:quizizz"),
        Format("blooket", "Blooket (.csv)", ".csv", "text/csv", "platforms:blooket"),
        Format("gimkit", "Gimkit (.csv)", ".csv", "text/csv", "platforms:gimkit"),
        Format("gift", "Moodle GIFT (.gift.txt)", ".gift.txt", "text/plain", "moodle:gift"),
        Format("aiken", "Moodle Aiken (.txt)", ".aiken.txt", "text/plain", "moodle:aiken"),
        Format("moodle-xml", "Moodle XML (.xml)", ".xml", "application/xml", "moodle:moodle_xml"),
        Format("qti", "QTI 2.1 package (.zip)", ".qti.zip", "application/zip", "qti:qti"),
    ]
}


@dataclass
class ExportResult:
    data: bytes
    filename: str
    mime: str
    report: ExportReport


def _writer(spec: str) -> Callable:
    import importlib

    module, _, function = spec.partition(":")
    return getattr(importlib.import_module(f"qg_studio.export.{module}"), function)


def safe_filename(title: str) -> str:
    stem = re.sub(r"[^\w\- ]+", "", title, flags=re.UNICODE).strip().replace(" ", "-")
    return stem[:60] or "questions"


# Titles the app gives a story it could not name (a pasted text without a title line).
_PLACEHOLDER_TITLES = {"", "story", "untitled", "untitled story", "untitled project"}


def document_title(project: str, story: str) -> str:
    """What the files and worksheet are called: the story's own title, else the
    project's name, so pasted stories are not all exported as ``Story-…``."""
    for title in (story, project):
        if title and title.strip().lower() not in _PLACEHOLDER_TITLES:
            return " ".join(title.split())
    return "Reading questions"


@dataclass
class Handouts:
    students: bytes
    teacher: bytes
    students_name: str
    teacher_name: str


def export_handouts(
    title: str,
    sections: Sequence[Section],
    items: Sequence[QAItem],
    worksheet: WorksheetOptions | None = None,
) -> Handouts:
    """The two PDFs to print, the students' copy and the teacher's (LibreOffice), of
    ``items`` that are not dropped (pass ``exportable(items, kept_only=True)`` for the kept)."""
    from qg_studio.export.pdf import handout_pdfs

    students, teacher = handout_pdfs(title, sections, exportable(items), worksheet)
    stem = safe_filename(title)
    return Handouts(students, teacher, f"{stem}-students.pdf", f"{stem}-teacher.pdf")


def export_story(
    fmt: str,
    title: str,
    sections: Sequence[Section],
    items: Sequence[QAItem],
    kept_only: bool = False,
    worksheet: WorksheetOptions | None = None,
    answerer=None,
) -> ExportResult:
    """Write ``items`` (never the dropped ones) of a story in format ``fmt``. A quiz's
    wrong options are never a right answer: not one the key accepts, nor (with an
    ``answerer``) one the answerer gives when it reads the story."""
    try:
        spec = FORMATS[fmt]
    except KeyError:
        raise ValueError(
            f"unknown export format {fmt!r}; expected one of: {', '.join(FORMATS)}"
        ) from None
    chosen = exportable(items, kept_only)
    filename = safe_filename(title) + ("-worksheet" if fmt == "xlsx" else f"-{fmt}")
    if fmt == "xlsx":
        report = ExportReport("worksheet", written=len(chosen))
        data = workbook_bytes(build_workbook(title, sections, chosen, worksheet))
    else:
        data, report = _writer(spec.writer)(prepare(chosen, sections, answerer=answerer), title)
    if not chosen:
        report.notes.append(
            "no questions to export: every item is dropped"
            + (" or not yet kept" if kept_only else "")
        )
    return ExportResult(data, filename + spec.extension, spec.mime, report)
