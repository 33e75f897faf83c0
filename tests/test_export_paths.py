"""Every writer keeps its files inside the folder or at the path it was given (issue 18)."""

from __future__ import annotations

import json
import os

import pytest
from export_story import items
from export_story import sections
from test_data import write_fixture

from qg_studio.cli import main
from qg_studio.paths import UnsafePath
from qg_studio.paths import inside
from qg_studio.paths import output_file


def _tree(root) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _generated(tmp_path, title="Greta: the mill"):
    secs = sections()
    path = tmp_path / "in" / "generated.json"
    path.parent.mkdir()
    path.write_text(
        json.dumps(
            {
                "story": {"title": title},
                "sections": [s.to_dict() for s in secs],
                "items": [i.to_dict() for i in items(secs)],
            }
        )
    )
    return path


@pytest.mark.parametrize("fmt", ["storyqa", "hf", "fairytaleqa"])
@pytest.mark.parametrize("split", ["../../x", "../x", "ABSOLUTE", "a/../../x"])
def test_data_export_split_never_leaves_out(tmp_path, capsys, fmt, split):
    assert main(["data", "import", str(write_fixture(tmp_path / "ftqa")), "--split", "val"]) == 0
    work = tmp_path / "work"
    out = work / "deep" / "out"
    out.mkdir(parents=True)
    before = _tree(tmp_path)
    capsys.readouterr()
    split = str(tmp_path / "escaped") if split == "ABSOLUTE" else split
    code = main(
        ["data", "export", "imported:val", "--format", fmt, "--out", str(out), "--split", split]
    )
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert _tree(tmp_path) == before  # an absolute split would land in tmp_path too


def test_inside_refuses_what_resolves_outside(tmp_path):
    assert inside(tmp_path, "a", "b.csv") == tmp_path / "a" / "b.csv"
    for parts in (("..", "x"), ("/etc/passwd",), ("a", "..", "..", "x"), (".",)):
        with pytest.raises(UnsafePath):
            inside(tmp_path, *parts)
    (tmp_path / "link").symlink_to("/tmp")
    with pytest.raises(UnsafePath):
        inside(tmp_path, "link", "x")


def test_export_out_is_written_exactly_as_named(tmp_path):
    source = _generated(tmp_path)
    out = tmp_path / "quiz"
    assert main(["export", str(source), "--format", "gift", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8").startswith("// Greta: the mill")
    assert _tree(tmp_path) == {"in", "in/generated.json", "quiz"}


def test_export_out_folder_gets_the_title_named_file(tmp_path):
    source = _generated(tmp_path, title="../../Greta and the gold")
    folder = tmp_path / "exports"
    folder.mkdir()
    assert main(["export", str(source), "--format", "kahoot", "--out", str(folder)]) == 0
    assert _tree(folder) == {"Greta-and-the-gold-kahoot.xlsx"}
    assert (
        main(["export", str(source), "--format", "aiken", "--out", str(tmp_path / "new") + "/"])
        == 0
    )
    assert _tree(tmp_path / "new") == {"Greta-and-the-gold-aiken.aiken.txt"}


def test_export_out_on_a_device_or_pipe_writes_nothing_beside_it(tmp_path, capsys):
    source = _generated(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    before = _tree(tmp_path)
    assert main(["export", str(source), "--format", "gift", "--out", str(fifo)]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert _tree(tmp_path) == before
    assert main(["export", str(source), "--format", "gift", "--out", "/dev/null"]) == 2
    assert not os.path.exists("/dev/null.gift.txt")
    with pytest.raises(UnsafePath):
        output_file("/dev/null", "x.txt")
