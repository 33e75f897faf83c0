"""The worksheet as PDF, through LibreOffice headless where it is installed."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


class PdfUnavailable(RuntimeError):
    pass


def soffice() -> str | None:
    return shutil.which("soffice") or shutil.which("libreoffice")


def to_pdf(workbook: Path, outdir: Path, timeout: float = 180) -> Path:
    """``soffice --headless --convert-to pdf``; a private profile lets several run at once."""
    program = soffice()
    if program is None:
        raise PdfUnavailable("LibreOffice is not installed (Debian: apt install libreoffice-calc)")
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        try:
            done = subprocess.run(
                [program, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless",
                 "--convert-to", "pdf", "--outdir", str(outdir), str(workbook)],
                capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise PdfUnavailable(f"LibreOffice took longer than {timeout:.0f} s") from None
    pdf = outdir / (workbook.stem + ".pdf")
    if done.returncode != 0 or not pdf.exists():
        raise PdfUnavailable(f"LibreOffice could not convert {workbook.name}: "
                             f"{(done.stderr or done.stdout).strip()[:200]}")
    return pdf


def worksheet_pdf(data: bytes, name: str = "worksheet.xlsx") -> bytes:
    """PDF bytes of a worksheet's .xlsx bytes."""
    with tempfile.TemporaryDirectory() as folder:
        workbook = Path(folder) / name
        workbook.write_bytes(data)
        return to_pdf(workbook, Path(folder) / "pdf").read_bytes()
