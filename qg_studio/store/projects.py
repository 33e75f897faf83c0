"""Projects and their stories, each visible only to the user who owns it."""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from typing import Any
from typing import Sequence

from qg_studio.schema import Section
from qg_studio.store.base import STALE_MESSAGE
from qg_studio.store.base import StaleEditError
from qg_studio.store.base import StoreBase
from qg_studio.store.base import StoreError
from qg_studio.store.base import known_id


@dataclass
class ProjectInfo:
    id: int
    name: str
    settings: dict[str, Any]
    created: float
    updated: float
    stories: int = 0
    owner: str = ""


@dataclass
class StoredStory:
    id: int
    project_id: int
    title: str
    text: str
    sections: list[Section]
    version: int = 1  # pass it back to replace_sections to detect a concurrent edit


_PROJECT_SQL = (
    "SELECT p.*, (SELECT COUNT(*) FROM story s WHERE s.project_id = p.id) AS n "
    "FROM project p WHERE p.owner = ?"
)


class ProjectStore(StoreBase):
    # -- projects ---------------------------------------------------------------------

    def create_project(
        self, name: str, settings: dict[str, Any] | None = None, import_key: str | None = None
    ) -> int:
        """A new project of the acting user; ``import_key`` names its source, once per user."""
        name = name.strip() or "Untitled project"
        now = time.time()
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO project(owner, name, settings, import_key, created, updated) "
                "VALUES (?,?,?,?,?,?)",
                (self.user, name, json.dumps(settings or {}), import_key, now, now),
            )
            return int(cur.lastrowid)

    def imported_project(self, import_key: str) -> int | None:
        """The user's project made from ``import_key``, if an import already made it."""
        row = self._db.execute(
            "SELECT id FROM project WHERE owner = ? AND import_key = ?", (self.user, import_key)
        ).fetchone()
        return row["id"] if row else None

    def list_projects(self) -> list[ProjectInfo]:
        rows = self._db.execute(
            _PROJECT_SQL + " ORDER BY p.updated DESC, p.id DESC", (self.user,)
        ).fetchall()
        return [self._project(row) for row in rows]

    def get_project(self, project_id: int) -> ProjectInfo:
        known_id(project_id, "project")
        row = self._db.execute(_PROJECT_SQL + " AND p.id = ?", (self.user, project_id)).fetchone()
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
        with self.transaction():
            self._touch_project(project_id, "name = ?", (name.strip(),))

    def update_settings(self, project_id: int, **changes: Any) -> dict[str, Any]:
        """Merge ``changes`` into the settings; read and written under one write lock."""
        with self.transaction():
            settings = {**json.loads(self._own_project(project_id)["settings"]), **changes}
            self._touch_project(project_id, "settings = ?", (json.dumps(settings),))
        return settings

    def delete_project(self, project_id: int) -> None:
        with self.transaction() as db:
            self._own_project(project_id)
            db.execute(
                "DELETE FROM item_history WHERE story_id IN "
                "(SELECT id FROM story WHERE project_id = ?)",
                (project_id,),
            )
            db.execute("DELETE FROM project WHERE id = ?", (project_id,))

    def _touch_project(self, project_id: int, assignment: str, values: tuple) -> None:
        cur = self._db.execute(
            f"UPDATE project SET {assignment}, updated = ? WHERE id = ? AND owner = ?",
            (*values, time.time(), project_id, self.user),
        )
        if cur.rowcount == 0:
            raise StoreError(f"no project with id {project_id}")

    @staticmethod
    def _project(row: sqlite3.Row) -> ProjectInfo:
        return ProjectInfo(
            id=row["id"],
            name=row["name"],
            settings=json.loads(row["settings"]),
            created=row["created"],
            updated=row["updated"],
            stories=row["n"],
            owner=row["owner"],
        )

    # -- stories and sections ---------------------------------------------------------

    def add_story(self, project_id: int, title: str, text: str, sections: Sequence[Section]) -> int:
        now = time.time()
        with self.transaction() as db:
            self._own_project(project_id)
            cur = db.execute(
                "INSERT INTO story(project_id, title, text, created, updated) VALUES (?,?,?,?,?)",
                (project_id, title, text, now, now),
            )
            story_id = int(cur.lastrowid)
            self._write_sections(story_id, sections)
            db.execute("UPDATE project SET updated = ? WHERE id = ?", (now, project_id))
            return story_id

    def replace_sections(
        self, story_id: int, sections: Sequence[Section], expected_version: int | None = None
    ) -> int:
        """After a teacher merges, splits or edits sections; the story text follows.

        With ``expected_version`` (the :attr:`StoredStory.version` the editor loaded) the
        change is refused with :class:`StaleEditError` when someone saved in between.
        Returns the story's new version.
        """
        with self.transaction() as db:
            row = self._own_story(story_id)
            if expected_version is not None and row["version"] != expected_version:
                raise StaleEditError(STALE_MESSAGE.format(what=f"Story {row['title']!r}"))
            db.execute("DELETE FROM section WHERE story_id = ?", (story_id,))
            self._write_sections(story_id, sections)
            db.execute(
                "UPDATE story SET text = ?, updated = ?, version = version + 1 WHERE id = ?",
                ("\n\n".join(s.text for s in sections), time.time(), story_id),
            )
            return row["version"] + 1

    def _write_sections(self, story_id: int, sections: Sequence[Section]) -> None:
        self._db.executemany(
            "INSERT INTO section(story_id, id, text) VALUES (?,?,?)",
            [(story_id, s.id, s.text) for s in sections],
        )

    def replace_story(
        self, project_id: int, title: str, text: str, sections: Sequence[Section]
    ) -> tuple[int, list[int]]:
        """The project's story becomes this one; each story it had before, with its
        questions and history, moves to a project of its own named after it, so nothing
        is lost and the project picker still reaches it. (new story id, set-aside
        project ids), in one transaction."""
        now = time.time()
        with self.transaction() as db:
            project = self._own_project(project_id)
            old = db.execute(
                "SELECT id, title FROM story WHERE project_id = ? ORDER BY id", (project_id,)
            ).fetchall()
            aside = []
            for row in old:
                name = f"{project['name']} – {row['title'] or 'earlier story'} (replaced)"
                cur = db.execute(
                    "INSERT INTO project(owner, name, settings, created, updated) "
                    "VALUES (?,?,?,?,?)",
                    (self.user, name, project["settings"], now, now),
                )
                db.execute(
                    "UPDATE story SET project_id = ? WHERE id = ?", (cur.lastrowid, row["id"])
                )
                aside.append(int(cur.lastrowid))
            return self.add_story(project_id, title, text, sections), aside

    def list_stories(self, project_id: int) -> list[StoredStory]:
        self._own_project(project_id)
        rows = self._db.execute(
            "SELECT id FROM story WHERE project_id = ? ORDER BY id", (project_id,)
        ).fetchall()
        return [self.get_story(r["id"]) for r in rows]

    def latest_story(self, project_id: int) -> StoredStory | None:
        self._own_project(project_id)
        row = self._db.execute(
            "SELECT id FROM story WHERE project_id = ? ORDER BY id DESC", (project_id,)
        ).fetchone()
        return self.get_story(row["id"]) if row else None

    def get_story(self, story_id: int) -> StoredStory:
        with self.snapshot():
            row = self._own_story(story_id)
            sections = [
                Section(id=r["id"], text=r["text"])
                for r in self._db.execute(
                    "SELECT id, text FROM section WHERE story_id = ? ORDER BY id", (story_id,)
                )
            ]
        return StoredStory(
            id=row["id"],
            project_id=row["project_id"],
            title=row["title"],
            text=row["text"],
            sections=sections,
            version=row["version"],
        )

    def rename_story(self, story_id: int, title: str) -> None:
        with self.transaction() as db:
            self._own_story(story_id)
            db.execute(
                "UPDATE story SET title = ?, updated = ? WHERE id = ?",
                (title, time.time(), story_id),
            )

    def delete_story(self, story_id: int) -> None:
        with self.transaction() as db:
            self._own_story(story_id)
            db.execute("DELETE FROM item_history WHERE story_id = ?", (story_id,))
            db.execute("DELETE FROM story WHERE id = ?", (story_id,))
