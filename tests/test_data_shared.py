"""Round trip of the real FairytaleQA val split through the store (skipped without it)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from qg_studio.cli import main

SHARED = Path(__file__).resolve().parents[1].parent / "shared/data/fairytaleqa"

pytestmark = [
    pytest.mark.shared,
    pytest.mark.skipif(
        not (SHARED / "section-stories/val").is_dir(), reason="../shared/data/fairytaleqa is absent"
    ),
]


def _parsed(path: Path) -> list[list[str]]:
    return [r for r in csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")) if r]


def test_val_import_export_gives_back_every_file(tmp_path, capsys):
    assert main(["data", "import", str(SHARED), "--split", "val", "--json"]) == 0
    imported = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert imported["stories"] == 23 and imported["qa_pairs"] == 1025
    out = tmp_path / "out"
    assert (
        main(["data", "export", "imported:val", "--format", "fairytaleqa", "--out", str(out)]) == 0
    )
    checked = 0
    for sub in ("questions", "section-stories"):
        originals = sorted((SHARED / sub / "val").glob("*.csv"))
        assert sorted(p.name for p in (out / sub / "val").glob("*.csv")) == [
            p.name for p in originals
        ]
        for original in originals:
            assert _parsed(out / sub / "val" / original.name) == _parsed(original), original
            checked += 1
    assert checked == 46
    meta = {r[0]: r for r in _parsed(SHARED / "story_meta.csv")}
    exported = _parsed(out / "story_meta.csv")
    assert exported[0] == meta["filename"] and len(exported) == 24
    assert all(meta[r[0]] == r for r in exported[1:])


def test_val_stats(capsys):
    assert main(["data", "stats", str(SHARED), "--split", "val", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (stats["stories"], stats["qa_pairs"]) == (23, 1025)
    assert abs(sum(stats["elements"].values()) - 1) < 1e-3
    assert 0.6 < stats["explicit_share"] < 0.85
