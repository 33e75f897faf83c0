"""The worksheet as PDF, through LibreOffice headless where it is installed.

Two PDFs, as a teacher hands them out: the students' copy (story and questions only)
and the teacher's copy (answer key and teacher sheet), never mixed in one file.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Sequence

from qg_studio.export.worksheet import KEY
from qg_studio.export.worksheet import STUDENT
from qg_studio.export.worksheet import TEACHER
from qg_studio.export.worksheet import WorksheetOptions
from qg_studio.export.worksheet import build_workbook
from qg_studio.export.worksheet import workbook_bytes
from qg_studio.schema import QAItem
from qg_studio.schema import Section


class PdfUnavailable(RuntimeError):
    pass


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def to_pdfs(workbooks: Sequence[Path], outdir: Path, timeout: float = 180) -> list[Path]:
    """``soffice --headless --convert-to pdf`` of several files in one start (LibreOffice
    takes seconds to start); a private profile lets several conversions run at once."""
    program = soffice()
    if program is None:
        raise PdfUnavailable("LibreOffice is not installed (Debian: apt install libreoffice-calc)")
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        try:
            done = subprocess.run(
                [
                    program,
                    f"-env:UserInstallation={Path(profile).as_uri()}",
                    "--headless",
                    "--convert-to",
                    "pdf",
                    "--outdir",
                    str(outdir),
                    *map(str, workbooks),
                ],
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            raise PdfUnavailable(f"LibreOffice took longer than {timeout:.0f} s") from None
    pdfs = [outdir / (workbook.stem + ".pdf") for workbook in workbooks]
    if done.returncode != 0 or not all(pdf.exists() for pdf in pdfs):
        raise PdfUnavailable(
            f"LibreOffice could not convert {workbooks[0].name}: "
            f"{(done.stderr or done.stdout).strip()[:200]}"
        )
    return pdfs


def to_pdf(workbook: Path, outdir: Path, timeout: float = 180) -> Path:
    return to_pdfs([workbook], outdir, timeout)[0]


def worksheet_pdf(data: bytes, name: str = "worksheet.xlsx") -> bytes:
    """PDF bytes of a worksheet's .xlsx bytes."""
    with tempfile.TemporaryDirectory() as folder:
        workbook = Path(folder) / name
        workbook.write_bytes(data)
        return to_pdf(workbook, Path(folder) / "pdf").read_bytes()


def handout_pdfs(
    title: str,
    sections: Sequence[Section],
    items: Sequence[QAItem],
    options: WorksheetOptions | None = None,
) -> tuple[bytes, bytes]:
    """(students' PDF, teacher's PDF) of the worksheet of ``items``."""
    with tempfile.TemporaryDirectory() as folder:
        student, teacher = Path(folder) / "students.xlsx", Path(folder) / "teacher.xlsx"
        for path, sheets in ((student, [STUDENT]), (teacher, [KEY, TEACHER])):
            path.write_bytes(
                workbook_bytes(build_workbook(title, sections, items, options, sheets))
            )
        pdfs = to_pdfs([student, teacher], Path(folder) / "pdf")
        return pdfs[0].read_bytes(), pdfs[1].read_bytes()
