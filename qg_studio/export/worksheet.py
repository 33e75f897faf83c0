"""The printable worksheet: a student sheet, an answer key and a teacher sheet (openpyxl).

The layout comes from ``templates/worksheet.toml`` so a school can change titles, fonts,
widths and what is shown without touching code. Every row height is set from an
estimate of its wrapped text, because spreadsheets do not grow a row to fit wrapped text
on their own when printing; knowing the heights also lets the student sheet keep each
question on the same page as its answer lines.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment
from openpyxl.styles import Border
from openpyxl.styles import Font
from openpyxl.styles import PatternFill
from openpyxl.styles import Side
from openpyxl.utils.indexed_list import IndexedList
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.pagebreak import Break

from qg_studio import toml as tomllib
from qg_studio.export.quizset import TEMPLATES
from qg_studio.export.safety import one_line
from qg_studio.export.safety import write_cell
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Section

PAPER_POINTS = {"a4": 842.0, "letter": 792.0}  # page heights
MARGIN_IN = {"left": 0.6, "right": 0.6, "top": 0.75, "bottom": 0.75, "header": 0.3, "footer": 0.3}
WRAP = Alignment(wrap_text=True, vertical="top")
THIN = Side(style="thin", color="808080")
HEADER_FILL = PatternFill("solid", fgColor="DDDDDD")


def load_template(path: str | Path | None = None) -> dict[str, Any]:
    with open(Path(path) if path else TEMPLATES / "worksheet.toml", "rb") as handle:
        return tomllib.load(handle)


@dataclass
class WorksheetOptions:
    """The teacher's choices; ``None`` keeps the template's setting."""

    paper: str | None = None  # "a4" or "letter"
    questions_only: bool = False
    show_element: bool | None = None
    template: str | Path | None = None


def ordered(items: Sequence[QAItem]) -> list[QAItem]:
    """Worksheet order: grouped by first section, the teacher's order within a section."""
    indexed = list(enumerate(items))
    indexed.sort(key=lambda p: (p[1].sections[0] if p[1].sections else math.inf, p[0]))
    return [item for _, item in indexed]


def text_height(
    text: str, width_units: float, font_size: float, base_size: float, bold: bool = False
) -> float:
    """Points needed for ``text`` wrapped in a column ``width_units`` wide.

    A column unit is the width of a digit of the workbook's default font, which is the
    worksheet font (see :func:`_default_font`); in Arial, and in the fonts a print server
    substitutes for it, a line holds a little more than one character per unit at the
    default size (1.23 measured with DejaVu Sans). The estimate takes 1.12, so it errs
    on the roomy side. Bold text is about a tenth wider.
    """
    per_line = max(8, int(width_units * (1.0 if bold else 1.12) * base_size / font_size))
    lines = 0
    for paragraph in str(text).split("\n"):
        lines += max(1, math.ceil(len(paragraph) / per_line))
    return round(lines * font_size * 1.25 + 4, 1)


STUDENT, KEY, TEACHER = "student", "key", "teacher"
ALL_SHEETS = (STUDENT, KEY, TEACHER)


def build_workbook(
    title: str,
    sections: Sequence[Section],
    items: Sequence[QAItem],
    options: WorksheetOptions | None = None,
    sheets: Sequence[str] = ALL_SHEETS,
) -> Workbook:
    """The workbook with ``sheets``: the .xlsx has all three; the printed student copy
    has only the student sheet, and the teacher's copy the answer key and teacher sheet."""
    options = options or WorksheetOptions()
    layout = load_template(options.template)
    paper = (options.paper or layout.get("paper", "a4")).lower()
    if paper not in PAPER_POINTS:
        raise ValueError(f"unknown paper size {paper!r}; expected a4 or letter")
    show_element = (
        layout["student"]["show_element"] if options.show_element is None else options.show_element
    )
    show_story = layout["student"]["show_story"] and not options.questions_only
    # Grouped under section headings, the questions follow the story; otherwise they
    # keep the teacher's order from the Curate page.
    items = ordered(items) if layout["student"].get("show_section", True) else list(items)
    wb = Workbook()
    _default_font(wb, layout["font"], layout["font_size"])
    for index, name in enumerate(sheets):
        sheet = wb.active if index == 0 else wb.create_sheet()
        if name == STUDENT:
            _student_sheet(sheet, layout, paper, title, sections, items, show_story, show_element)
        elif name == KEY:
            _answer_key(sheet, layout, paper, title, items)
        elif name == TEACHER:
            _teacher_sheet(sheet, layout, paper, title, items)
        else:
            raise ValueError(f"unknown worksheet sheet {name!r}")
    return wb


