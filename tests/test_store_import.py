"""`data import` is atomic per story and idempotent: kill -9 mid-import, run it again,
and every story is there exactly once, whole."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

from test_data import write_fixture

from qg_studio.cli import main
from qg_studio.store import Store

# `data import` of two stories, killed with SIGKILL inside the second story's transaction
# (after its project row, story and items were written, before the commit).
KILLED_IMPORT = textwrap.dedent("""
    import os, signal, sys
    from qg_studio.data import projects
    from qg_studio.data.fairytaleqa import read_split
    from qg_studio.store import Store

    store = Store()
    real_update, calls = store.update_settings, []
    def update_then_die(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:  # the second story's last write, inside its transaction
            os.kill(os.getpid(), signal.SIGKILL)
        return real_update(*args, **kwargs)
    store.update_settings = update_then_die
    projects.import_stories(store, read_split(sys.argv[1], "val"))
""")


def _projects(home) -> dict[str, tuple[int, int]]:
    """name -> (stories, items) for every project in the store."""
    with Store(home / "qg_studio.sqlite3") as store:
        out = {}
        for project in store.list_projects():
            assert project.name not in out, f"{project.name} imported twice"
            stories = store.list_stories(project.id)
            out[project.name] = (len(stories), sum(len(store.list_items(s.id)) for s in stories))
        return out


def test_kill_9_mid_import_then_rerun_gives_one_whole_copy(tmp_path, monkeypatch, capsys):
    data = write_fixture(tmp_path / "ftqa")
    home = tmp_path / "home"
    env = {**os.environ, "QG_STUDIO_HOME": str(home)}
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_IMPORT, str(data)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    after_kill = _projects(home)
    assert len(after_kill) == 1  # the first story, whole; nothing of the second
    [(stories, items)] = after_kill.values()
    assert stories == 1 and items > 0

    monkeypatch.setenv("QG_STUDIO_HOME", str(home))
    assert main(["data", "import", str(data), "--split", "val"]) == 0
    assert main(["data", "import", str(data), "--split", "val"]) == 0  # and once more
    assert "imported before" in capsys.readouterr().out
    assert _projects(home) == {"goose-girl": (1, 2), "miller-and-fox": (1, 3)}
    with Store(home / "qg_studio.sqlite3") as store:
        assert store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_an_upload_opened_twice_makes_two_projects_a_dataset_import_one(tmp_path):
    from qg_studio.data.fairytaleqa import read_story
    from qg_studio.data.projects import import_stories
    from qg_studio.data.projects import import_story

    data = write_fixture(tmp_path / "ftqa")
    story = read_story(data, "val", "goose-girl")
    with Store(tmp_path / "db.sqlite3") as store:
        first, second = import_story(store, story), import_story(store, story)
        assert first.project_id != second.project_id and not second.existing
        [again] = import_stories(store, [story])
        assert not again.existing
        assert import_stories(store, [story])[0].project_id == again.project_id
        assert len(store.list_projects()) == 3
