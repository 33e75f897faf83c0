"""Question items, their history, and undo: per user, per story, never across either."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any
from typing import Sequence

from qg_studio.schema import QAItem
from qg_studio.store.base import STALE_MESSAGE
from qg_studio.store.base import StaleEditError
from qg_studio.store.base import StoreError
from qg_studio.store.base import jsonable
from qg_studio.store.projects import ProjectStore


class Store(ProjectStore):
    """The project store, as seen by one user (``Store(path, user=...)``, or :meth:`as_user`)."""

    def add_items(
        self, story_id: int, items: Sequence[QAItem], actor: str, label: str = ""
    ) -> list[int]:
        """Append items; ``actor`` is the engine name or the person who wrote them; one
        step of the history, called ``label``."""
        now = time.time()
        ids: list[int] = []
        with self.transaction(label) as db:
            self._own_story(story_id)
            start = db.execute(
                "SELECT COALESCE(MAX(position), -1) + 1 FROM item WHERE story_id = ?", (story_id,)
            ).fetchone()[0]
            for offset, item in enumerate(items):
                data = item.to_dict()
                data.pop("id", None)
                cur = db.execute(
                    "INSERT INTO item(story_id, position, data, created_by, updated) "
                    "VALUES (?,?,?,?,?)",
                    (story_id, start + offset, json.dumps(data), actor, now),
                )
                item_id = int(cur.lastrowid)
                ids.append(item_id)
                self._log(item_id, story_id, actor, "create", None, data, now)
        for item, item_id in zip(items, ids):
            item.id = item_id
        return ids

    def list_items(self, story_id: int) -> list[QAItem]:
        with self.snapshot() as db:
            self._own_story(story_id)
            rows = db.execute(
                "SELECT id, data FROM item WHERE story_id = ? ORDER BY position, id", (story_id,)
            ).fetchall()
        return [self._item(row) for row in rows]

    def get_item(self, item_id: int) -> QAItem:
        row = self._own_item(item_id)
        if row is None:
            raise StoreError(f"no question item with id {item_id}")
        return self._item(row)

    def update_item(
        self, item_id: int, actor: str, *, seen: QAItem | None = None, **changes: Any
    ) -> QAItem:
        """Apply field changes (validated through :class:`QAItem`) and log before/after.

        ``seen`` is the item as the editor loaded it: when a field being changed has been
        saved by someone else since, nothing is written and :class:`StaleEditError` says so.
        Changes to different fields of one item by two people both stand.
        """
        with self.transaction() as db:
            row = self._own_item(item_id)
            if row is None:
                raise StoreError(f"no question item with id {item_id}")
            before = json.loads(row["data"])
            merged = QAItem.from_dict({**before, **jsonable(changes)}).to_dict()
            merged.pop("id", None)
            if seen is not None:
                loaded = seen.to_dict()
                if any(
                    before.get(k) != loaded.get(k) and before.get(k) != merged[k]
                    for k in merged
                    if merged[k] != loaded.get(k)
                ):
                    raise StaleEditError(STALE_MESSAGE.format(what=f"Question {item_id}"))
            if merged == before:
                return QAItem.from_dict({**merged, "id": item_id})
            now = time.time()
            db.execute(
                "UPDATE item SET data = ?, updated = ? WHERE id = ?",
                (json.dumps(merged), now, item_id),
            )
            changed = {k: merged[k] for k in merged if merged[k] != before.get(k)}
            self._log(
                item_id,
                row["story_id"],
                actor,
                "edit",
                {k: before.get(k) for k in changed},
                changed,
                now,
            )
        return QAItem.from_dict({**merged, "id": item_id})

    def set_status(
        self, story_id: int, item_ids: Sequence[int], status, actor: str, label: str = ""
    ) -> None:
        """Keep or drop several questions as one action (one undo, one History line)."""
        with self.transaction(label):
            self._own_story(story_id)
            for item_id in item_ids:
                self.update_item(item_id, actor, status=status)

    def move_item(self, item_id: int, new_index: int, actor: str) -> None:
        """Reorder: put the item at ``new_index`` in its story's list."""
        with self.transaction() as db:
            row = self._own_item(item_id)
            if row is None:
                raise StoreError(f"no question item with id {item_id}")
            story_id = row["story_id"]
            order = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM item WHERE story_id = ? ORDER BY position, id", (story_id,)
                )
            ]
            old_index = order.index(item_id)
            order.insert(max(0, min(new_index, len(order) - 1)), order.pop(old_index))
            db.executemany(
                "UPDATE item SET position = ? WHERE id = ?",
                [(pos, iid) for pos, iid in enumerate(order)],
            )
            self._log(
                item_id,
                story_id,
                actor,
                "move",
                {"position": old_index},
                {"position": order.index(item_id)},
                time.time(),
            )

    def delete_items(self, story_id: int, item_ids: Sequence[int], actor: str) -> None:
        now = time.time()
        with self.transaction() as db:
            self._own_story(story_id)
            for item_id in item_ids:
                row = db.execute(
                    "SELECT data, position FROM item WHERE id = ? AND story_id = ?",
                    (item_id, story_id),
                ).fetchone()
                if row is None:
                    continue
                before = {**json.loads(row["data"]), "position": row["position"]}
                db.execute("DELETE FROM item WHERE id = ?", (item_id,))
                self._log(item_id, story_id, actor, "delete", before, None, now)

    def replace_items(
        self,
        story_id: int,
        old_ids: Sequence[int],
        fresh: Sequence[QAItem],
        actor: str,
        added_by: str,
        label: str = "regenerated",
    ) -> list[int]:
        """Regenerate: the old items out and the new ones in, in one transaction and one
        step of the history (``actor`` is who asked, ``added_by`` the engine that wrote the
        new ones)."""
        with self.transaction(label):
            self.delete_items(story_id, old_ids, actor)
            return self.add_items(story_id, fresh, actor=added_by)

    def history(self, story_id: int, item_id: int | None = None) -> list[dict[str, Any]]:
        """The story's changes, oldest first; ``user`` is who was signed in, ``actor`` the
        engine or person named as their author."""
        self._own_story(story_id)
        sql = "SELECT * FROM item_history WHERE story_id = ?"
        args: tuple = (story_id,)
        if item_id is not None:
            sql += " AND item_id = ?"
            args += (item_id,)
        rows = self._db.execute(sql + " ORDER BY id", args).fetchall()
        return [
            {
                "id": r["id"],
                "item_id": r["item_id"],
                "actor": r["actor"],
                "user": r["user_id"],
                "action": r["action"],
                "at": r["at"],
                "before": json.loads(r["before"]) if r["before"] else None,
                "after": json.loads(r["after"]) if r["after"] else None,
                "step": r["step"] or r["id"],
                "label": r["label"] or "",
            }
            for r in rows
        ]

    def earlier_questions(self, story_id: int) -> list[tuple[int, str]]:
        """(item id, wording) for every wording of a question that an edit replaced: the
        teacher's rewrite stands for good, the first wording is not to be asked again."""
        return [
            (entry["item_id"], entry["before"]["question"])
            for entry in self.history(story_id)
            if entry["action"] == "edit"
            and isinstance(entry["before"], dict)
            and str(entry["before"].get("question") or "").strip()
        ]

    def created_by(self, item_id: int) -> str:
        row = self._own_item(item_id)
        return row["created_by"] if row else ""

    def undo(self, story_id: int, actor: str) -> dict[str, Any] | None:
        """Revert this user's most recent action on the story that is not itself undone:
        every change it made (a regenerate's additions and removals alike), newest first.

        Others' changes are never reverted: an edit is undone only on the fields that
        still hold this user's value. Returns ``{"action", "item_id", "applied", "changes",
        "label"}`` (applied is False when someone else's later change left nothing to
        revert), or None when the user has nothing left to undo here.
        """
        with self.transaction() as db:
            self._own_story(story_id)
            rows = db.execute(
                "SELECT * FROM item_history WHERE story_id = ? AND user_id = ? ORDER BY id DESC",
                (story_id, self.user),
            ).fetchall()
            undone = {
                json.loads(r["after"])["undoes"]
                for r in rows
                if r["action"] == "undo" and r["after"]
            }
            live = [r for r in rows if r["action"] != "undo" and r["id"] not in undone]
            if not live:
                return None
            step = live[0]["step"] or live[0]["id"]
            action = [r for r in live if (r["step"] or r["id"]) == step]
            if action[-1]["label"]:  # the undo is one history line too
                self._connections.local.label = f"undid: {action[-1]['label']}"
            applied = False
            for row in action:  # newest first: a later change is reverted before an earlier
                applied = self._revert(story_id, row, actor) or applied
                self._log(
                    row["item_id"],
                    story_id,
                    actor,
                    "undo",
                    None,
                    {"undoes": row["id"]},
                    time.time(),
                )
            first = action[-1]
            return {
                "action": first["action"],
                "item_id": first["item_id"],
                "applied": applied,
                "changes": len(action),
                "label": first["label"] or "",
            }

    def _revert(self, story_id: int, target: sqlite3.Row, actor: str) -> bool:
        db, item_id = self._db, target["item_id"]
        before = json.loads(target["before"]) if target["before"] else None
        current = db.execute("SELECT data FROM item WHERE id = ?", (item_id,)).fetchone()
        if target["action"] == "create":
            db.execute("DELETE FROM item WHERE id = ?", (item_id,))
            return current is not None
        if target["action"] == "delete":
            if current is not None:
                return False  # already back
            position = before.pop("position", 0)
            # Ids are never reused (AUTOINCREMENT), so the old id is still free.
            db.execute(
                "INSERT INTO item(id, story_id, position, data, created_by, updated) "
                "VALUES (?,?,?,?,?,?)",
                (item_id, story_id, position, json.dumps(before), actor, time.time()),
            )
            return True
        if target["action"] == "edit" and current is not None:
            data = json.loads(current["data"])
            after = json.loads(target["after"])
            mine = {k: v for k, v in before.items() if data.get(k) == after.get(k)}
            if mine:
                db.execute(
                    "UPDATE item SET data = ?, updated = ? WHERE id = ?",
                    (json.dumps({**data, **mine}), time.time(), item_id),
                )
            return bool(mine)
        return False  # a move (order is cosmetic), or an edit of an item since deleted

    def _log(
        self,
        item_id: int,
        story_id: int,
        actor: str,
        action: str,
        before: Any,
        after: Any,
        at: float,
    ) -> None:
        local = self._connections.local
        cur = self._db.execute(
            "INSERT INTO item_history(item_id, story_id, user_id, actor, action, before, "
            "after, at, step, label) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                item_id,
                story_id,
                self.user,
                actor,
                action,
                json.dumps(before) if before is not None else None,
                json.dumps(after) if after is not None else None,
                at,
                getattr(local, "step", None),
                getattr(local, "label", "") or None,
            ),
        )
        if getattr(local, "step", None) is None:
            # The transaction's first row names its step: every row it writes shares it.
            local.step = cur.lastrowid
            self._db.execute("UPDATE item_history SET step = id WHERE id = ?", (cur.lastrowid,))

    @staticmethod
    def _item(row: sqlite3.Row) -> QAItem:
        return QAItem.from_dict({**json.loads(row["data"]), "id": row["id"]})
