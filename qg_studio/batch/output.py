"""The dataset a batch writes: the FairytaleQA layout, the Annotate export's provenance.

Every file is written to a temporary name and renamed into place (``write_csv``), so a
kill leaves at most a ``*.tmp`` file, which the next run removes with the files of any
story the manifest does not list as done: the folder then holds done stories only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from typing import Iterable

from qg_studio.batch.corpus import StoryJob
from qg_studio.batch.story import StoryOutcome
from qg_studio.data.export import provenance_path
from qg_studio.data.fairytaleqa import META_COLUMNS
from qg_studio.data.fairytaleqa import META_FILE
from qg_studio.data.fairytaleqa import CsvLayout
from qg_studio.data.fairytaleqa import FtqaStory
from qg_studio.data.fairytaleqa import write_csv
from qg_studio.data.fairytaleqa import write_story
from qg_studio.data.projects import PROVENANCE_COLUMNS
from qg_studio.data.question_rows import FtqaQuestion
from qg_studio.schema import Section

FOLDERS = {
    "section-stories": "-story.csv",
    "questions": "-questions.csv",
    "provenance": "-provenance.csv",
}


def write_outcome(out: str | Path, job: StoryJob, outcome: StoryOutcome) -> list[Path]:
    story = FtqaStory(
        name=job.name,
        split=job.split,
        sections=[Section(id=i, text=t) for i, t in outcome.sections],
        questions=[FtqaQuestion(dict(r)) for r in outcome.rows],
    )
    written = write_story(out, job.split, story)
    written.append(
        write_csv(
            provenance_path(out, job.split, job.name),
            PROVENANCE_COLUMNS,
            ([p[c] for c in PROVENANCE_COLUMNS] for p in outcome.provenance),
            CsvLayout(),
        )
    )
    return written


def remove_leftovers(out: str | Path, done: Iterable[tuple[str, str]]) -> int:
    """Delete temporary files and the files of stories not recorded as done."""
    keep = {(split, name) for split, name in done}
    removed = 0
    root = Path(out)
    for folder, suffix in FOLDERS.items():
        base = root / folder
        if not base.is_dir():
            continue
        for path in base.glob("*/*"):
            if not path.is_file():
                continue
            split = path.parent.name
            stale = path.name.endswith(".tmp") or (
                path.name.endswith(suffix) and (split, path.name[: -len(suffix)]) not in keep
            )
            if stale:
                path.unlink()
                removed += 1
    meta_tmp = root / (META_FILE + ".tmp")
    if meta_tmp.exists():
        meta_tmp.unlink()
    return removed


def write_meta(out: str | Path, done: list[dict[str, Any]]) -> Path:
    """story_meta.csv for every done story (rewritten whole, at the end of each run)."""
    rows = sorted(done, key=lambda r: (r["split"], r["name"]))
    return write_csv(
        Path(out) / META_FILE,
        META_COLUMNS,
        ([r["name"], r["key"], r["split"], r["sections"], r["words"], r["qa_pairs"]] for r in rows),
        CsvLayout(),
    )