def workbook_bytes(workbook: Workbook) -> bytes:
    """The workbook as the bytes of an .xlsx file."""
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# -- page setup ----------------------------------------------------------------------


def _page_setup(
    ws, paper: str, title: str, landscape: bool = False, title_rows: str | None = None
) -> None:
    ws.page_setup.paperSize = ws.PAPERSIZE_A4 if paper == "a4" else ws.PAPERSIZE_LETTER
    ws.page_setup.orientation = "landscape" if landscape else "portrait"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0  # as many pages as the text needs
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins = PageMargins(**MARGIN_IN)
    ws.print_options.horizontalCentered = True
    ws.sheet_view.showGridLines = False
    if title_rows:
        ws.print_title_rows = title_rows
    header = title.replace("&", "&&")[:100]
    ws.oddHeader.center.text = header
    ws.oddHeader.center.size = 9
    ws.oddFooter.center.text = "Page &P of &N"
    ws.oddFooter.center.size = 9


def _default_font(wb: Workbook, name: str, size: float) -> None:
    """Make the worksheet font the workbook's default: column widths are measured in it,
    so the printed width and the wrapping no longer depend on which fonts a machine has."""
    font = Font(name=name, size=size, family=2)
    wb._fonts = IndexedList([font])
    wb._named_styles["Normal"].font = font


def _rows_per_page(
    paper: str, width_units: float, base_size: float, landscape: bool = False
) -> float:
    """Row points that fit on one printed page once fit-to-width has scaled the sheet."""
    page_w, page_h = (595.0, PAPER_POINTS["a4"]) if paper == "a4" else (612.0, 792.0)
    if landscape:
        page_w, page_h = page_h, page_w
    printable_w = page_w - (MARGIN_IN["left"] + MARGIN_IN["right"]) * 72
    printable_h = page_h - (MARGIN_IN["top"] + MARGIN_IN["bottom"]) * 72 - 12
    scale = min(1.0, printable_w / (width_units * base_size * 0.6 + 10))
    return printable_h / scale


# -- the three sheets ------------------------------------------------------------------


def _student_sheet(ws, layout, paper, title, sections, items, show_story, show_element):
    spec = layout["student"]
    font, size = layout["font"], layout["font_size"]
    body = Font(name=font, size=size)
    bold = Font(name=font, size=size, bold=True)
    heading = Font(name=font, size=layout["heading_size"], bold=True)
    small = Font(name=font, size=layout["small_size"], italic=True, color="555555")
    width = spec["text_width"]
    ws.title = spec["sheet"][:31]
    ws.column_dimensions["A"].width = spec["number_width"]
    ws.column_dimensions["B"].width = width
    rows: list[float] = []  # height of every row written
    page = {"used": 0.0, "height": _rows_per_page(paper, width + spec["number_width"], size)}

    def height_of(text: str, font: Font) -> float:
        return text_height(text, width, font.size, size, bool(font.b))

    def put(number: Any, text: str, font: Font, height: float | None = None) -> int:
        row = len(rows) + 1
        if number != "":
            write_cell(ws, row, 1, number, font=bold, alignment=WRAP)
        write_cell(ws, row, 2, text, font=font, alignment=WRAP)
        h = height if height is not None else height_of(text, font)
        ws.row_dimensions[row].height = h
        rows.append(h)
        # a row that does not fit goes whole to the next page
        page["used"] = h if page["used"] + h > page["height"] else page["used"] + h
        return row

    heading_text = f"{spec['title']}: {title}" if title else spec["title"]
    put("", heading_text, Font(name=font, size=layout["title_size"], bold=True))
    put("", spec["name_line"], body)
    put("", spec["instructions"], small)
    put("", "", body, 8)
    if show_story:
        put("", spec["story_heading"], heading)
        for section in sections:
            put(section.id, section.text.replace("\t", " "), body)
            put("", "", body, 6)
    # The "Questions" heading and a section label travel with the question after them.
    pending: list[tuple[str, Font]] = [(spec["questions_heading"], heading)]
    current_section: object = object()
    for number, item in enumerate(items, start=1):
        group = item.sections[0] if item.sections else None
        if spec["show_section"] and group != current_section:
            current_section = group
            pending.append(
                (
                    spec["section_label"].format(n=group)
                    if group is not None
                    else "Other questions",
                    bold,
                )
            )
        text = one_line(item.question)  # a stray tab or newline is no indent
        if show_element:
            text += f"   ({item.element.value})"
        n_lines = (
            spec["lines_implicit"]
            if item.explicitness == Explicitness.IMPLICIT
            else spec["lines_explicit"]
        )
        block = (
            sum(height_of(t, f) for t, f in pending)
            + height_of(text, body)
            + n_lines * spec["line_height"]
        )
        if page["used"] + block > page["height"] and page["used"] > 0:
            # The question would part from its lines: start it on a new page.
            ws.row_breaks.append(Break(id=len(rows)))
            page["used"] = 0.0
        for label, label_font in pending:
            put("", label, label_font)
        pending = []
        put(f"{number}.", text, body)
        for _ in range(n_lines):
            row = put("", "", body, spec["line_height"])
            ws.cell(row=row, column=2).border = Border(bottom=THIN)
    for label, label_font in pending:  # no questions: the heading still shows
        put("", label, label_font)
    ws.print_area = f"A1:B{len(rows)}"
    _page_setup(ws, paper, title)


