"""Read and write folders in the FairytaleQA layout (see the dataset's README).

    questions/<split>/<story>-questions.csv
    section-stories/<split>/<story>-story.csv
    story_meta.csv

Rows keep every column as the string the file holds, in the file's column order, and
each file remembers its line ending and whether it ends with one, so writing a story
back reproduces its files (byte for byte, except for blank lines, which are dropped).
A row and the item it stands for are turned into each other in
:mod:`qg_studio.data.question_rows`.
"""

from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import Iterable
from typing import Sequence

from qg_studio.data.cells import guard
from qg_studio.data.cells import unguard
from qg_studio.data.question_rows import QUESTION_COLUMNS
from qg_studio.data.question_rows import FtqaQuestion
from qg_studio.schema import QAItem
from qg_studio.schema import Section

STORY_COLUMNS = ["section", "text"]
META_COLUMNS = ["filename", "origin", "split", "sections", "words", "questions"]
META_FILE = "story_meta.csv"


class FtqaFormatError(ValueError):
    """A file that does not follow the layout; the message names the file and row."""


@dataclass
class CsvLayout:
    """How a CSV file ends its lines, so a rewrite matches the original."""

    newline: str = "\n"
    final_newline: bool = True
    bom: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"newline": self.newline, "final_newline": self.final_newline, "bom": self.bom}

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> "CsvLayout":
        data = data or {}
        return cls(
            newline=data.get("newline", "\n"),
            final_newline=bool(data.get("final_newline", True)),
            bom=bool(data.get("bom", False)),
        )


@dataclass
class FtqaStory:
    name: str
    sections: list[Section]
    questions: list[FtqaQuestion] = field(default_factory=list)
    split: str = ""
    question_columns: list[str] = field(default_factory=lambda: list(QUESTION_COLUMNS))
    # The `section` cells as written, when they are not simply the section ids
    # (one train story numbers two sections 5).
    section_labels: list[str] | None = None
    story_layout: CsvLayout = field(default_factory=CsvLayout)
    questions_layout: CsvLayout = field(default_factory=CsvLayout)
    has_questions_file: bool = True
    meta: dict[str, str] | None = None  # this story's row of story_meta.csv
    # Our own counts when the meta row was read: the file's "words" counts differently,
    # so its figures are kept for as long as the story is unchanged.
    meta_basis: dict[str, int] | None = None

    @property
    def title(self) -> str:
        """The story's name as words ("why-dog-and-cat-are-enemies": "why dog and cat are
        enemies"), the title a teacher would paste above it."""
        return self.name.replace("-", " ").replace("_", " ")

    @property
    def words(self) -> int:
        return sum(len(s.text.split()) for s in self.sections)

    def items(self) -> list[QAItem]:
        return [q.to_item() for q in self.questions]


# -- reading ----------------------------------------------------------------------------


def _read_csv(path: Path) -> tuple[list[str], list[list[str]], CsvLayout]:
    return parse_csv(read_file(path), str(path))


MAX_CSV_BYTES = 8 * 2**20  # a story's CSV is tens of KB; the largest train story's is 60 KB


def read_file(path: Path) -> bytes:
    """A CSV file's bytes, or a one-line FtqaFormatError (a folder in its place, no access,
    larger than any story's file)."""
    try:
        if path.stat().st_size > MAX_CSV_BYTES:
            raise FtqaFormatError(f"{path}: over {MAX_CSV_BYTES // 2**20} MB, not a story's file")
        return path.read_bytes()
    except OSError as exc:
        raise FtqaFormatError(f"{path}: cannot be read ({exc.strerror or exc})") from None


