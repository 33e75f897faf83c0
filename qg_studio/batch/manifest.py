"""``manifest.sqlite`` in the output folder: each story done or failed, and the settings.

A story is marked done in one committed transaction *after* its files are in place, so
after a crash the manifest never claims a story whose files are missing; a story whose
files were written but not yet recorded is simply done again (its files are replaced).
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

MANIFEST = "manifest.sqlite"
DONE, FAILED = "done", "failed"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stories (
    key TEXT PRIMARY KEY, name TEXT NOT NULL, split TEXT NOT NULL, status TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '', qa_pairs INTEGER NOT NULL DEFAULT 0,
    sections INTEGER NOT NULL DEFAULT 0, words INTEGER NOT NULL DEFAULT 0,
    seconds REAL NOT NULL DEFAULT 0, cpu_seconds REAL NOT NULL DEFAULT 0,
    worker TEXT NOT NULL DEFAULT '', finished REAL NOT NULL);
"""


class ManifestMismatch(ValueError):
    """The output folder was made by a run with other settings or another corpus."""


class Manifest:
    def __init__(self, out: str | Path):
        self.path = Path(out) / MANIFEST
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")  # a recorded story survives power loss
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    def claim(self, run: dict[str, Any]) -> None:
        """Record this run's settings, or refuse when the folder holds another run's."""
        row = self.db.execute("SELECT value FROM run WHERE key = 'settings'").fetchone()
        if row is None:
            with self.db:
                self.db.execute(
                    "INSERT INTO run VALUES ('settings', ?)", (json.dumps(run, sort_keys=True),)
                )
            return
        old = json.loads(row[0])
        changed = [k for k in sorted(set(old) | set(run)) if old.get(k) != run.get(k)]
        if changed:
            what = ", ".join(f"{k} {old.get(k)!r} (now {run.get(k)!r})" for k in changed)
            raise ManifestMismatch(
                f"{self.path.parent} holds a batch run with other "
                f"settings: {what}; rerun with the same settings or "
                f"choose a new --out"
            )

    def statuses(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, status FROM stories"))

    def record(
        self,
        key: str,
        name: str,
        split: str,
        status: str,
        reason: str = "",
        qa_pairs: int = 0,
        sections: int = 0,
        words: int = 0,
        seconds: float = 0.0,
        cpu_seconds: float = 0.0,
        worker: str = "",
    ) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO stories VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    key,
                    name,
                    split,
                    status,
                    reason,
                    qa_pairs,
                    sections,
                    words,
                    seconds,
                    cpu_seconds,
                    worker,
                    time.time(),
                ),
            )

    def forget(self, keys: list[str]) -> None:
        with self.db:
            self.db.executemany("DELETE FROM stories WHERE key = ?", [(k,) for k in keys])

    def rows(self, status: str | None = None) -> list[dict[str, Any]]:
        cursor = self.db.execute(
            "SELECT * FROM stories" + (" WHERE status = ?" if status else "") + " ORDER BY key",
            (status,) if status else (),
        )
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, r)) for r in cursor]

    def totals(self) -> dict[str, int]:
        done, failed, qa = self.db.execute(
            "SELECT COALESCE(SUM(status = 'done'), 0), COALESCE(SUM(status = 'failed'), 0), "
            "COALESCE(SUM(CASE WHEN status = 'done' THEN qa_pairs END), 0) "
            "FROM stories"
        ).fetchone()
        return {"done": done, "failed": failed, "qa_pairs": qa}
