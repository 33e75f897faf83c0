"""Connections, transactions and ownership checks shared by the store's parts.

Each thread gets its own SQLite connection (Streamlit runs every browser session's
script in a thread of its own, and one connection cannot hold two transactions at
once). Writes start with ``BEGIN IMMEDIATE`` so the write lock is taken before the
first read, and SQLite's busy timeout makes a second writer wait instead of failing.
A transaction opened inside another joins it, so a use case made of several store
calls (an import, a regenerate) commits once or not at all.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any
from typing import Iterator

from qg_studio.store.schema import LOCAL_USER
from qg_studio.store.schema import MIGRATIONS
from qg_studio.store.schema import SCHEMA_VERSION
from qg_studio.store.schema import statements

DATA_DIR_ENV = "QG_STUDIO_HOME"
DB_NAME = "qg_studio.sqlite3"
BUSY_TIMEOUT_MS = 30_000
BUSY_SETTING = "QG_STUDIO_BUSY_TIMEOUT_MS"  # how long a write waits for another writer


def busy_timeout_ms() -> int:
    try:
        return max(0, int(os.environ.get(BUSY_SETTING, BUSY_TIMEOUT_MS)))
    except ValueError:
        return BUSY_TIMEOUT_MS


def default_data_dir() -> Path:
    """``$QG_STUDIO_HOME`` if set, else the platform's per-user data folder."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("qg-studio", appauthor=False))


class StoreError(RuntimeError):
    pass


class StaleEditError(StoreError):
    """Someone else saved the same thing after this editor loaded it; nothing was written."""


STALE_MESSAGE = (
    "{what} was changed by someone else since you opened it; "
    "reload to see their version, then make your change again"
)


@dataclass
class _Connections:
    """One connection per thread to one database file."""

    path: Path
    local: threading.local = field(default_factory=threading.local)
    opened: list[tuple[threading.Thread, sqlite3.Connection]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    migrated: bool = False

    def get(self) -> sqlite3.Connection:
        db = getattr(self.local, "db", None)
        if db is None:
            # check_same_thread=False only so close() may close every thread's connection.
            db = sqlite3.connect(
                self.path,
                isolation_level=None,
                check_same_thread=False,
                timeout=busy_timeout_ms() / 1000,
            )
            db.row_factory = sqlite3.Row
            db.execute(f"PRAGMA busy_timeout={busy_timeout_ms()}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            self.local.db, self.local.depth = db, 0
            with self.lock:
                # Streamlit runs each script run in a new thread: close what ended threads
                # left open, or a long-running server would collect connections.
                for thread, old in self.opened:
                    if not thread.is_alive():
                        old.close()
                self.opened = [(t, c) for t, c in self.opened if t.is_alive()]
                self.opened.append((threading.current_thread(), db))
        return db

    def close(self) -> None:
        with self.lock:
            for _, db in self.opened:
                db.close()
            self.opened.clear()
        self.local = threading.local()


class StoreBase:
    """The plumbing: which file, which user, and how a change is committed."""

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        user: str = LOCAL_USER,
        *,
        _connections: _Connections | None = None,
    ):
        if _connections is None:
            if path is None:
                path = default_data_dir() / DB_NAME
            path = Path(path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"cannot make the folder for the project store {path}: "
                    f"{exc.strerror or exc}; set QG_STUDIO_HOME to a folder you can write"
                ) from None
            _connections = _Connections(path)
        if not user:
            raise StoreError("a store needs the acting user")
        self._connections = _connections
        self.path = _connections.path
        self.user = user
        if not _connections.migrated:
            try:
                self._migrate()
            except sqlite3.DatabaseError as exc:
                if type(exc) not in (sqlite3.OperationalError, sqlite3.DatabaseError):
                    raise  # an IntegrityError or the like is a bug, not a damaged file
                raise StoreError(store_problem(exc, self.path)) from None
            _connections.migrated = True

    def as_user(self, user: str) -> "StoreBase":
        """The same database seen and changed as ``user`` (connections are shared)."""
        return type(self)(user=user, _connections=self._connections)

    def close(self) -> None:
        self._connections.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _db(self) -> sqlite3.Connection:
        return self._connections.get()

    @property
    def version(self) -> int:
        return self._db.execute("PRAGMA user_version").fetchone()[0]

    def _migrate(self) -> None:
        if self.version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer QG Studio "
                f"(schema {self.version}, this one knows {SCHEMA_VERSION})"
            )
        if self.version == SCHEMA_VERSION:
            return
        db = self._db
        db.execute("PRAGMA foreign_keys=OFF")  # tables are rebuilt; no cascade may fire
        try:
            with self.transaction():
                # Read again under the write lock: another process may have migrated.
                for version in range(self.version, SCHEMA_VERSION):
                    for statement in statements(MIGRATIONS[version]):
                        db.execute(statement)
                    db.execute(f"PRAGMA user_version={version + 1}")
                problems = db.execute("PRAGMA foreign_key_check").fetchall()
                if problems:
                    raise StoreError(f"{self.path}: migration broke {len(problems)} links")
        finally:
            db.execute("PRAGMA foreign_keys=ON")

    def transaction(self, label: str = ""):
        """All-or-nothing; a transaction opened inside another one joins it. Its changes
        are one step of the history (one undo), called ``label`` where one is given."""
        return self._begin("BEGIN IMMEDIATE", label)

    def snapshot(self):
        """Several reads that see one state of the file, without taking the write lock."""
        return self._begin("BEGIN DEFERRED")

    @contextmanager
    def _begin(self, begin: str, label: str = "") -> Iterator[sqlite3.Connection]:
        db = self._db
        local = self._connections.local
        if local.depth:
            if label and not getattr(local, "label", ""):
                local.label = label
            local.depth += 1
            try:
                yield db
            finally:
                local.depth -= 1
            return
        try:
            db.execute(begin)
        except sqlite3.OperationalError as exc:  # busy past the timeout, read-only, gone
            raise StoreError(store_problem(exc, self.path)) from None
        local.depth, local.step, local.label = 1, None, label
        try:
            yield db
        except BaseException as exc:
            local.depth = 0
            db.execute("ROLLBACK")
            if type(exc) is sqlite3.OperationalError:  # a write refused: nothing was written
                raise StoreError(store_problem(exc, self.path)) from None
            raise
        local.depth = 0
        try:
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            db.execute("ROLLBACK")
            raise StoreError(store_problem(exc, self.path)) from None

    # -- ownership: an id that is not the user's reads exactly like one that does not exist

    def _own_project(self, project_id: int) -> sqlite3.Row:
        known_id(project_id, "project")
        row = self._db.execute(
            "SELECT * FROM project WHERE id = ? AND owner = ?", (project_id, self.user)
        ).fetchone()
        if row is None:
            raise StoreError(f"no project with id {project_id}")
        return row

    def _own_story(self, story_id: int) -> sqlite3.Row:
        known_id(story_id, "story")
        row = self._db.execute(
            "SELECT s.* FROM story s JOIN project p ON p.id = s.project_id "
            "WHERE s.id = ? AND p.owner = ?",
            (story_id, self.user),
        ).fetchone()
        if row is None:
            raise StoreError(f"no story with id {story_id}")
        return row

    def _own_item(self, item_id: int) -> sqlite3.Row | None:
        if not _ROW_IDS[0] <= item_id <= _ROW_IDS[1]:
            return None
        return self._db.execute(
            "SELECT i.* FROM item i JOIN story s ON s.id = i.story_id "
            "JOIN project p ON p.id = s.project_id WHERE i.id = ? AND p.owner = ?",
            (item_id, self.user),
        ).fetchone()


