"""Ingest a story: read a file, clean it, cut it into sections and grade them.

The CLI commands and the Story page read a story the same way, so a file has one word
count and one set of sections wherever it is opened.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from qg_studio.ingest import check_text
from qg_studio.ingest import read_stream
from qg_studio.schema import Section
from qg_studio.services import ServiceError
from qg_studio.story import GradeReport
from qg_studio.story import StoryInputError
from qg_studio.story import grade_sections
from qg_studio.story import load_story_file
from qg_studio.story import parse_story
from qg_studio.story import section_story


@dataclass
class IngestedStory:
    title: str
    text: str  # the cleaned story body, as it is stored and graded
    sections: list[Section]
    report: GradeReport


def read_story(path: str, data: bytes | None = None) -> tuple[str, str]:
    """(title, raw text) of a file, of uploaded ``data`` named ``path``, or of stdin ("-")."""
    try:
        if data is not None:
            text = load_story_file(path, data)
        elif path == "-":
            text = read_stream(sys.stdin.buffer)  # capped: never more than the limit
        else:
            problem = not_a_story_file(Path(path))
            if problem:
                raise ServiceError(problem)
            text = load_story_file(path)
        check_text(text)  # every limit before any parsing
        title = parse_story(text).title or (Path(path).stem if path != "-" else "")
    except StoryInputError as exc:
        raise ServiceError(str(exc)) from None
    return title, text


def not_a_story_file(path: Path) -> str | None:
    """Why ``path`` cannot be read as a story file (one line), or None when it can."""
    if path.is_dir():
        return f"{path} is a folder, not a story file (give a .txt or .docx file)"
    if path.exists() and not path.is_file():
        # A device or a pipe: /dev/zero never ends, a FIFO may never be written.
        return f"{path} is not a regular file (a device or a pipe); save the story as .txt or .docx"
    if not path.exists():
        return f"no such file: {path}"
    return None


def ingest(text: str, grade=None, title: str = "") -> IngestedStory:
    """Sections with their readability and the story's grade report."""
    try:
        check_text(text)  # every limit before any parsing
        parsed = parse_story(text)
        sections = section_story(text)
        report = grade_sections(sections, grade, story_text=parsed.text)
    except StoryInputError as exc:
        raise ServiceError(str(exc)) from None
    return IngestedStory(parsed.title or title, parsed.text, sections, report)


def ingest_file(path: str, grade=None) -> IngestedStory:
    title, text = read_story(path)
    return ingest(text, grade, title)
