"""``qg-studio answer``, ``eval qa`` and ``train qa-extractive`` as a user runs them."""

from __future__ import annotations

import json

import pytest
from answering_story import SECTIONS_TEXT
from answering_story import story_sections
from answering_story import story_text
from answering_story import tiny_span_model
from ftqa_files import write_story

from qg_studio.cli import main

ANSWER_KEYS = {
    "answers",
    "answer_kind",
    "explicit",
    "evidence",
    "sections",
    "element",
    "explicitness",
    "confidence",
}


@pytest.fixture
def story_file(tmp_path):
    path = tmp_path / "lighthouse.txt"
    path.write_text(story_text(), encoding="utf-8")
    return path


def _last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


def test_answer_json_contract(story_file, tmp_path, capsys):
    code = main(
        [
            "answer",
            str(story_file),
            "--question",
            "What did the old woman give Lina?",
            "--model",
            str(tmp_path / "no-model"),
            "--json",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    payload = _last_json(out)
    assert ANSWER_KEYS <= set(payload)
    assert payload["answer_kind"] == "extractive" and payload["explicit"] is True
    assert "silver key" in payload["answers"][0]
    ev = payload["evidence"][0]
    assert set(ev) == {"section", "start", "end", "text"} and ev["section"] in payload["sections"]
    assert 0.0 <= payload["confidence"] <= 1.0
    assert "fallback" in payload["note"]
    assert "A: " in out  # people read the lines above the JSON


def test_answer_yes_no_through_the_cli(story_file, tmp_path, capsys):
    main(
        [
            "answer",
            str(story_file),
            "-q",
            "Did Tomas come home during the storm?",
            "--model",
            str(tmp_path / "no-model"),
            "--json",
        ]
    )
    payload = _last_json(capsys.readouterr().out)
    assert payload["answer_kind"] == "yesno" and payload["answers"][0].split(".")[0] in (
        "Yes",
        "No",
    )


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--question", "   "], "question is empty"),
        (["--question", "Who?", "--answerer", "nope"], "unknown answerer"),
    ],
)
def test_answer_bad_input_is_one_line(story_file, capsys, argv, message):
    assert main(["answer", str(story_file)] + argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_answer_missing_file(tmp_path, capsys):
    assert main(["answer", str(tmp_path / "none.txt"), "-q", "Who?"]) == 2
    assert "no such file" in capsys.readouterr().err


def _write_dataset(root, split="val"):
    """Two small stories in the FairytaleQA layout, with our own text and questions."""
    stories = {
        "lighthouse": (
            SECTIONS_TEXT,
            [
                (
                    "2",
                    "action",
                    "What did the old woman give Lina?",
                    "explicit",
                    "a silver key",
                    "the silver key",
                ),
                (
                    "4",
                    "causal relationship",
                    "Why did Tomas row into the harbour?",
                    "implicit",
                    "Because the light showed him the way.",
                    "",
                ),
                ("1", "character", "Who was Tomas?", "explicit", "a fisherman", ""),
            ],
        ),
        "mill": (
            [
                "The miller had three sons. The youngest son was kind to animals.",
                "One day a fox asked the youngest son for bread, and he shared it.",
            ],
            [
                ("2", "action", "What did the fox ask for?", "explicit", "bread", ""),
            ],
        ),
    }
    for name, (texts, questions) in stories.items():
        rows = [
            {
                "question_id": i,
                "local-or-sum": "local",
                "cor_section": sec,
                "attribute1": el,
                "question": q,
                "ex-or-im1": ex,
                "answer1": a1,
                "ex-or-im2": ex if a4 else "",
                "answer4": a4,
            }
            for i, (sec, el, q, ex, a1, a4) in enumerate(questions, 1)
        ]
        write_story(root, split, name, texts, rows)
    return root


def test_eval_qa_json_contract(tmp_path, capsys):
    data = _write_dataset(tmp_path / "ftqa")
    args = [
        "eval",
        "qa",
        "--data",
        str(data),
        "--split",
        "val",
        "--model",
        str(tmp_path / "no-model"),
        "--json",
    ]
    assert main(args + ["--given-sections"]) == 0
    given = _last_json(capsys.readouterr().out)
    assert {"rougeL_f", "explicit", "implicit", "per_element", "n"} <= set(given)
    assert given["n"] == 4
    assert set(given["per_element"]) == {"action", "causal relationship", "character"}
    assert 0.0 < given["rougeL_f"] <= 1.0
    assert "retrieval_accuracy" not in given
    assert main(args) == 0
    retrieved = _last_json(capsys.readouterr().out)
    assert 0.0 <= retrieved["retrieval_accuracy"] <= 1.0


def test_eval_qa_missing_data_is_one_line(tmp_path, capsys):
    assert main(["eval", "qa", "--data", str(tmp_path), "--split", "val"]) == 2
    assert "no FairytaleQA stories" in capsys.readouterr().err


def test_train_reproduces_a_loadable_model(tmp_path, capsys):
    """The training command on a tiny base model: what it saves, the answerer loads."""
    data = _write_dataset(tmp_path / "ftqa", split="train")
    base = tiny_span_model(tmp_path / "tiny-base")
    out = tmp_path / "trained"
    assert (
        main(
            [
                "train",
                "qa-extractive",
                "--data",
                str(data),
                "--out",
                str(out),
                "--base",
                str(base),
                "--max-steps",
                "2",
                "--batch-size",
                "2",
                "--freeze-layers",
                "0",
                "--json",
            ]
        )
        == 0
    )
    info = _last_json(capsys.readouterr().out)
    assert info["steps"] == 2 and info["examples"] == 3  # the implicit rewording is skipped
    from qg_studio.answering.extractive import ExtractiveAnswerer

    answerer = ExtractiveAnswerer(model_dir=out)
    assert not answerer.fallback, answerer.load_error
    reply = answerer.answer(["Who was Tomas?"], story_sections(), [[1]])[0]
    assert reply.answers[0] and reply.note == ""