def store_problem(exc: sqlite3.Error, path: Path) -> str:
    """One line for a store that cannot be used, saying what to do."""
    said = str(exc).lower()
    if "locked" in said or "busy" in said:
        holders = holding(path)
        who = f" by {', '.join(holders)}" if holders else " by another program"
        return (
            f"the project store {path} stayed busy for {busy_timeout_ms() / 1000:g} s (held{who}); "
            "nothing was changed: try again when it has finished"
        )
    if "readonly" in said or "read-only" in said:
        return f"the project store {path} is read-only: nothing was changed; make it writable"
    if "not a database" in said or "malformed" in said or "corrupt" in said:
        return (
            f"{path} is not a QG Studio project store, or it is damaged: move it aside "
            "(QG Studio then starts a new one) or restore it from a backup"
        )
    if "unable to open" in said:
        kind = "a folder" if path.is_dir() else "unreadable"
        return f"cannot open the project store {path} ({kind}); set QG_STUDIO_HOME to a folder you can write"
    return f"the project store {path} cannot be used: {exc}"


def holding(path: Path) -> list[str]:
    """The other processes that have the store open ("pid 412 (qg-studio)"), as far as this
    system tells (Linux's /proc); [] elsewhere."""
    found = []
    wanted = {str(path.resolve()) + suffix for suffix in ("", "-wal", "-shm")}
    for proc in Path("/proc").glob("[0-9]*"):
        if proc.name == str(os.getpid()):
            continue
        try:
            if any(os.readlink(fd) in wanted for fd in (proc / "fd").iterdir()):
                name = (proc / "comm").read_text().strip()
                found.append(f"pid {proc.name} ({name})")
        except OSError:
            continue
    return found[:3]


_ROW_IDS = (1, 2**63 - 1)  # SQLite's rowids; a larger int cannot even be looked up


def known_id(value: int, what: str) -> None:
    """An id no row can have reads as "no such <what>", like any id that is not yours."""
    if not _ROW_IDS[0] <= value <= _ROW_IDS[1]:
        raise StoreError(f"no {what} with id {value}")


def jsonable(changes: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in changes.items():
        if hasattr(value, "value"):
            value = value.value
        elif isinstance(value, list):
            value = [v.to_dict() if hasattr(v, "to_dict") else v for v in value]
        out[key] = value
    return out
