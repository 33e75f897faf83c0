"""Exports as bytes: a curated story (worksheet, quiz) and a project's training data.

The writers are :mod:`qg_studio.export` and :mod:`qg_studio.data.export`; this module
only packs what they write into one download.
"""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

from qg_studio.export import ExportResult
from qg_studio.export import export_story
from qg_studio.services import ServiceError

__all__ = ["ExportResult", "export_story", "quiz_options", "training_data", "write_training_data"]


def quiz_options(item, sections, answerer=None) -> list[str]:
    """The wrong options a multiple-choice quiz will give ``item``: what Curate shows the
    teacher before any export (the same choice the quiz export makes, given the same
    ``answerer``). None for yes/no."""
    from qg_studio.export.distractors import DistractorFinder
    from qg_studio.export.quizset import quiz_settings
    from qg_studio.export.quizset import wrong_options

    n = quiz_settings()["common"]["distractors"]
    found = wrong_options(item, DistractorFinder(sections, answerer), n)
    return [] if found.kind == "yesno" else found.options


# A fixed timestamp: the same data gives the same zip on every download.
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def training_data(store, project_id: int, split: str, fmt: str) -> bytes:
    """A project's stories as training data in one file: the StoryQA JSONL itself, or a
    zip of the FairytaleQA folder (with its provenance sidecars) or the HF files."""
    from qg_studio.data.export import write_export
    from qg_studio.data.projects import export_project

    exports = export_project(store, project_id, split)
    with tempfile.TemporaryDirectory() as tmp:
        written = write_export(tmp, exports, fmt)
        if fmt == "storyqa":
            return written[0].read_bytes() if written else b""
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(Path(tmp).rglob("*")):
                if path.is_file():
                    info = zipfile.ZipInfo(path.relative_to(tmp).as_posix(), _ZIP_TIME)
                    info.compress_type = zipfile.ZIP_DEFLATED
                    archive.writestr(info, path.read_bytes())
        return buf.getvalue()


def write_training_data(
    store, project_ids, out: str | Path, fmt: str, split: str | None, include_dropped: bool = False
) -> dict:
    """Projects' stories as training data under ``out``; the counts written."""
    from qg_studio.data.export import write_export
    from qg_studio.data.fairytaleqa import FtqaFormatError
    from qg_studio.data.projects import export_projects

    exports = export_projects(store, project_ids, split, include_dropped)
    if not exports:
        raise ServiceError("those projects hold no stories to export")
    try:
        written = write_export(out, exports, fmt)
    except FtqaFormatError as exc:
        raise ServiceError(str(exc)) from None
    except OSError as exc:
        raise ServiceError(f"cannot write to {out}: {exc.strerror or exc}") from None
    return {
        "stories": len(exports),
        "qa_pairs": sum(len(e.story.questions) for e in exports),
        "format": fmt,
        "out": str(out),
        "files": len(written),
    }
