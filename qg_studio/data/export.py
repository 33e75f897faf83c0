"""Write stored stories as training data: FairytaleQA folders, StoryQA JSONL, HF flat files.

Provenance (engine or person, edited or not) never changes the FairytaleQA columns: it
goes to a sidecar ``provenance/<split>/<story>-provenance.csv`` beside the layout,
to a ``provenance`` object in each StoryQA line, and to trailing HF columns when the
set holds anything beyond unedited dataset rows (a teacher set).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Sequence

from qg_studio.data.fairytaleqa import CsvLayout
from qg_studio.data.fairytaleqa import write_csv
from qg_studio.data.fairytaleqa import write_split
from qg_studio.data.hf import write_hf
from qg_studio.data.projects import PROVENANCE_COLUMNS
from qg_studio.data.projects import ExportStory
from qg_studio.data.projects import is_teacher_set
from qg_studio.data.storyqa import write_storyqa
from qg_studio.paths import inside

FORMATS = ("fairytaleqa", "storyqa", "hf")


def provenance_path(root: str | Path, split: str, name: str) -> Path:
    return inside(root, "provenance", split, f"{name}-provenance.csv")


def _by_split(exports: Sequence[ExportStory]) -> dict[str, list[ExportStory]]:
    groups: dict[str, list[ExportStory]] = defaultdict(list)
    for export in exports:
        groups[export.story.split].append(export)
    return dict(groups)


def write_fairytaleqa(out: str | Path, exports: Sequence[ExportStory]) -> list[Path]:
    written: list[Path] = []
    for split, group in _by_split(exports).items():
        written += write_split(out, split, [e.story for e in group])
        for export in group:
            written.append(
                write_csv(
                    provenance_path(out, split, export.story.name),
                    PROVENANCE_COLUMNS,
                    ([p[c] for c in PROVENANCE_COLUMNS] for p in export.provenance),
                    CsvLayout(),
                )
            )
    return written


def write_storyqa_files(out: str | Path, exports: Sequence[ExportStory]) -> list[Path]:
    return [
        write_storyqa(
            inside(out, f"{split}.jsonl"), [e.story for e in group], [e.provenance for e in group]
        )
        for split, group in _by_split(exports).items()
    ]


def write_hf_files(out: str | Path, exports: Sequence[ExportStory]) -> list[Path]:
    teacher = is_teacher_set(exports)
    written: list[Path] = []
    for split, group in _by_split(exports).items():
        written += write_hf(
            out, split, [e.story for e in group], [e.provenance for e in group] if teacher else None
        )
    return written


def write_export(out: str | Path, exports: Sequence[ExportStory], fmt: str) -> list[Path]:
    if fmt == "fairytaleqa":
        return write_fairytaleqa(out, exports)
    if fmt == "storyqa":
        return write_storyqa_files(out, exports)
    if fmt == "hf":
        return write_hf_files(out, exports)
    raise ValueError(f"unknown export format {fmt!r}; expected one of: {', '.join(FORMATS)}")
