"""Game platforms' import files: Kahoot and Quizizz/Wayground (.xlsx), Blooket and Gimkit
(.csv), laid out as their vendors' templates (docs/DESIGN.md §5).

None of them takes a free-text answer through its spreadsheet import except Quizizz, so
open questions are listed as skipped everywhere else.
"""

from __future__ import annotations

import csv
import io
from typing import Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment
from openpyxl.styles import Font

from qg_studio.export.quizset import ExportReport
from qg_studio.export.quizset import QuizQuestion
from qg_studio.export.quizset import fit_options
from qg_studio.export.quizset import quiz_settings
from qg_studio.export.quizset import shorten
from qg_studio.export.quizset import skip
from qg_studio.export.safety import csv_cell
from qg_studio.export.safety import write_cell

KAHOOT_HEADER = [
    "Question - max 120 characters",
    "Answer 1 - max 75 characters",
    "Answer 2 - max 75 characters",
    "Answer 3 - max 75 characters",
    "Answer 4 - max 75 characters",
    "Time limit (sec) – 5, 10, 20, 30, 60, 90, 120, or 240 secs",
    "Correct answer(s) - choose at least one",
]
QUIZIZZ_HEADER = [
    "Question Text",
    "Question Type",
    "Option 1",
    "Option 2",
    "Option 3",
    "Option 4",
    "Option 5",
    "Correct Answer",
    "Time in seconds",
    "Image Link",
    "Answer explanation",
]
BLOOKET_HEADER = [
    "Question #",
    "Question Text",
    "Answer 1",
    "Answer 2",
    "Answer 3\n(Optional)",
    "Answer 4\n(Optional)",
    "Time Limit (sec)\n(Max: 300 seconds)",
    "Correct Answer(s)\n(Only include Answer #)",
]
GIMKIT_HEADER = [
    "Question",
    "Correct Answer",
    "Incorrect Answer 1",
    "Incorrect Answer 2 (Optional)",
    "Incorrect Answer 3 (Optional)",
]
NO_OPEN = "open question (the platform's import takes multiple choice only)"


def _xlsx_bytes(wb: Workbook) -> bytes:
    buffer = io.BytesIO()
    wb.save(buffer)
    return buffer.getvalue()


def _csv_bytes(rows: list[list[object]]) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_MINIMAL, lineterminator="\r\n")
    for row in rows:
        writer.writerow([csv_cell(c) if isinstance(c, str) else c for c in row])
    # A BOM lets Excel read UTF-8 (emoji, right-to-left text) correctly.
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def _nearest(value: int, allowed: list[int]) -> int:
    return min(allowed, key=lambda a: (abs(a - value), a))


def kahoot(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    settings = quiz_settings()["kahoot"]
    report = ExportReport("Kahoot")
    time_limit = _nearest(int(settings["time_limit"]), list(settings["time_choices"]))
    wb = Workbook()
    ws = wb.active
    ws.title = "Kahoot"
    bold = Font(bold=True)
    write_cell(ws, 1, 2, "Quiz template", font=Font(bold=True, size=14))
    write_cell(ws, 2, 2, title or "Reading questions")
    write_cell(
        ws,
        3,
        2,
        "Add questions from row 9: at least two answers per question, "
        "one or more correct answers (e.g. 1,3).",
    )
    write_cell(ws, 4, 2, "Made with QG Studio.")
    for column, header in enumerate(KAHOOT_HEADER, start=2):
        write_cell(
            ws, 8, column, header, font=bold, alignment=Alignment(wrap_text=True, vertical="top")
        )
    row = 9
    for q in questions:
        if q.is_open:
            skip(q, NO_OPEN, report)
            continue
        text = shorten(q.question, settings["question_max"], f"Q{q.number} question", report)
        options = fit_options(q, settings["answer_max"], report)
        write_cell(ws, row, 1, report.written + 1)
        write_cell(ws, row, 2, text)
        for i in range(4):
            write_cell(ws, row, 3 + i, options[i] if i < len(options) else "")
        write_cell(ws, row, 7, time_limit)
        write_cell(ws, row, 8, str(q.correct + 1))
        row += 1
        report.written += 1
    ws.column_dimensions["B"].width = 60
    for letter in "CDEF":
        ws.column_dimensions[letter].width = 30
    ws.column_dimensions["G"].width = 18
    ws.column_dimensions["H"].width = 18
    return _xlsx_bytes(wb), report


def quizizz(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    settings = quiz_settings()["quizizz"]
    report = ExportReport("Quizizz")
    wb = Workbook()
    ws = wb.active
    ws.title = "Quizizz"
    for column, header in enumerate(QUIZIZZ_HEADER, start=1):
        write_cell(ws, 1, column, header, font=Font(bold=True))
    row = 2
    for q in questions:
        text = shorten(q.question, settings["question_max"], f"Q{q.number} question", report)
        if q.is_open and not q.answer:
            skip(q, "no answer to check against", report)
            continue
        if not q.is_open:
            options, kind, correct, explanation = (
                fit_options(q, settings["answer_max"], report),
                "Multiple Choice",
                q.correct + 1,
                "",
            )
        elif q.typed:
            # Fill-in-the-blank: the options are the accepted answers, no option number.
            options, kind, correct, explanation = q.accepted[:5], "Fill-in-the-Blank", "", ""
        else:
            options, kind, correct, explanation = [], "Open-Ended", "", q.answer
        cells = [
            text,
            kind,
            *(options + [""] * 5)[:5],
            correct,
            int(settings["time_limit"]),
            "",
            explanation,
        ]
        for column, value in enumerate(cells, start=1):
            write_cell(ws, row, column, value)
        row += 1
        report.written += 1
    ws.column_dimensions["A"].width = 60
    return _xlsx_bytes(wb), report


def blooket(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    settings = quiz_settings()["blooket"]
    report = ExportReport("Blooket")
    time_limit = min(int(settings["time_limit"]), int(settings["time_max"]))
    rows: list[list[object]] = [["Blooket\nImport Template"] + [""] * 7, list(BLOOKET_HEADER)]
    for q in questions:
        if q.is_open:
            skip(q, NO_OPEN, report)
            continue
        options = fit_options(q, settings["answer_max"], report)
        text = shorten(q.question, settings["question_max"], f"Q{q.number} question", report)
        report.written += 1
        rows.append([report.written, text, *(options + ["", ""])[:4], time_limit, q.correct + 1])
    return _csv_bytes(rows), report


def gimkit(questions: Sequence[QuizQuestion], title: str = "") -> tuple[bytes, ExportReport]:
    settings = quiz_settings()["gimkit"]
    report = ExportReport("Gimkit")
    rows: list[list[object]] = [
        ["Gimkit Spreadsheet Import Template", "", "", "", ""],
        list(GIMKIT_HEADER),
    ]
    for q in questions:
        if q.is_open:
            skip(q, NO_OPEN, report)
            continue
        options = fit_options(q, settings["answer_max"], report)
        wrong = [o for i, o in enumerate(options) if i != q.correct]
        text = shorten(q.question, settings["question_max"], f"Q{q.number} question", report)
        rows.append([text, options[q.correct], *(wrong + ["", ""])[:3]])
        report.written += 1
    return _csv_bytes(rows), report
