"""The span answerer's recipe on Hugging Face's Trainer: a few steps on a tiny dataset
give a model the extractive answerer loads, and a time budget stops the run and saves."""

from __future__ import annotations

import json

import pytest
from seq2seq_tiny import write_ftqa

from qg_studio.schema import Section

SECTIONS = [
    "Tova kept six grey geese by the river. Every dawn she walked them to the "
    "meadow behind the mill, and every dusk she counted them home.",
    "One evening a goose was missing. Tova searched the reeds with her lantern "
    "until she found it caught in a fisherman's net.",
]
QUESTIONS = [
    {
        "question": "What did Tova keep by the river?",
        "answer1": "six grey geese",
        "attribute1": "character",
        "ex-or-im1": "explicit",
        "cor_section": "1",
    },
    {
        "question": "Where did Tova walk the geese every dawn?",
        "answer1": "to the meadow behind the mill",
        "attribute1": "setting",
        "ex-or-im1": "explicit",
        "cor_section": "1",
    },
    {
        "question": "Where did Tova find the goose?",
        "answer1": "caught in a fisherman's net",
        "attribute1": "action",
        "ex-or-im1": "explicit",
        "cor_section": "2",
    },
    {
        "question": "What did Tova search with?",
        "answer1": "her lantern",
        "attribute1": "action",
        "ex-or-im1": "explicit",
        "cor_section": "2",
    },
]


@pytest.mark.slow  # loads and trains the MiniLM encoder: about a minute on 2 cores
def test_a_short_run_saves_a_model_the_answerer_reads(tmp_path):
    from qg_studio.answering.extractive import ExtractiveAnswerer
    from qg_studio.train.qa_extractive import train

    data = write_ftqa(tmp_path / "data", "train", "geese", SECTIONS, QUESTIONS)
    lines: list[str] = []
    info = train(
        data, tmp_path / "model", max_steps=2, batch_size=2, max_length=64, log=lines.append
    )
    assert info["steps"] == 2 and info["examples"] == 4
    saved = json.loads((tmp_path / "model" / "training.json").read_text())
    assert saved["steps"] == 2
    answerer = ExtractiveAnswerer(model_dir=tmp_path / "model")
    assert not answerer.fallback
    [reply] = answerer.answer(
        ["Where did Tova find the goose?"], [Section(i, t) for i, t in enumerate(SECTIONS, 1)]
    )
    assert reply.answers and reply.sections


@pytest.mark.slow
def test_the_time_budget_stops_the_run_and_still_saves(tmp_path):
    from qg_studio.train.qa_extractive import train

    data = write_ftqa(tmp_path / "data", "train", "geese", SECTIONS, QUESTIONS)
    lines: list[str] = []
    info = train(
        data,
        tmp_path / "model",
        max_steps=500,
        batch_size=2,
        max_length=64,
        max_minutes=0.0,
        log=lines.append,
    )
    assert info["steps"] < 500
    assert any("time budget" in line for line in lines)
    assert (tmp_path / "model" / "training.json").is_file()