def _table(ws, layout, spec, title, header_rows: int = 2):
    font, size = layout["font"], layout["small_size"] + 1
    ws.title = spec["sheet"][:31]
    write_cell(
        ws,
        1,
        1,
        f"{spec['title']}: {title}" if title else spec["title"],
        font=Font(name=font, size=layout["heading_size"], bold=True),
    )
    for column, (name, width) in enumerate(zip(spec["columns"], spec["widths"]), start=1):
        write_cell(
            ws,
            2,
            column,
            name,
            font=Font(name=font, size=size, bold=True),
            alignment=WRAP,
            fill=HEADER_FILL,
            border=Border(bottom=THIN, top=THIN, left=THIN, right=THIN),
        )
        ws.column_dimensions[ws.cell(row=2, column=column).column_letter].width = width
    ws.row_dimensions[2].height = max(
        text_height(name, width, size, layout["font_size"])
        for name, width in zip(spec["columns"], spec["widths"])
    )
    ws.freeze_panes = "A3"
    return Font(name=font, size=size)


def _write_rows(
    ws, rows: list[list[Any]], widths: list[float], font: Font, base_size: float
) -> None:
    box = Border(bottom=THIN, top=THIN, left=THIN, right=THIN)
    for r, values in enumerate(rows, start=3):
        height = 0.0
        for c, value in enumerate(values, start=1):
            write_cell(ws, r, c, value, font=font, alignment=WRAP, border=box)
            if isinstance(value, str):
                height = max(height, text_height(value, widths[c - 1], font.size, base_size))
        ws.row_dimensions[r].height = max(height, font.size * 1.3 + 5)


def _answers(item: QAItem) -> str:
    from qg_studio.trust import answer_confidence
    from qg_studio.trust import trust_note

    text = " / ".join(a for a in map(one_line, item.answers) if a)
    check = trust_note(answer_confidence(item))  # the teacher's copy says which to check
    return f"{text} [{check}]" if text and check else text


def _answer_key(ws, layout, paper, title, items):
    spec = layout["key"]
    font = _table(ws, layout, spec, title)
    rows = [
        [n, one_line(item.question), _answers(item), ", ".join(str(s) for s in item.sections)]
        for n, item in enumerate(items, 1)
    ]
    _write_rows(ws, rows, spec["widths"], font, layout["font_size"])
    ws.print_area = f"A1:{ws.cell(row=1, column=len(spec['columns'])).column_letter}{len(rows) + 2}"
    _page_setup(ws, paper, title, title_rows="2:2")


def _teacher_sheet(ws, layout, paper, title, items):
    spec = layout["teacher"]
    font = _table(ws, layout, spec, title)
    rows = []
    for n, item in enumerate(items, start=1):
        scores = item.scores
        rows.append(
            [
                n,
                item.status.value,
                one_line(item.question),
                _answers(item),
                item.element.value + (f" + {item.element2.value}" if item.element2 else ""),
                item.explicitness.value,
                item.answer_kind.value,
                item.scope.value,
                ", ".join(str(s) for s in item.sections),
                " … ".join(f"[{e.section}] {one_line(e.text)}" for e in item.evidence),
                item.engine,
                *[
                    "" if value is None else round(value, 3)
                    for value in (scores.confidence, scores.answerability)
                ],
            ]
        )
    _write_rows(ws, rows, spec["widths"], font, layout["font_size"])
    last = ws.cell(row=1, column=len(spec["columns"])).column_letter
    ws.auto_filter.ref = f"A2:{last}{len(rows) + 2}"
    ws.print_area = f"A1:{last}{len(rows) + 2}"
    _page_setup(ws, paper, title, landscape=True, title_rows="2:2")
