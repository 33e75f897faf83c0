"""The project store: SQLite in WAL mode, one file per user.

Every teacher action is one transaction, committed before the call returns, so a
crash or a closed tab loses nothing; a write that fails half-way rolls back and
leaves the earlier state as it was. The schema carries ``PRAGMA user_version`` and
:data:`MIGRATIONS` brings older files forward.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Sequence

from qg_studio.schema import QAItem, Section

DATA_DIR_ENV = "QG_STUDIO_HOME"
DB_NAME = "qg_studio.sqlite3"

# Index i holds the SQL that takes a file from version i to i + 1.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE project (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        settings TEXT NOT NULL DEFAULT '{}',
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE story (
        id INTEGER PRIMARY KEY,
        project_id INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
        title TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE section (
        story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
        id INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (story_id, id)
    );
    CREATE TABLE item (
        id INTEGER PRIMARY KEY,
        story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        data TEXT NOT NULL,
        created_by TEXT NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE item_history (
        id INTEGER PRIMARY KEY,
        item_id INTEGER NOT NULL,
        story_id INTEGER NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        before TEXT,
        after TEXT,
        at REAL NOT NULL
    );
    CREATE INDEX item_story ON item(story_id, position);
    CREATE INDEX history_story ON item_history(story_id, id);
    """,
]
SCHEMA_VERSION = len(MIGRATIONS)


