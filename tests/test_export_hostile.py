"""Hostile question sets through all nine exports, each read back by a strict reader.

Every item must come back with the intended question and right answer (the text as the
teacher wrote it, on one line; shortened only where a platform's limit says so, and
then reported), and no spreadsheet or CSV cell may be a formula. The readers are the
platform's own grammar: Moodle's GIFT/Aiken/XML importers (tests/moodle_readers.py),
an XML parser for QTI, openpyxl for .xlsx, the csv module for Blooket and Gimkit.
"""

from __future__ import annotations

import csv
import io
import unicodedata
import xml.etree.ElementTree as ET
import zipfile

import openpyxl
import pytest
from moodle_readers import read_aiken
from moodle_readers import read_gift
from moodle_readers import read_moodle_xml
from moodle_readers import right_answers
from moodle_readers import shown

from qg_studio.export import FORMATS
from qg_studio.export import export_story
from qg_studio.export.quizset import QuizQuestion
from qg_studio.export.quizset import exportable
from qg_studio.export.quizset import prepare
from qg_studio.export.worksheet import ordered
from qg_studio.schema import QAItem
from qg_studio.schema import Section

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

HOSTILE = [
    "=1+1",
    '=HYPERLINK("http://x","y")',
    "@SUM(A1:A2)",
    "-x",
    "+x",
    "-5 coins",
    "\ttabbed at the start",
    "\rcarriage return first",
    "a tab\tinside",
    "two\nlines",
    "crlf\r\nline",
    "%50% of them",
    "%100%",
    "barn -> woods",
    "{curly} braces",
    "~=#: all of GIFT's specials \\ and a backslash",
    "[html]<b>marked</b>",
    "<b>bold</b> and <script>alert(1)</script>",
    "x < > y",
    "Tom & Jerry & Spike",
    "ends ]]> here",
    "&lt; &amp;",
    'say "hi"',
    "T.J. asked",
    "A. looks like an option",
    "ANSWER: B",
    "Q",
    "😀 emoji",
    "שלום עולם",
    "مرحبا",
    "日本語の答え",
    "e\u0301 combining",
    "wörd ünïcödé",
    "long " + "very long text with many words " * 70,
]

STORY = [
    "=1+1 was written on the mill door. Greta met the king at the mill. The fox ran "
    "from the barn to the woods. Tom & Jerry & Spike sat by the river. 😀 שלום עולם.",
    "@SUM(A1:A2) said the sign. -5 coins were left in the box. The miller was glad and "
    "the baker was proud. They sang مرحبا and 日本語の答え at night.",
]


def _items() -> list[QAItem]:
    """Each hostile text once as a question (short plain answer) and once as an answer."""
    out = []
    for n, text in enumerate(HOSTILE):
        section = 1 + n % 2
        out.append(
            QAItem(
                f"{text} — who was at the mill?",
                ["the king"],
                "character",
                "explicit",
                sections=[section],
                status="kept",
            )
        )
        out.append(
            QAItem(
                f"What did the sign say, number {n}?",
                [text],
                "action",
                "explicit",
                sections=[section],
                status="kept",
            )
        )
    out.append(
        QAItem(
            "Which answers are empty?",
            ["", "  ", "the fox"],
            "character",
            "explicit",
            sections=[1],
            status="kept",
        )
    )
    out.append(QAItem("What was empty?", [""], "action", "explicit", sections=[2], status="kept"))
    out.append(
        QAItem(
            "Was the miller glad?",
            ["yes"],
            "character",
            "explicit",
            answer_kind="yesno",
            sections=[2],
            status="kept",
        )
    )
    return out


@pytest.fixture(scope="module")
def hostile():
    secs = [Section(i, t) for i, t in enumerate(STORY, start=1)]
    its = _items()
    return secs, its, prepare(exportable(its), secs)


def one_line(text: str) -> str:
    return " ".join(text.split())


