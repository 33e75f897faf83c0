"""The worksheet prints: LibreOffice headless converts it to PDF (slow: ~5–10 s)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from export_story import items, sections
from qg_studio.export import export_story
from qg_studio.export.pdf import soffice, worksheet_pdf
from qg_studio.export.worksheet import WorksheetOptions

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(soffice() is None, reason="LibreOffice is not installed")]


@pytest.mark.parametrize("paper,size", [("a4", "A4"), ("letter", "letter")])
def test_worksheet_converts_to_pdf(tmp_path, paper, size):
    secs = sections()
    result = export_story("xlsx", "Greta and the gold", secs, items(secs),
                          worksheet=WorksheetOptions(paper=paper))
    pdf = tmp_path / "w.pdf"
    pdf.write_bytes(worksheet_pdf(result.data, result.filename))
    assert pdf.read_bytes().startswith(b"%PDF")
    if shutil.which("pdfinfo") and shutil.which("pdftotext"):
        info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True).stdout
        assert size in info
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True,
                              text=True).stdout
        assert "Who rode past the mill?" in text and "Answer key" in text
        assert "Teacher sheet" in text and "Page 1 of" in text