def default_data_dir() -> Path:
    """``$QG_STUDIO_HOME`` if set, else the platform's per-user data folder."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("qg-studio", appauthor=False))


@dataclass
class ProjectInfo:
    id: int
    name: str
    settings: dict[str, Any]
    created: float
    updated: float
    stories: int = 0


@dataclass
class StoredStory:
    id: int
    project_id: int
    title: str
    text: str
    sections: list[Section]


class StoreError(RuntimeError):
    pass


class Store:
    def __init__(self, path: str | os.PathLike | None = None):
        if path is None:
            folder = default_data_dir()
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / DB_NAME
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Streamlit runs each session's script in its own thread.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._migrate()

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing ---------------------------------------------------------------------

    @property
    def version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self) -> None:
        current = self.version
        if current > SCHEMA_VERSION:
            raise StoreError(f"{self.path} was written by a newer QG Studio "
                             f"(schema {current}, this one knows {SCHEMA_VERSION})")
        for version in range(current, SCHEMA_VERSION):
            with self.transaction() as db:
                db.executescript_safe(MIGRATIONS[version])
                db.execute(f"PRAGMA user_version={version + 1}")

    @contextmanager
    def transaction(self) -> Iterator["_Tx"]:
        """All-or-nothing: an exception inside rolls every statement back."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield _Tx(self._db)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        else:
            self._db.execute("COMMIT")

    # -- projects ---------------------------------------------------------------------

    def create_project(self, name: str, settings: dict[str, Any] | None = None) -> int:
        name = name.strip() or "Untitled project"
        now = time.time()
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO project(name, settings, created, updated) VALUES (?,?,?,?)",
                (name, json.dumps(settings or {}), now, now))
            return int(cur.lastrowid)

    def list_projects(self) -> list[ProjectInfo]:
        rows = self._db.execute(
            "SELECT p.*, (SELECT COUNT(*) FROM story s WHERE s.project_id = p.id) AS n "
            "FROM project p ORDER BY p.updated DESC, p.id DESC").fetchall()
        return [self._project(row) for row in rows]

    def get_project(self, project_id: int) -> ProjectInfo:
        row = self._db.execute(
            "SELECT p.*, (SELECT COUNT(*) FROM story s WHERE s.project_id = p.id) AS n "
            "FROM project p WHERE p.id = ?", (project_id,)).fetchone()
        if row is None:
            raise StoreError(f"no project with id {project_id}")
        return self._project(row)

    def find_project(self, name_or_id: str) -> ProjectInfo:
        """By id, or by exact name (the most recently updated one wins)."""
        if str(name_or_id).isdigit():
            return self.get_project(int(name_or_id))
        for project in self.list_projects():
            if project.name == name_or_id:
                return project
        raise StoreError(f"no project named {name_or_id!r}")

    def rename_project(self, project_id: int, name: str) -> None:
        if not name.strip():
            raise StoreError("a project needs a name")
        self._touch_project(project_id, "name = ?", (name.strip(),))

    def update_settings(self, project_id: int, **changes: Any) -> dict[str, Any]:
        settings = {**self.get_project(project_id).settings, **changes}
        self._touch_project(project_id, "settings = ?", (json.dumps(settings),))
        return settings

    def delete_project(self, project_id: int) -> None:
        with self.transaction() as db:
            story_ids = [r[0] for r in db.execute(
                "SELECT id FROM story WHERE project_id = ?", (project_id,))]
            for story_id in story_ids:
                db.execute("DELETE FROM item_history WHERE story_id = ?", (story_id,))
            db.execute("DELETE FROM project WHERE id = ?", (project_id,))

    def _touch_project(self, project_id: int, assignment: str, values: tuple) -> None:
        with self.transaction() as db:
            cur = db.execute(f"UPDATE project SET {assignment}, updated = ? WHERE id = ?",
                             (*values, time.time(), project_id))
            if cur.rowcount == 0:
                raise StoreError(f"no project with id {project_id}")

    @staticmethod
    def _project(row: sqlite3.Row) -> ProjectInfo:
        return ProjectInfo(id=row["id"], name=row["name"], settings=json.loads(row["settings"]),
                           created=row["created"], updated=row["updated"], stories=row["n"])

    # -- stories and sections ---------------------------------------------------------

    def add_story(self, project_id: int, title: str, text: str,
                  sections: Sequence[Section]) -> int:
        now = time.time()
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO story(project_id, title, text, created, updated) VALUES (?,?,?,?,?)",
                (project_id, title, text, now, now))
            story_id = int(cur.lastrowid)
            self._write_sections(db, story_id, sections)
            db.execute("UPDATE project SET updated = ? WHERE id = ?", (now, project_id))
            return story_id

    def replace_sections(self, story_id: int, sections: Sequence[Section]) -> None:
        """After a teacher merges, splits or edits sections; the story text follows."""
        with self.transaction() as db:
            db.execute("DELETE FROM section WHERE story_id = ?", (story_id,))
            self._write_sections(db, story_id, sections)
            db.execute("UPDATE story SET text = ?, updated = ? WHERE id = ?",
                       ("\n\n".join(s.text for s in sections), time.time(), story_id))

    @staticmethod
    def _write_sections(db: "_Tx", story_id: int, sections: Sequence[Section]) -> None:
        db.executemany("INSERT INTO section(story_id, id, text) VALUES (?,?,?)",
                       [(story_id, s.id, s.text) for s in sections])

    def list_stories(self, project_id: int) -> list[StoredStory]:
        rows = self._db.execute("SELECT id FROM story WHERE project_id = ? ORDER BY id",
                                (project_id,)).fetchall()
        return [self.get_story(r["id"]) for r in rows]

    def latest_story(self, project_id: int) -> StoredStory | None:
        row = self._db.execute("SELECT id FROM story WHERE project_id = ? ORDER BY id DESC",
                               (project_id,)).fetchone()
        return self.get_story(row["id"]) if row else None

    def get_story(self, story_id: int) -> StoredStory:
        row = self._db.execute("SELECT * FROM story WHERE id = ?", (story_id,)).fetchone()
        if row is None:
            raise StoreError(f"no story with id {story_id}")
        sections = [Section(id=r["id"], text=r["text"]) for r in self._db.execute(
            "SELECT id, text FROM section WHERE story_id = ? ORDER BY id", (story_id,))]
        return StoredStory(id=row["id"], project_id=row["project_id"], title=row["title"],
                           text=row["text"], sections=sections)

    def rename_story(self, story_id: int, title: str) -> None:
        with self.transaction() as db:
            db.execute("UPDATE story SET title = ?, updated = ? WHERE id = ?",
                       (title, time.time(), story_id))

    def delete_story(self, story_id: int) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM item_history WHERE story_id = ?", (story_id,))
            db.execute("DELETE FROM story WHERE id = ?", (story_id,))

    # -- question items and their history ---------------------------------------------

    def add_items(self, story_id: int, items: Sequence[QAItem], actor: str) -> list[int]:
        """Append items; ``actor`` is the engine name or the person who wrote them."""
        now = time.time()
        ids: list[int] = []
        with self.transaction() as db:
            start = db.execute("SELECT COALESCE(MAX(position), -1) + 1 FROM item "
                               "WHERE story_id = ?", (story_id,)).fetchone()[0]
            for offset, item in enumerate(items):
                data = item.to_dict()
                data.pop("id", None)
                cur = db.execute(
                    "INSERT INTO item(story_id, position, data, created_by, updated) "
                    "VALUES (?,?,?,?,?)",
                    (story_id, start + offset, json.dumps(data), actor, now))
                item_id = int(cur.lastrowid)
                ids.append(item_id)
                self._log(db, item_id, story_id, actor, "create", None, data, now)
        for item, item_id in zip(items, ids):
            item.id = item_id
        return ids

    def list_items(self, story_id: int) -> list[QAItem]:
        rows = self._db.execute("SELECT id, data FROM item WHERE story_id = ? "
                                "ORDER BY position, id", (story_id,)).fetchall()
        return [self._item(row) for row in rows]

    def get_item(self, item_id: int) -> QAItem:
        row = self._db.execute("SELECT id, data FROM item WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise StoreError(f"no question item with id {item_id}")
        return self._item(row)

    def update_item(self, item_id: int, actor: str, **changes: Any) -> QAItem:
        """Apply field changes (validated through :class:`QAItem`) and log before/after."""
        with self.transaction() as db:
            row = db.execute("SELECT story_id, data FROM item WHERE id = ?",
                             (item_id,)).fetchone()
            if row is None:
                raise StoreError(f"no question item with id {item_id}")
            before = json.loads(row["data"])
            merged = QAItem.from_dict({**before, **_jsonable(changes)}).to_dict()
            merged.pop("id", None)
            if merged == before:
                return QAItem.from_dict({**merged, "id": item_id})
            now = time.time()
            db.execute("UPDATE item SET data = ?, updated = ? WHERE id = ?",
                       (json.dumps(merged), now, item_id))
            changed = {k: merged[k] for k in merged if merged[k] != before.get(k)}
            self._log(db, item_id, row["story_id"], actor, "edit",
                      {k: before.get(k) for k in changed}, changed, now)
        return QAItem.from_dict({**merged, "id": item_id})

    def move_item(self, item_id: int, new_index: int, actor: str) -> None:
        """Reorder: put the item at ``new_index`` in its story's list."""
        with self.transaction() as db:
            story_id = db.execute("SELECT story_id FROM item WHERE id = ?",
                                  (item_id,)).fetchone()["story_id"]
            order = [r[0] for r in db.execute(
                "SELECT id FROM item WHERE story_id = ? ORDER BY position, id", (story_id,))]
            old_index = order.index(item_id)
            order.insert(max(0, min(new_index, len(order) - 1)), order.pop(old_index))
            db.executemany("UPDATE item SET position = ? WHERE id = ?",
                           [(pos, iid) for pos, iid in enumerate(order)])
            self._log(db, item_id, story_id, actor, "move", {"position": old_index},
                      {"position": order.index(item_id)}, time.time())

    def delete_items(self, story_id: int, item_ids: Sequence[int], actor: str) -> None:
        now = time.time()
        with self.transaction() as db:
            for item_id in item_ids:
                row = db.execute("SELECT data, position FROM item WHERE id = ? AND story_id = ?",
                                 (item_id, story_id)).fetchone()
                if row is None:
                    continue
                before = {**json.loads(row["data"]), "position": row["position"]}
                db.execute("DELETE FROM item WHERE id = ?", (item_id,))
                self._log(db, item_id, story_id, actor, "delete", before, None, now)

    def history(self, story_id: int, item_id: int | None = None) -> list[dict[str, Any]]:
        sql = "SELECT * FROM item_history WHERE story_id = ?"
        args: tuple = (story_id,)
        if item_id is not None:
            sql += " AND item_id = ?"
            args += (item_id,)
        rows = self._db.execute(sql + " ORDER BY id", args).fetchall()
        return [{"id": r["id"], "item_id": r["item_id"], "actor": r["actor"],
                 "action": r["action"], "at": r["at"],
                 "before": json.loads(r["before"]) if r["before"] else None,
                 "after": json.loads(r["after"]) if r["after"] else None} for r in rows]

    def created_by(self, item_id: int) -> str:
        row = self._db.execute("SELECT created_by FROM item WHERE id = ?", (item_id,)).fetchone()
        return row["created_by"] if row else ""

    def undo(self, story_id: int, actor: str) -> dict[str, Any] | None:
        """Revert the story's most recent change that is not itself an undo.

        Returns the history entry undone, or None when there is nothing to undo.
        """
        with self.transaction() as db:
            rows = db.execute("SELECT * FROM item_history WHERE story_id = ? ORDER BY id DESC",
                              (story_id,)).fetchall()
            undone = {json.loads(r["after"])["undoes"] for r in rows
                      if r["action"] == "undo" and r["after"]}
            target = next((r for r in rows if r["action"] != "undo" and r["id"] not in undone),
                          None)
            if target is None:
                return None
            before = json.loads(target["before"]) if target["before"] else None
            item_id = target["item_id"]
            if target["action"] == "create":
                db.execute("DELETE FROM item WHERE id = ?", (item_id,))
            elif target["action"] == "delete":
                position = before.pop("position", 0)
                db.execute("INSERT INTO item(id, story_id, position, data, created_by, updated) "
                           "VALUES (?,?,?,?,?,?)",
                           (item_id, story_id, position, json.dumps(before), actor, time.time()))
            elif target["action"] == "edit":
                current = json.loads(db.execute("SELECT data FROM item WHERE id = ?",
                                                (item_id,)).fetchone()["data"])
                db.execute("UPDATE item SET data = ?, updated = ? WHERE id = ?",
                           (json.dumps({**current, **before}), time.time(), item_id))
            elif target["action"] == "move":
                pass  # order is cosmetic; undoing a move is recorded but leaves the order
            self._log(db, item_id, story_id, actor, "undo", None, {"undoes": target["id"]},
                      time.time())
            return {"action": target["action"], "item_id": item_id}

    @staticmethod
    def _log(db: "_Tx", item_id: int, story_id: int, actor: str, action: str,
             before: Any, after: Any, at: float) -> None:
        db.execute("INSERT INTO item_history(item_id, story_id, actor, action, before, after, at) "
                   "VALUES (?,?,?,?,?,?,?)",
                   (item_id, story_id, actor, action,
                    json.dumps(before) if before is not None else None,
                    json.dumps(after) if after is not None else None, at))

    @staticmethod
    def _item(row: sqlite3.Row) -> QAItem:
        return QAItem.from_dict({**json.loads(row["data"]), "id": row["id"]})


class _Tx:
    """The connection as seen inside a transaction (executescript would COMMIT early)."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def execute(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        return self._db.execute(sql, args)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> sqlite3.Cursor:
        return self._db.executemany(sql, rows)

    def executescript_safe(self, script: str) -> None:
        for statement in script.split(";"):
            if statement.strip():
                self._db.execute(statement)


def _jsonable(changes: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if hasattr(value, "value"):
            value = value.value
        elif isinstance(value, list):
            value = [v.to_dict() if hasattr(v, "to_dict") else v for v in value]
        out[key] = value
    return out