def _visible(text: str) -> str:
    """Text as a student sees it: format characters (the invisible guard) draw nothing."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def _same(got: str, intended: str) -> bool:
    """``got`` is ``intended``, or ``intended`` cut at a platform's limit with "…"."""
    got = _visible(got or "")
    if got == intended:
        return True
    return got.endswith("…") and intended.startswith(got[:-1].rstrip(" ,;:")) and len(got) > 1


def _right(q: QuizQuestion) -> str:
    return q.options[q.correct] if q.options else q.answer


def _written(questions: list[QuizQuestion], fmt: str) -> list[QuizQuestion]:
    """The questions a format writes, in order (the others are reported as skipped)."""
    if fmt in ("kahoot", "blooket", "gimkit", "aiken"):
        return [q for q in questions if not q.is_open]
    return [q for q in questions if not q.is_open or q.answer]


# -- one reader per format: [(question, right answer)] as the platform reads them ---------


def _sheet_cells(data: bytes) -> list:
    wb = openpyxl.load_workbook(io.BytesIO(data))
    return [c for ws in wb.worksheets for row in ws.iter_rows() for c in row]


def _read_kahoot(data):
    ws = openpyxl.load_workbook(io.BytesIO(data)).active
    return [(r[1], r[1 + int(r[7])]) for r in ws.iter_rows(min_row=9, values_only=True) if r[1]]


def _read_quizizz(data):
    ws = openpyxl.load_workbook(io.BytesIO(data)).active
    out = []
    for r in ws.iter_rows(min_row=2, values_only=True):
        right = r[1 + int(r[7])] if r[7] else (r[2] or r[10] or "")
        out.append((r[0], right))
    return out


def _csv_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def _read_blooket(data):
    return [(r[1], r[1 + int(r[7])]) for r in _csv_rows(data)[2:]]


def _read_gimkit(data):
    return [(r[0], r[1]) for r in _csv_rows(data)[2:]]


def _read_gift(data):
    out = []
    for q in read_gift(data.decode("utf-8")):
        assert q["format"] == "plain", q
        rights = right_answers(q) or [shown(*q["feedback"]).removeprefix("Model answer: ")]
        out.append((q["text"], rights[0]))
    return out


def _read_aiken(data):
    return [
        (q["text"].removeprefix("Q: ") if q["text"].startswith("Q: ") else q["text"], q["answer"])
        for q in read_aiken(data.decode("utf-8"))
    ]


def _read_moodle_xml(data):
    ET.fromstring(data)
    out = []
    for q in read_moodle_xml(data):
        assert q["format"] == "plain_text"
        rights = [t for f, t in q["answers"] if f == 1.0]
        out.append(
            (q["text"], rights[0] if rights else q["graderinfo"].removeprefix("Model answer: "))
        )
    return out


def _read_qti(data):
    archive = zipfile.ZipFile(io.BytesIO(data))
    manifest = ET.fromstring(archive.read("imsmanifest.xml"))
    hrefs = [
        r.get("href")
        for r in manifest.iter("{http://www.imsglobal.org/xsd/imscp_v1p1}resource")
        if r.get("type") == "imsqti_item_xmlv2p1"
    ]
    out = []
    for href in hrefs:
        item = ET.fromstring(archive.read(href))
        prompt = item.find(f".//{QTI}prompt").text or ""
        value = item.find(f"{QTI}responseDeclaration/{QTI}correctResponse/{QTI}value").text
        choices = {c.get("identifier"): c.text or "" for c in item.iter(f"{QTI}simpleChoice")}
        out.append((prompt, choices.get(value, value)))
    return out


READERS = {
    "kahoot": _read_kahoot,
    "quizizz": _read_quizizz,
    "blooket": _read_blooket,
    "gimkit": _read_gimkit,
    "gift": _read_gift,
    "aiken": _read_aiken,
    "moodle-xml": _read_moodle_xml,
    "qti": _read_qti,
}


