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

# Import the first story, then die with SIGKILL inside the second story's transaction
# (after its project row, story and items were written, before the commit).
KILLED_IMPORT = textwrap.dedent("""
    import os, signal, sys
    from qg_studio.data import projects
    from qg_studio.data.fairytaleqa import read_split
    from qg_studio.store import Store

    store = Store()
    stories = read_split(sys.argv[1], "val")
    projects.import_story(store, stories[0])
    def die(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)
    store.update_settings = die
    projects.import_story(store, stories[1])
""")


def _projects(home) -> dict[str, tuple[int, int]]:
    """name -> (stories, items) for every project in the store."""
    with Store(home / "qg_studio.sqlite3") as store:
        out = {}
        for project in store.list_projects():
            assert project.name not in out, f"{project.name} imported twice"
            stories = store.list_stories(project.id)
            out[project.name] = (len(stories),
                                 sum(len(store.list_items(s.id)) for s in stories))
        return out


def test_kill_9_mid_import_then_rerun_gives_one_whole_copy(tmp_path, monkeypatch, capsys):
    data = write_fixture(tmp_path / "ftqa")
    home = tmp_path / "home"
    env = {**os.environ, "QG_STUDIO_HOME": str(home)}
    killed = subprocess.run([sys.executable, "-c", KILLED_IMPORT, str(data)], env=env,
                            capture_output=True, text=True, timeout=120)
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
