"""The store's schema as numbered migrations (``PRAGMA user_version`` says which ran).

Version 2 gives every project an owner (existing projects go to the local user), gives
stories a version for optimistic concurrency, records the acting user in the history,
and makes ids AUTOINCREMENT so an id freed by a delete is never handed out again (an
undo that re-inserts a deleted item could otherwise collide with a newer one).
"""

from __future__ import annotations

LOCAL_USER = "local"

_V1 = """
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
"""

# SQLite cannot add AUTOINCREMENT to a table, so each table is rebuilt (new table, copy,
# drop, rename; foreign keys are off while this runs, see migrate()).
_V2 = f"""
CREATE TABLE project_v2 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{{}}',
    import_key TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
INSERT INTO project_v2(id, owner, name, settings, created, updated)
    SELECT id, '{LOCAL_USER}', name, settings, created, updated FROM project;
DROP TABLE project;
ALTER TABLE project_v2 RENAME TO project;
CREATE INDEX project_owner ON project(owner, updated);
CREATE UNIQUE INDEX project_import ON project(owner, import_key);
CREATE TABLE story_v2 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    title TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
INSERT INTO story_v2(id, project_id, title, text, created, updated)
    SELECT id, project_id, title, text, created, updated FROM story;
DROP TABLE story;
ALTER TABLE story_v2 RENAME TO story;
CREATE INDEX story_project ON story(project_id);
CREATE TABLE item_v2 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    story_id INTEGER NOT NULL REFERENCES story(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    data TEXT NOT NULL,
    created_by TEXT NOT NULL,
    updated REAL NOT NULL
);
INSERT INTO item_v2 SELECT id, story_id, position, data, created_by, updated FROM item;
DROP TABLE item;
ALTER TABLE item_v2 RENAME TO item;
CREATE INDEX item_story ON item(story_id, position);
CREATE TABLE item_history_v2 (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    item_id INTEGER NOT NULL,
    story_id INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    before TEXT,
    after TEXT,
    at REAL NOT NULL
);
INSERT INTO item_history_v2(id, item_id, story_id, user_id, actor, action, before, after, at)
    SELECT id, item_id, story_id, '{LOCAL_USER}', actor, action, before, after, at
    FROM item_history;
DROP TABLE item_history;
ALTER TABLE item_history_v2 RENAME TO item_history;
CREATE INDEX history_story ON item_history(story_id, user_id, id);
DELETE FROM sqlite_sequence WHERE name = 'item';
INSERT INTO sqlite_sequence(name, seq) VALUES ('item', (SELECT MAX(
    (SELECT COALESCE(MAX(id), 0) FROM item),
    (SELECT COALESCE(MAX(item_id), 0) FROM item_history))))
"""

# One teacher action (a regenerate, a generate, a bulk keep) writes many rows: ``step``
# groups them (the first row's id; older rows are each their own step) so that one undo
# reverts the whole action, and ``label`` says what it was in the teacher's words.
_V3 = """
ALTER TABLE item_history ADD COLUMN step INTEGER;
ALTER TABLE item_history ADD COLUMN label TEXT
"""

# Index i holds the SQL that takes a file from version i to i + 1.
MIGRATIONS: list[str] = [_V1, _V2, _V3]
SCHEMA_VERSION = len(MIGRATIONS)


def statements(script: str) -> list[str]:
    """One script as statements (executescript would COMMIT inside our transaction)."""
    return [s for s in script.split(";") if s.strip()]
