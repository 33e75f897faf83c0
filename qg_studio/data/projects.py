"""FairytaleQA stories into the project store and back out, with each item's provenance.

Import makes one project per story: the expert sections as they are, the QA pairs as
items in file order (``ref`` = question_id). What a QAItem cannot hold — the file's
column order and line endings, and each row's original strings ("5, 6", a "doubt") —
goes into the project's settings under ``"fairytaleqa"``, keyed by story and item id,
so export writes an unedited story back exactly and an edited item with its new values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Sequence

from qg_studio.data.fairytaleqa import CsvLayout
from qg_studio.data.fairytaleqa import FtqaStory
from qg_studio.data.question_rows import QUESTION_COLUMNS
from qg_studio.data.question_rows import FtqaQuestion
from qg_studio.data.question_rows import question_row
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.schema import Section
from qg_studio.store import Store
from qg_studio.store import StoredStory

SETTINGS_KEY = "fairytaleqa"
IMPORT_ACTOR = "fairytaleqa"  # created_by of imported expert items
PROVENANCE_COLUMNS = [
    "question_id",
    "origin",
    "created_by",
    "engine",
    "edited",
    "edited_by",
    "status",
]


class StoryImportError(ValueError):
    """A story that cannot be imported; nothing of it was written."""


@dataclass
class ImportedStory:
    name: str
    project_id: int
    story_id: int
    items: int
    existing: bool = False  # imported before; nothing was written this time


@dataclass
class ExportStory:
    """A stored story ready to write: rows aligned with items and their provenance."""

    story: FtqaStory
    items: list[QAItem] = field(default_factory=list)
    provenance: list[dict[str, str]] = field(default_factory=list)
    project_id: int | None = None


def _store_sections(story: FtqaStory) -> tuple[list[Section], dict[int, int] | None]:
    ids = [s.id for s in story.sections]
    if len(set(ids)) == len(ids):
        return [Section(id=s.id, text=s.text) for s in story.sections], None
    # Repeated section numbers (one train story): number by position; a citation of a
    # repeated number points at its first section, and the original labels are kept.
    first: dict[int, int] = {}
    for position, sid in enumerate(ids, start=1):
        first.setdefault(sid, position)
    return ([Section(id=i, text=s.text) for i, s in enumerate(story.sections, start=1)], first)


def story_items(story: FtqaStory, section_map: dict[int, int] | None = None) -> list[QAItem]:
    """Every row as an item; raises :class:`StoryImportError` naming the file and row."""
    items: list[QAItem] = []
    for number, question in enumerate(story.questions, start=2):
        try:
            items.append(question.to_item(section_map))
        except (KeyError, ValueError) as exc:
            where = f"{story.split}/" if story.split else ""
            raise StoryImportError(
                f"{where}{story.name}-questions.csv row {number}: {exc}"
            ) from None
    return items


def import_key(story: FtqaStory) -> str:
    """What makes a re-run of an import find the project it made the first time."""
    return f"{SETTINGS_KEY}:{story.split or ''}/{story.name}"


def import_story(
    store: Store, story: FtqaStory, project_name: str | None = None, once: bool = False
) -> ImportedStory:
    """One project holding ``story``, made in one transaction: a kill mid-import leaves
    nothing. With ``once`` (a dataset import), importing the same story again returns the
    project made the first time; without it (an upload opened as a new project), every
    call makes a new project. Every row is checked before anything is written."""
    sections, section_map = _store_sections(story)
    items = story_items(story, section_map)
    key = import_key(story) if once else None
    with store.transaction():
        existing = store.imported_project(key) if key else None
        if existing is not None:
            stored = store.latest_story(existing)
            return ImportedStory(
                story.name,
                existing,
                stored.id if stored else 0,
                len(store.list_items(stored.id)) if stored else 0,
                existing=True,
            )
        project_id = store.create_project(
            project_name or story.name,
            {"source": "fairytaleqa", "split": story.split},
            import_key=key,
        )
        story_id = store.add_story(
            project_id, story.name, "\n\n".join(s.text for s in sections), sections
        )
        item_ids = store.add_items(story_id, items, actor=IMPORT_ACTOR)
        record = {
            "name": story.name,
            "split": story.split,
            "question_columns": list(story.question_columns),
            "section_labels": (
                story.section_labels
                if story.section_labels is not None or section_map is None
                else [str(s.id) for s in story.sections]
            ),
            "story_layout": story.story_layout.to_dict(),
            "questions_layout": story.questions_layout.to_dict(),
            "has_questions_file": story.has_questions_file,
            "meta": story.meta,
            "meta_basis": story.meta_basis,
            "rows": {str(i): q.row for i, q in zip(item_ids, story.questions)},
        }
        store.update_settings(project_id, **{SETTINGS_KEY: {"stories": {str(story_id): record}}})
    return ImportedStory(story.name, project_id, story_id, len(items))


def import_stories(store: Store, stories: Sequence[FtqaStory]) -> list[ImportedStory]:
    """Every story's rows are checked before the first is imported; then one transaction
    per story, so an interrupted import re-run completes without duplicating any."""
    for story in stories:
        story_items(story, _store_sections(story)[1])
    return [import_story(store, story, once=True) for story in stories]


def story_record(store: Store, project_id: int, story_id: int) -> dict[str, Any] | None:
    settings = store.get_project(project_id).settings
    return settings.get(SETTINGS_KEY, {}).get("stories", {}).get(str(story_id))


def slug(title: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return text or "story"


def _known_engines() -> set[str]:
    from qg_studio.answering import ANSWERERS
    from qg_studio.generation import GENERATORS

    return set(GENERATORS.names()) | set(ANSWERERS.names()) | {"pipeline"}


def origin_of(created_by: str, engines: set[str] | None = None) -> str:
    """ "dataset", "engine" or "person" for an item's ``created_by``."""
    engines = engines if engines is not None else _known_engines()
    head = created_by.split(":", 1)[0].strip().lower()
    if created_by == IMPORT_ACTOR:
        return "dataset"
    if head in engines or head in ("engine", "generator", "answerer"):
        return "engine"
    return "person"


