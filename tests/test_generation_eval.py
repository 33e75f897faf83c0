"""``eval qg``, ``eval qag`` and ``bench`` contracts, and the miner, on a tiny
FairytaleQA-layout folder written by the test (never ../shared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ftqa_files import write_story

from qg_studio.cli import main

SECTIONS = [
    "Once upon a time a poor woodcutter lived at the edge of a great forest with his "
    "daughter Elsa. One morning he went into the forest to cut wood. He was very tired "
    "because he had worked all night.",
    "When he reached the old oak, a little grey dwarf jumped out of the bushes. The "
    "woodcutter was frightened. The dwarf gave him a magic axe, so the woodcutter never "
    "had to work hard again.",
]
QUESTIONS = [
    (
        "1",
        "local",
        "1",
        "setting",
        "Where did the woodcutter live?",
        "explicit",
        "the edge of a great forest",
    ),
    (
        "2",
        "local",
        "1",
        "causal relationship",
        "Why was the woodcutter tired?",
        "explicit",
        "he had worked all night",
    ),
    (
        "3",
        "local",
        "2",
        "character",
        "Who jumped out of the bushes?",
        "explicit",
        "a little grey dwarf",
    ),
    (
        "4",
        "local",
        "2",
        "feeling",
        "How did the woodcutter feel when he saw the dwarf?",
        "implicit",
        "frightened",
    ),
    (
        "5",
        "local",
        "2",
        "action",
        "What did the dwarf give the woodcutter?",
        "explicit",
        "a magic axe",
    ),
]


@pytest.fixture
def data_dir(tmp_path) -> Path:
    root = tmp_path / "ftqa"
    rows = [
        {
            "question_id": qid,
            "local-or-sum": scope,
            "cor_section": sec,
            "attribute1": attr,
            "question": question,
            "ex-or-im1": ex,
            "answer1": answer,
        }
        for qid, scope, sec, attr, question, ex, answer in QUESTIONS
    ]
    write_story(root, "val", "woodcutter", SECTIONS, rows)
    return root


def _last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_eval_qg_reports_overall_per_element_and_per_explicitness(data_dir, capsys):
    assert main(["eval", "qg", "--data", str(data_dir), "--split", "val", "--json"]) == 0
    result = _last_json(capsys.readouterr().out)
    assert result["n"] == len(QUESTIONS)
    assert set(result["per_element"]) == {q[3] for q in QUESTIONS}
    assert set(result["per_explicitness"]) == {"explicit", "implicit"}
    # These expert questions reuse the sentence's words: the engine must come close.
    assert result["rougeL_f"] > 0.5


def test_eval_qag_reports_rouge_and_element_kl(data_dir, capsys):
    assert (
        main(["eval", "qag", "--data", str(data_dir), "--split", "val", "--k", "2", "--json"]) == 0
    )
    result = _last_json(capsys.readouterr().out)
    assert result["k"] == 2 and result["n"] == len(QUESTIONS)
    assert 0.0 < result["rougeL_f"] <= 1.0 and result["element_kl"] >= 0.0


def test_eval_on_a_missing_folder_is_a_clear_error(tmp_path, capsys):
    assert main(["eval", "qg", "--data", str(tmp_path / "none"), "--split", "val"]) == 2
    assert "no FairytaleQA stories" in capsys.readouterr().err


def test_unknown_engine_is_a_clear_error(data_dir, capsys):
    code = main(["eval", "qg", "--data", str(data_dir), "--engine", "nonesuch"])
    assert code == 2 and "nonesuch" in capsys.readouterr().err


def test_miner_orders_wordings_and_keeps_no_text(data_dir, monkeypatch):
    from qg_studio.generation import mine

    monkeypatch.setattr(mine, "MIN_SIGNATURE", 1)
    from qg_studio.data.fairytaleqa import read_split

    result = mine.mine(read_split(data_dir, "val"), "val", log=None)
    assert set(result["by_element"]) == {q[3] for q in QUESTIONS}
    for order in result["by_element"].values():
        assert order and all(name.replace("_", "").isalpha() for name in order)
    blob = json.dumps(result)
    for _, _, _, _, question, _, answer in QUESTIONS:
        assert question not in blob and answer not in blob


@pytest.mark.slow
def test_bench_contract(capsys):
    assert main(["bench", "--repeat", "1", "--json"]) == 0
    result = _last_json(capsys.readouterr().out)
    assert {"section_s", "generate_s", "total_s", "cold_s", "peak_rss_mb", "words", "items"} <= set(
        result
    )
    assert 1800 <= result["words"] <= 2000 and result["items"] == 10
