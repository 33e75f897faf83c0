"""The proposer's training recipe (``qag``) on a tiny Llama: what it reads and writes, a
run that goes on across sessions from its committed adapter, and frozen lower layers."""

from __future__ import annotations

import random

import pytest
from causal_lm_tiny import tiny_llama
from seq2seq_tiny import write_ftqa

LONG = (
    "The hen found a grain of wheat in the yard. She asked the cat to help her plant it. "
    "The cat said no and went back to sleep by the fire. The hen planted the grain alone. "
    "The rain fell and the wheat grew tall and golden. The hen cut the wheat and took it "
    "to the mill. The miller ground it into white flour for her. She baked a round loaf of "
    "bread in her oven. The smell of the bread woke the cat. The cat came running to the "
    "kitchen and asked for a slice. The hen ate the whole loaf with her chicks instead."
)
PAIRS = [
    {
        "question": "Who ground the wheat into flour?",
        "answer1": "the miller",
        "attribute1": "character",
        "ex-or-im1": "explicit",
    },
    {
        "question": "How did the hen feel when the cat asked for a slice?",
        "answer1": "annoyed that he had not helped",
        "attribute1": "feeling",
        "ex-or-im1": "implicit",
    },
]


@pytest.fixture(autouse=True)
def _engine_on(monkeypatch):
    monkeypatch.delenv("QG_STUDIO_SMOLLM", raising=False)


def test_reading_windows_are_whole_sentences_in_order_and_cover_the_section():
    from qg_studio.models.prompts import reading_windows

    windows = reading_windows(LONG, 40)
    assert len(windows) > 1
    assert all(len(w.split()) <= 40 for w in windows)
    assert all(w.endswith(".") for w in windows)  # never cut inside a sentence
    assert " ".join(windows) == " ".join(LONG.split())


def test_the_proposer_is_asked_without_the_answer_and_writes_question_then_answer(tmp_path):
    from qg_studio.data.fairytaleqa import read_split
    from qg_studio.models.prompts import parse_qag
    from qg_studio.models.prompts import reading_windows
    from qg_studio.train.lm import LMTrainSettings
    from qg_studio.train.lm import lm_examples

    stories = read_split(write_ftqa(tmp_path / "d", "train", "hen", [LONG], PAIRS), "train")
    settings = LMTrainSettings(tasks="qag", qag_window_words=40)
    examples = lm_examples(stories, settings, random.Random(0))
    assert [e.role for e in examples] == ["qag", "qag"]
    miller, feeling = examples
    # Nothing of the answer is given: the model must choose what to ask.
    assert "answer:" not in miller.prompt and miller.prompt.endswith("\nquestion:")
    assert miller.prompt.startswith("element: character | explicitness: explicit | context: ")
    assert parse_qag(miller.target) == ("Who ground the wheat into flour?", "the miller")
    # The window read is one the engine will read too: the one holding the answer.
    windows = reading_windows(LONG, 40)
    assert any(miller.prompt.endswith(w + "\nquestion:") for w in windows)
    assert "The miller ground it" in miller.prompt
    # An implicit answer is not in the text: the window sharing most of its words is read.
    assert "asked for a slice" in feeling.prompt
    assert parse_qag("Who came? no answer mark") is None


def test_a_held_out_story_is_never_trained_on(tmp_path):
    from qg_studio.data.fairytaleqa import read_split
    from qg_studio.train.lm import split_holdout

    root = tmp_path / "d"
    for i in range(6):
        write_ftqa(root, "train", f"s{i}", [LONG], PAIRS)
    stories = read_split(root, "train")
    train, held = split_holdout(stories, 3)
    assert [s.name for s in held] == [stories[2].name, stories[5].name]
    assert not {s.name for s in train} & {s.name for s in held}
    assert split_holdout(stories, 0) == (stories, [])


def test_a_continued_run_takes_up_the_schedule_where_it_stopped():
    from qg_studio.train.lm import LMTrainSettings
    from qg_studio.train.resume import learning_rate_at

    fresh = LMTrainSettings(learning_rate=1e-3, warmup_steps=0, max_steps=10)
    assert learning_rate_at(fresh) == 1e-3
    half = LMTrainSettings(learning_rate=1e-3, warmup_steps=0, max_steps=10, start_step=5)
    assert learning_rate_at(half) == pytest.approx(5e-4)
    warm = LMTrainSettings(learning_rate=1e-3, warmup_steps=2, max_steps=10, start_step=6)
    assert learning_rate_at(warm) == pytest.approx(1e-3 * 4 / 8)


def test_a_run_goes_on_from_its_adapter_with_its_settings_and_frozen_layers(tmp_path):
    import torch
    from safetensors.torch import load_file

    from qg_studio.models.config import TrainedConfig
    from qg_studio.train.lm import LMTrainSettings
    from qg_studio.train.lm import continued_settings
    from qg_studio.train.lm import run

    base = tiny_llama(tmp_path / "base")
    data = write_ftqa(tmp_path / "data", "train", "hen", [LONG], PAIRS * 3)
    write_ftqa(data, "val", "hen-val", [LONG], PAIRS)
    out = tmp_path / "adapter"
    settings = LMTrainSettings(
        tasks="qag,qg",
        max_steps=4,
        batch_size=2,
        save_steps=1,
        eval_steps=1,
        warmup_steps=0,
        learning_rate=5e-2,
        train_from_layer=1,
    )
    # The first session stops after two of four steps (as --max-minutes would).
    run(
        data,
        out,
        LMTrainSettings(**{**vars(settings), "max_steps": 2}),
        work=tmp_path / "w1",
        progress=lambda line: None,
        base=base,
    )
    meta = TrainedConfig.from_pretrained(out).to_dict()
    assert meta["steps"] == 2 and meta["roles"] == ["qag", "qg"]
    assert meta["frozen_adapter_tensors"] > 0
    before = load_file(str(out / "adapter_model.safetensors"))
    # The next session's checkout has only the adapter: it goes on from it.
    again = continued_settings(out)
    assert again.start_step == 2 and again.tasks == "qag,qg" and again.train_from_layer == 1
    again.max_steps = 4
    run(
        data,
        out,
        again,
        work=tmp_path / "w2",
        progress=lambda line: None,
        base=base,
        init_adapter=out,
    )
    meta = TrainedConfig.from_pretrained(out).to_dict()
    assert meta["steps"] == 4
    # One log for the whole run: the first session's evaluations, then the second's.
    assert [h["step"] for h in meta["log"] if "eval_loss" in h] == [1, 2, 3, 4]
    after = load_file(str(out / "adapter_model.safetensors"))
    lower = [k for k in before if ".layers.0." in k]
    upper = [k for k in before if ".layers.1." in k and "lora_B" in k]
    assert lower and upper
    assert all(torch.equal(before[k], after[k]) for k in lower)  # frozen: never trained
    assert any(not torch.equal(before[k], after[k]) for k in upper)
