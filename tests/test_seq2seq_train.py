"""The fine-tuning recipe end to end on a tiny model: FairytaleQA-layout data → train →
save → load → generate gives what it learned; model card, meta file, registry entry."""

from __future__ import annotations

import json

import pytest
from seq2seq_tiny import tiny_t5
from seq2seq_tiny import write_ftqa

from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Explicitness

TEXT = "The fox ran in the forest. The hen sat in the barn. The king was sad."
QUESTIONS = [
    {
        "question": "who ran in the forest?",
        "answer1": "The fox",
        "attribute1": "character",
        "ex-or-im1": "explicit",
    },
    {
        "question": "where did the hen sit?",
        "answer1": "in the barn",
        "attribute1": "setting",
        "ex-or-im1": "explicit",
    },
    {
        "question": "how did the king feel?",
        "answer1": "sad",
        "attribute1": "feeling",
        "ex-or-im1": "implicit",
    },
]


def test_answer_kinds_for_unified_qa_training():
    from qg_studio.answer_kind import answer_kind

    assert answer_kind(answer="The fox", explicitness="explicit") is AnswerKind.EXTRACTIVE
    assert answer_kind(answer="he wanted food", explicitness="implicit") is AnswerKind.ABSTRACTIVE
    assert answer_kind(answer="Yes.", explicitness="implicit") is AnswerKind.YESNO
    assert answer_kind(answer="No, he did not", explicitness="explicit") is AnswerKind.YESNO
    assert (
        answer_kind(answer="no one came to help him at all", explicitness="explicit")
        is AnswerKind.EXTRACTIVE
    )


def test_qa_pairs_use_prefixes_and_lowercase_targets(tmp_path):
    from qg_studio.data.fairytaleqa import read_split
    from qg_studio.train.examples import qa_pairs

    root = write_ftqa(
        tmp_path,
        "train",
        "toy",
        [TEXT],
        QUESTIONS
        + [
            {
                "question": "Was the king sad?",
                "answer1": "Yes, he was.",
                "attribute1": "feeling",
                "ex-or-im1": "explicit",
            }
        ],
    )
    pairs = qa_pairs(read_split(root, "train"))
    assert [p.kind for p in pairs] == ["extractive", "extractive", "abstractive", "yesno"]
    assert pairs[0].source == "extractive\nwho ran in the forest?\n" + TEXT.lower()
    assert [p.target for p in pairs] == ["the fox", "in the barn", "sad", "yes"]


def test_export_folder_without_val_split_holds_out_stories(tmp_path):
    from qg_studio.train.examples import load_splits

    for i in range(10):
        write_ftqa(tmp_path, "train", f"story{i}", [TEXT], QUESTIONS)
    train, val = load_splits(tmp_path)
    assert len(train) == 9 and len(val) == 1
    assert not {s.name for s in train} & {s.name for s in val}
    small = tmp_path / "small"
    for i in range(3):
        write_ftqa(small, "train", f"story{i}", [TEXT], QUESTIONS)
    train, val = load_splits(small)
    assert [s.name for s in train] == ["story0", "story1"] and [s.name for s in val] == ["story2"]


@pytest.fixture
def one_thread():
    import torch

    # A 32-wide model trains ~10x faster on one thread than on two contended ones.
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_train_save_load_generate_learned_questions(tmp_path, one_thread):
    from qg_studio.generation import get_generator
    from qg_studio.models.registry import load_registry
    from qg_studio.train.seq2seq import TrainSettings
    from qg_studio.train.seq2seq import run

    data = tmp_path / "data"
    write_ftqa(data, "train", "toy", [TEXT], QUESTIONS)
    write_ftqa(data, "val", "toy", [TEXT], QUESTIONS)
    base = tiny_t5(tmp_path / "base")
    out = tmp_path / "trained"
    settings = TrainSettings(
        max_steps=200,
        batch_size=3,
        learning_rate=3e-3,
        eval_steps=100,
        patience=5,
        max_source_length=64,
        max_target_length=12,
        eval_samples=3,
        seed=0,
    )
    figures = run("qg", str(base), data, out, settings, name="toy-qg", progress=lambda m: None)

    # The model card, the meta file and the registry entry sit beside the checkpoint.
    card = (out / "README.md").read_text()
    assert "val ROUGE-L F1" in card and "qg-control" in card and str(data.resolve()) in card
    assert figures["val_rougeL_f"] == pytest.approx(1.0)
    meta = json.loads((out / "qg_studio.json").read_text())
    assert meta["prompt_format"] == "qg-control" and meta["max_target_length"] == 12
    entry = load_registry()["toy-qg"]
    assert entry.source == str(out.resolve()) and entry.roles == ["qg"] and entry.origin == "user"
    assert not (out / "_checkpoints").exists()

    generator = get_generator("seq2seq", model="toy-qg", num_beams=1)
    sections = [
        s
        for s in __import__("qg_studio.data.fairytaleqa", fromlist=["read_split"])
        .read_split(data, "val")[0]
        .sections
    ]
    for q in QUESTIONS:
        item = generator.write_question(
            sections,
            q["answer1"],
            Element.parse(q["attribute1"]),
            Explicitness.parse(q["ex-or-im1"]),
        )
        expected = q["question"][0].upper() + q["question"][1:]
        assert item.question == expected


def test_checkpoints_of_a_run_cut_short_carry_their_prompt_settings(
    tmp_path, one_thread, monkeypatch
):
    from transformers import Seq2SeqTrainer

    from qg_studio.models.seq2seq import load_seq2seq
    from qg_studio.train.seq2seq import TrainSettings
    from qg_studio.train.seq2seq import run

    data = tmp_path / "data"
    write_ftqa(data, "train", "toy", [TEXT], QUESTIONS)
    write_ftqa(data, "val", "toy", [TEXT], QUESTIONS)
    base = tiny_t5(tmp_path / "base")
    out = tmp_path / "trained"

    train = Seq2SeqTrainer.train

    def train_then_machine_lost(self, *args, **kwargs):
        train(self, *args, **kwargs)
        raise RuntimeError("machine lost")

    # The run dies after training, before the final save: only its checkpoints remain.
    monkeypatch.setattr(Seq2SeqTrainer, "train", train_then_machine_lost)
    settings = TrainSettings(
        max_steps=4,
        batch_size=3,
        eval_steps=2,
        max_source_length=64,
        max_target_length=12,
        context_words=30,
        seed=0,
    )
    with pytest.raises(RuntimeError, match="machine lost"):
        run("qg", str(base), data, out, settings, name="cut-qg", progress=lambda m: None)
    checkpoints = sorted((out / "_checkpoints").glob("checkpoint-*"))
    assert checkpoints
    loaded = load_seq2seq(str(checkpoints[-1]))
    assert loaded.config.prompt_format == "qg-control" and loaded.config.context_words == 30
