"""The worksheet prints: LibreOffice headless converts it to PDF (slow: ~5–10 s)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from export_story import items
from export_story import sections

from qg_studio.export import export_handouts
from qg_studio.export import export_story
from qg_studio.export.pdf import soffice
from qg_studio.export.pdf import worksheet_pdf
from qg_studio.export.worksheet import WorksheetOptions

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(soffice() is None, reason="LibreOffice is not installed"),
]


@pytest.mark.parametrize("paper,size", [("a4", "A4"), ("letter", "letter")])
def test_worksheet_converts_to_pdf(tmp_path, paper, size):
    secs = sections()
    result = export_story(
        "xlsx", "Greta and the gold", secs, items(secs), worksheet=WorksheetOptions(paper=paper)
    )
    pdf = tmp_path / "w.pdf"
    pdf.write_bytes(worksheet_pdf(result.data, result.filename))
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdfinfo") and shutil.which("pdftotext"):
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        assert size in info
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
        assert "Who rode past the mill?" in text and "Answer key" in text
        assert "Teacher sheet" in text and "Page 1 of" in text


def _text(pdf: bytes, tmp_path, name: str) -> str:
    path = tmp_path / name
    path.write_bytes(pdf)
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_students_pdf_holds_no_answer_key_and_teacher_pdf_no_student_pages(tmp_path):
    secs = sections()
    handouts = export_handouts("Greta and the gold", secs, items(secs))
    assert handouts.students_name == "Greta-and-the-gold-students.pdf"
    assert handouts.teacher_name == "Greta-and-the-gold-teacher.pdf"
    students = _text(handouts.students, tmp_path, "s.pdf")
    teacher = _text(handouts.teacher, tmp_path, "t.pdf")
    assert "Who rode past the mill?" in students and "Name:" in students
    for secret in ("Answer key", "Teacher sheet", "spin even more straw", "embedded"):
        assert secret not in students
    assert "Answer key" in teacher and "Teacher sheet" in teacher
    assert "spin even more straw" in " ".join(teacher.split())
    assert "Name:" not in teacher and "What did the king say about the weather?" not in teacher