def parse_csv(raw: bytes, path: str = "file") -> tuple[list[str], list[list[str]], CsvLayout]:
    """(header, rows, layout) of CSV bytes; ``path`` names the file in errors."""
    bom = raw.startswith(b"\xef\xbb\xbf")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FtqaFormatError(f"{path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    first_end = text.find("\n")
    layout = CsvLayout(
        newline="\r\n" if first_end > 0 and text[first_end - 1] == "\r" else "\n",
        final_newline=text.endswith("\n"),
        bom=bom,
    )
    try:
        rows = [r for r in csv.reader(io.StringIO(text, newline="")) if r]
    except csv.Error as exc:  # a cell over csv's field limit (128 KB), a stray NUL
        raise FtqaFormatError(f"{path}: not a readable CSV file ({exc})") from None
    if not rows:
        raise FtqaFormatError(f"{path}: empty file (expected a header row)")
    header, body = rows[0], rows[1:]
    for number, row in enumerate(body, start=2):
        if len(row) != len(header):
            raise FtqaFormatError(
                f"{path}: row {number} has {len(row)} cells, the header has {len(header)}"
            )
    return header, [[unguard(c) for c in r] for r in body], layout


def story_names(root: str | Path, split: str) -> list[str]:
    folder = Path(root) / "section-stories" / split
    if not folder.is_dir():
        raise FileNotFoundError(f"no FairytaleQA stories at {folder}")
    return sorted(p.name[: -len("-story.csv")] for p in folder.glob("*-story.csv"))


def read_story_meta(root: str | Path) -> tuple[list[str], dict[str, dict[str, str]]]:
    """``story_meta.csv`` as (columns, rows by filename); empty where the file is absent."""
    path = Path(root) / META_FILE
    if not path.exists():
        return list(META_COLUMNS), {}
    header, rows, _ = _read_csv(path)
    return header, {r[0]: dict(zip(header, r)) for r in rows}


def read_story(
    root: str | Path, split: str, name: str, meta: dict[str, dict[str, str]] | None = None
) -> FtqaStory:
    root = Path(root)
    qpath = questions_path(root, split, name)
    story = parse_story(
        name,
        read_file(story_path(root, split, name)),
        read_file(qpath) if qpath.exists() else None,
        split,
        where=str(root),
    )
    if meta is None:
        meta = read_story_meta(root)[1]
    story.meta = meta.get(name)
    if story.meta is None:  # one file name differs from its meta row only in case
        story.meta = next((row for key, row in meta.items() if key.lower() == name.lower()), None)
    if story.meta is not None:
        story.meta_basis = _counts(story)
    return story


def parse_story(
    name: str,
    story_csv: bytes,
    questions_csv: bytes | None = None,
    split: str = "",
    where: str = "",
) -> FtqaStory:
    """A story from the bytes of its files (e.g. an upload); raises FtqaFormatError."""
    folder = f"{where}/" if where else ""
    spath = f"{folder}section-stories/{split}/{name}-story.csv" if split else f"{name}-story.csv"
    qpath = f"{folder}questions/{split}/{name}-questions.csv" if split else f"{name}-questions.csv"
    header, rows, story_layout = parse_csv(story_csv, spath)
    if header[:2] != STORY_COLUMNS:
        raise FtqaFormatError(f"{spath}: expected the header section,text, got {header}")
    labels = [r[0] for r in rows]
    try:
        ids = [int(label) for label in labels]
    except ValueError:
        raise FtqaFormatError(
            f"{spath}: section numbers must be whole numbers, got {labels}"
        ) from None
    if not rows:
        raise FtqaFormatError(f"{spath}: no sections")
    sections = [Section(id=i, text=r[1]) for i, r in zip(ids, rows)]
    story = FtqaStory(
        name=name,
        sections=sections,
        split=split,
        story_layout=story_layout,
        section_labels=None if labels == [str(i) for i in ids] else labels,
    )
    if questions_csv is not None:
        qheader, qrows, story.questions_layout = parse_csv(questions_csv, qpath)
        missing = [c for c in QUESTION_COLUMNS if c not in qheader]
        if missing:
            raise FtqaFormatError(f"{qpath}: missing columns {', '.join(missing)}")
        story.question_columns = qheader
        story.questions = [FtqaQuestion(dict(zip(qheader, r))) for r in qrows]
    else:
        story.has_questions_file = False
    return story


def read_split(root: str | Path, split: str) -> list[FtqaStory]:
    meta = read_story_meta(root)[1]
    return [read_story(root, split, name, meta) for name in story_names(root, split)]


# -- writing ----------------------------------------------------------------------------


def write_csv(
    path: Path, header: Sequence[str], rows: Iterable[Sequence[str]], layout: CsvLayout
) -> Path:
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator=layout.newline)
    writer.writerow([guard(c) for c in header])
    writer.writerows([guard(str(c)) for c in row] for row in rows)
    text = buf.getvalue()
    if not layout.final_newline and text.endswith(layout.newline):
        text = text[: -len(layout.newline)]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes((b"\xef\xbb\xbf" if layout.bom else b"") + text.encode("utf-8"))
    os.replace(tmp, path)  # a failed write never leaves half a file behind
    return path


