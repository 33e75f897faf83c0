"""Everything written to a spreadsheet or CSV is data, never a formula (docs/DESIGN.md §5).

Two writers, two defences:

- **Workbooks (openpyxl).** A cell is stored as a *string* cell (``data_type = "s"``),
  whatever its first character, so ``=HYPERLINK(...)`` is shown, never evaluated, and the
  text reaches Kahoot/Quizizz exactly as typed. Cells that *look* like a formula also get
  Excel's ``quotePrefix`` flag — the hidden apostrophe Excel itself sets when a person
  types ``'=1+1`` — so re-editing the cell in Excel or LibreOffice keeps it text.
- **CSV (Blooket, Gimkit).** A CSV cell has no type; Excel, LibreOffice and Google Sheets
  evaluate any cell starting with ``=``, ``+``, ``-`` or ``@`` when the teacher opens the
  file to check it. OWASP's apostrophe guard is no use here: Blooket and Gimkit import
  the CSV as plain text and show the apostrophe to every student (``'-the first pig``).
  Dropping the leading character is no better (``-5 coins`` would become ``5 coins``).
  So such cells start with a ZERO WIDTH SPACE (U+200B): a spreadsheet sees a cell that
  does not begin with a formula character and keeps it text, and a browser draws the
  character as nothing, so the platforms show the text exactly as typed. Leading
  whitespace (tabs and carriage returns are read as formula starts too) carries no
  meaning in a question, so it is stripped first.

Characters an .xlsx cannot hold (C0 controls other than tab/newline/CR) are removed
everywhere, so an odd byte in a pasted story never breaks the file.
"""

from __future__ import annotations

import re
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# XML 1.0 forbids these; openpyxl raises IllegalCharacterError on them.
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
XLSX_CELL_MAX = 32767


def clean_text(value: Any) -> str:
    """``value`` as a string with the characters no workbook or XML file accepts removed."""
    if value is None:
        return ""
    return _ILLEGAL.sub("", str(value))


def one_line(value: Any) -> str:
    """Tabs, newlines and runs of spaces as one space: a quiz option or a line-based
    format (GIFT, Aiken) has no room for a line break."""
    return " ".join(clean_text(value).split())


def looks_like_formula(text: str) -> bool:
    return text.startswith(FORMULA_STARTS)


INVISIBLE_GUARD = "\u200b"  # ZERO WIDTH SPACE; see the module's docstring


def csv_cell(value: Any) -> str:
    """A CSV cell that no spreadsheet evaluates and no quiz platform shows differently."""
    text = clean_text(value).lstrip()
    if looks_like_formula(text):
        return INVISIBLE_GUARD + text
    return text


def write_cell(ws, row: int, column: int, value: Any, **style: Any):
    """Write ``value`` at (row, column) of an openpyxl sheet as data; numbers stay numbers.

    ``style`` holds openpyxl style attributes (font, alignment, border, fill).
    """
    cell = ws.cell(row=row, column=column)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        cell.value = value
    else:
        text = clean_text(value)[:XLSX_CELL_MAX]
        cell.value = text
        # openpyxl would turn "=..." into a formula cell; force a string cell.
        cell.data_type = "s"
        if looks_like_formula(text):
            cell.quotePrefix = True
    for name, setting in style.items():
        setattr(cell, name, setting)
    return cell