def _no_formula_cells(fmt: str, data: bytes) -> int:
    """Cells checked; fails on any formula cell."""
    if fmt in ("blooket", "gimkit"):
        cells = [c for row in _csv_rows(data) for c in row]
        bad = [c for c in cells if c.startswith(FORMULA_STARTS + ("'",))]
    elif FORMATS[fmt].extension == ".xlsx":
        cells = _sheet_cells(data)
        bad = [
            c.coordinate
            for c in cells
            if c.data_type == "f"
            or (
                isinstance(c.value, str)
                and c.value.startswith(FORMULA_STARTS)
                and not c.quotePrefix
            )
        ]
    else:
        return 0
    assert not bad, bad[:5]
    return len(cells)


@pytest.mark.parametrize("fmt", [f for f in FORMATS if f != "xlsx"])
def test_every_hostile_item_reads_back_as_intended(hostile, fmt):
    secs, its, questions = hostile
    result = export_story(fmt, '=HYPERLINK("x") 😀 [html] T.J.', secs, its)
    expected = _written(questions, fmt)
    got = READERS[fmt](result.data)
    assert len(got) == len(expected) == result.report.written
    for q, (question, answer) in zip(expected, got):
        assert _same(question, q.question), (fmt, q.number, question, q.question)
        assert _same(answer, _right(q)), (fmt, q.number, answer, _right(q))
    _no_formula_cells(fmt, result.data)


def test_every_hostile_item_reads_back_from_the_worksheet(hostile):
    secs, its, _ = hostile
    data = export_story("xlsx", "=1+1 😀", secs, its).data
    wb = openpyxl.load_workbook(io.BytesIO(data))
    key = list(wb["Answer key"].iter_rows(min_row=3, values_only=True))
    chosen = ordered(exportable(its))
    assert len(key) == len(chosen)
    for item, row in zip(chosen, key):
        assert row[1] == one_line(item.question)
        assert (row[2] or "") == " / ".join(a for a in map(one_line, item.answers) if a)
    student = {c.value for c in wb["Worksheet"]["B"] if isinstance(c.value, str)}
    assert {one_line(i.question) for i in chosen} <= student
    assert _no_formula_cells("xlsx", data) > 100


@pytest.mark.parametrize("fmt", ["gift", "moodle-xml", "qti", "quizizz"])
def test_open_and_typed_hostile_answers_read_back(hostile, fmt):
    """Every item as an open question: short answers typed, long ones as essays."""
    from qg_studio.export import _writer

    secs, its, _ = hostile
    questions = prepare(exportable(its), secs, choices=False)
    data, report = _writer(FORMATS[fmt].writer)(questions, "T")
    expected = _written(questions, fmt)
    got = READERS[fmt](data)
    assert len(got) == len(expected) == report.written
    for q, (question, answer) in zip(expected, got):
        assert _same(question, q.question), (fmt, q.number, question)
        assert _same(answer, q.answer), (fmt, q.number, answer, q.answer)
    _no_formula_cells(fmt, data)


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["blooket", "gimkit"])
def test_libreoffice_evaluating_formulas_finds_none_in_the_csv(hostile, fmt, tmp_path):
    """LibreOffice told to evaluate formulas on CSV import still finds only text."""
    import shutil
    import subprocess

    program = shutil.which("soffice")
    if program is None:
        pytest.skip("LibreOffice is not installed")
    secs, its, _ = hostile
    source = tmp_path / f"{fmt}.csv"
    source.write_bytes(export_story(fmt, "T", secs, its).data)
    # CSV filter: comma, double quote, UTF-8, from line 1, …, token 13 = evaluate formulas.
    subprocess.run(
        [
            program,
            f"-env:UserInstallation={(tmp_path / 'p').as_uri()}",
            "--headless",
            "--infilter=CSV:44,34,76,1,,0,false,true,false,false,false,-1,true",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(tmp_path),
            str(source),
        ],
        capture_output=True,
        timeout=180,
        check=True,
    )
    cells = _sheet_cells((tmp_path / f"{fmt}.xlsx").read_bytes())
    assert len(cells) > 50
    assert not [c.coordinate for c in cells if c.data_type == "f"]