def story_path(root: str | Path, split: str, name: str) -> Path:
    return Path(root) / "section-stories" / split / f"{name}-story.csv"


def questions_path(root: str | Path, split: str, name: str) -> Path:
    return Path(root) / "questions" / split / f"{name}-questions.csv"


def safe_name(name: str) -> bool:
    """Whether ``name`` can be a story's file name stem (no folders, no hidden files)."""
    return bool(name) and not name.startswith(".") and not any(c in name for c in "/\\\0")


def write_story(root: str | Path, split: str, story: FtqaStory) -> list[Path]:
    """Write the story's section file and (unless it had none) its questions file."""
    if not safe_name(story.name) or not safe_name(split):
        raise FtqaFormatError(
            f"cannot write story {story.name!r} in split {split!r}: "
            "names must not contain / or \\ or start with a dot"
        )
    labels = story.section_labels or [str(s.id) for s in story.sections]
    written = [
        write_csv(
            story_path(root, split, story.name),
            STORY_COLUMNS,
            ([label, s.text] for label, s in zip(labels, story.sections)),
            story.story_layout,
        )
    ]
    if story.questions or story.has_questions_file:
        columns = story.question_columns
        written.append(
            write_csv(
                questions_path(root, split, story.name),
                columns,
                ([q.row.get(c, "") for c in columns] for q in story.questions),
                story.questions_layout,
            )
        )
    return written


def _counts(story: FtqaStory) -> dict[str, int]:
    return {
        "sections": len(story.sections),
        "words": story.words,
        "questions": len(story.questions),
    }


def meta_row(story: FtqaStory, split: str, columns: Sequence[str]) -> dict[str, str]:
    """The story's story_meta.csv row: the original where its counts still hold."""
    counts = _counts(story)
    fresh = {
        "filename": story.name,
        "origin": "",
        "split": split,
        **{k: str(v) for k, v in counts.items()},
    }
    row = {c: "" for c in columns}
    row.update({k: v for k, v in fresh.items() if k in row})
    basis = story.meta_basis or {}
    for column, value in (story.meta or {}).items():
        if column not in row:
            continue
        if (
            column in counts
            and basis.get(column) != counts[column]
            and _int_or_none(value) != counts[column]
        ):
            continue
        if column == "split" and value != split:
            continue
        row[column] = value
    return row


def _int_or_none(value: str) -> int | None:
    try:
        return int(str(value).strip())
    except ValueError:
        return None


def write_story_meta(
    root: str | Path, stories: Sequence[FtqaStory], split: str, columns: Sequence[str] | None = None
) -> Path:
    """Write story_meta.csv, keeping rows of other stories already in the file."""
    path = Path(root) / META_FILE
    old_columns, old = read_story_meta(root) if path.exists() else (None, {})
    columns = list(columns or old_columns or META_COLUMNS)
    rows = {name: {c: row.get(c, "") for c in columns} for name, row in old.items()}
    for story in stories:
        rows[story.name] = meta_row(story, split, columns)
    return write_csv(
        path, columns, ([row[c] for c in columns] for row in rows.values()), CsvLayout()
    )


def write_split(
    root: str | Path, split: str, stories: Sequence[FtqaStory], meta: bool = True
) -> list[Path]:
    written: list[Path] = []
    for story in stories:
        written += write_story(root, split, story)
    if meta:
        columns = next((list(s.meta) for s in stories if s.meta), None)
        written.append(write_story_meta(root, stories, split, columns))
    return written