def provenance(
    store: Store, story_id: int, items: Sequence[QAItem], question_ids: Sequence[str]
) -> list[dict[str, str]]:
    """Who made each item (engine or person) and whether anyone edited it since."""
    history = store.history(story_id)
    engines = _known_engines()
    rows = []
    for item, qid in zip(items, question_ids):
        edits = [h for h in history if h["item_id"] == item.id and h["action"] == "edit"]
        editors = list(dict.fromkeys(h["actor"] for h in edits))
        created_by = store.created_by(item.id) if item.id is not None else ""
        rows.append(
            {
                "question_id": qid,
                "origin": origin_of(created_by, engines),
                "created_by": created_by,
                "engine": item.engine,
                "edited": "yes" if edits else "no",
                "edited_by": ";".join(editors),
                "status": item.status.value,
            }
        )
    return rows


def _next_id(taken: set[str]) -> str:
    numbers = [int(t) for t in taken if t.isdigit()]
    return str(max(numbers, default=0) + 1)


def export_story(
    store: Store, stored: StoredStory, split: str | None = None, include_dropped: bool = False
) -> ExportStory:
    """The stored story as FairytaleQA rows; dropped items stay out unless asked for."""
    record = story_record(store, stored.project_id, stored.id) or {}
    raw_rows: dict[str, dict[str, str]] = record.get("rows", {})
    columns = list(record.get("question_columns") or QUESTION_COLUMNS)
    labels = record.get("section_labels")
    if labels is not None and len(labels) != len(stored.sections):
        labels = None  # sections were re-cut after import; number them afresh
    label_of = {s.id: label for s, label in zip(stored.sections, labels)} if labels else None
    items = [
        i
        for i in store.list_items(stored.id)
        if include_dropped or i.status is not ReviewStatus.DROPPED
    ]
    taken = {i.ref for i in items if i.ref} | {r.get("question_id", "") for r in raw_rows.values()}
    questions, qids = [], []
    for item in items:
        raw = raw_rows.get(str(item.id))
        qid = item.ref or (raw or {}).get("question_id") or _next_id(taken)
        taken.add(qid)
        qids.append(qid)
        questions.append(FtqaQuestion(question_row(item, columns, raw, qid, label_of)))
    story = FtqaStory(
        name=record.get("name") or slug(stored.title),
        sections=[Section(id=s.id, text=s.text) for s in stored.sections],
        questions=questions,
        split=split or record.get("split") or "train",
        question_columns=columns,
        section_labels=labels,
        story_layout=CsvLayout.from_dict(record.get("story_layout")),
        questions_layout=CsvLayout.from_dict(record.get("questions_layout")),
        has_questions_file=bool(record.get("has_questions_file", True)),
        meta=record.get("meta"),
        meta_basis=record.get("meta_basis"),
    )
    return ExportStory(story, items, provenance(store, stored.id, items, qids), stored.project_id)


def export_project(
    store: Store, project_id: int, split: str | None = None, include_dropped: bool = False
) -> list[ExportStory]:
    out = [export_story(store, s, split, include_dropped) for s in store.list_stories(project_id)]
    _unique_names(out)
    return out


def _unique_names(stories: Sequence[ExportStory]) -> None:
    seen: dict[str, int] = {}
    for export in stories:
        name = export.story.name
        if name in seen:
            seen[name] += 1
            export.story.name = f"{name}-{seen[name]}"
        else:
            seen[name] = 1


def export_projects(
    store: Store,
    project_ids: Sequence[int],
    split: str | None = None,
    include_dropped: bool = False,
) -> list[ExportStory]:
    out: list[ExportStory] = []
    for project_id in project_ids:
        out += export_project(store, project_id, split, include_dropped)
    _unique_names(out)
    return out


def is_teacher_set(stories: Sequence[ExportStory]) -> bool:
    """True when any item came from an engine or a person rather than the dataset."""
    return any(
        p["origin"] != "dataset" or p["edited"] == "yes" for s in stories for p in s.provenance
    )
