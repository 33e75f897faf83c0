"""The SmolLM2 engine on a tiny Llama built here: prompts, adapter round trip, batching,
fallback with a notice, and a resumable training run. Nothing is downloaded."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from causal_lm_tiny import tiny_adapter
from causal_lm_tiny import tiny_llama
from seq2seq_tiny import write_ftqa

from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section

TEXT = (
    "The miller was sad because the rain fell on the mill. The fox ran to the forest. "
    "The hen sat in the barn. The wolf saw the hen and the hen was happy. "
    "The king went home."
)
QUESTIONS = [
    {
        "question": "Where did the hen sit?",
        "answer1": "in the barn",
        "attribute1": "setting",
        "ex-or-im1": "explicit",
    },
    {
        "question": "How did the miller feel?",
        "answer1": "sad",
        "attribute1": "feeling",
        "ex-or-im1": "implicit",
    },
    {
        "question": "Did the fox run to the forest?",
        "answer1": "yes",
        "attribute1": "action",
        "ex-or-im1": "explicit",
    },
]


@pytest.fixture(autouse=True)
def _engine_on(monkeypatch):
    monkeypatch.delenv("QG_STUDIO_SMOLLM", raising=False)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny-lm")
    base = tiny_llama(root / "base")
    return base, tiny_adapter(base, root / "adapter")


@pytest.fixture
def sections():
    return [Section(id=1, text=TEXT), Section(id=2, text="The king went home. It was rain.")]


def test_training_and_inference_prompts_are_identical(tmp_path, tiny):
    import random

    from qg_studio.answer_kind import answer_kind
    from qg_studio.answering.smollm import CausalLMAnswerer
    from qg_studio.data.fairytaleqa import read_split
    from qg_studio.generation.smollm_writer import CausalLMGenerator
    from qg_studio.train.lm import LMTrainSettings
    from qg_studio.train.lm import lm_examples

    base, adapter = tiny
    root = write_ftqa(tmp_path / "data", "train", "toy", [TEXT], QUESTIONS)
    stories = read_split(root, "train")
    examples = lm_examples(stories, LMTrainSettings(explicit_qa_share=1.0), random.Random(0))
    generator = CausalLMGenerator(model=str(adapter), base=str(base))
    answerer = CausalLMAnswerer(model=str(adapter), base=str(base))
    story = stories[0]
    qg, qa = [], []
    for q in story.questions:
        item = q.to_item()
        chosen = [s for s in story.sections if s.id in item.sections]
        qg.append(generator.prompt(chosen, q.answers[0], item.element, item.explicitness))
        kind = answer_kind(answer=q.answers[0], explicitness=item.explicitness)
        key = {"yesno": "yesno", "abstractive": "implicit"}.get(kind.value, "explicit")
        qa.append(answerer.prompt(item.question, chosen, key))
    assert qg == [e.prompt for e in examples if e.role == "qg"]
    assert qa == [e.prompt for e in examples if e.role == "qa"]
    assert qg[1].endswith("\nquestion:") and "answer: sad" in qg[1]
    assert qa[2].startswith("yesno\ndid the fox") and qa[2].endswith("\nanswer:")


def test_adapter_save_and_load_round_trip(tmp_path, tiny):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    from qg_studio.models.causal_lm import load_lm

    base, adapter = tiny
    ids = torch.tensor([[5, 6, 7, 8, 9]])
    plain = AutoModelForCausalLM.from_pretrained(str(base)).eval()
    with torch.no_grad():
        expected = PeftModel.from_pretrained(plain, str(adapter)).eval()(ids).logits
        base_logits = AutoModelForCausalLM.from_pretrained(str(base)).eval()(ids).logits
    loaded = load_lm(adapter, base=base)
    with torch.no_grad():
        got = loaded.model(ids).logits
    assert torch.allclose(got, expected, atol=1e-5)  # merged adapter == adapter on the base
    assert not torch.allclose(got, base_logits, atol=1e-3)  # and it changed the base
    assert loaded.config.qg_window_words == 70


def test_batched_decoding_equals_one_by_one(tiny):
    from qg_studio.models.causal_lm import LMDecode
    from qg_studio.models.causal_lm import choice_scores
    from qg_studio.models.causal_lm import generate
    from qg_studio.models.causal_lm import load_lm

    base, adapter = tiny
    loaded = load_lm(adapter, base=base)
    prompts = [
        "element: feeling | answer: sad | context: the miller was sad\nquestion:",
        "the fox ran\nquestion:",
        "yesno\ndid the hen sit in the barn ?\nthe hen sat in the barn .\nanswer:",
    ]
    batched = generate(loaded, prompts, LMDecode(max_new_tokens=6, batch_size=3))
    single = [generate(loaded, [p], LMDecode(max_new_tokens=6, batch_size=1))[0] for p in prompts]
    assert [o[0][0] for o in batched] == [o[0][0] for o in single]
    assert all(abs(a[0][1] - b[0][1]) < 1e-3 for a, b in zip(batched, single))
    together = choice_scores(loaded, prompts, ("yes", "no"), batch_size=3)
    alone = [choice_scores(loaded, [p], ("yes", "no"))[0] for p in prompts]
    assert [x for r in together for x in r] == pytest.approx(
        [x for r in alone for x in r], abs=1e-4
    )


def test_generator_writes_several_questions_per_answer_slot(tiny, sections, monkeypatch):
    from qg_studio.generation import smollm_writer
    from qg_studio.generation.smollm_writer import CausalLMGenerator
    from qg_studio.pipeline import ranked_slots

    # The untrained model writes random words, which the grounding check would refuse.
    monkeypatch.setattr(
        smollm_writer, "unfounded", lambda questions, story: [[] for _ in questions]
    )
    monkeypatch.setattr(smollm_writer, "gives_away", lambda question, answer: False)
    base, adapter = tiny
    generator = CausalLMGenerator(
        model=str(adapter), base=str(base), questions_per_answer=2, choose_slots=ranked_slots
    )
    items = generator.generate(sections, GenerationRequest(count=3))
    assert items and all(i.engine == "smollm" and i.question.endswith("?") for i in items)
    assert all(i.answers and i.answers[0].strip() for i in items)
    # overgenerated: more candidates than asked, for the ranking to choose from
    assert len(items) > 3
    written = generator.write_question(
        sections[:1], "in the barn", Element.SETTING, Explicitness.EXPLICIT
    )
    assert written.answers == ["in the barn"] and written.evidence[0].text == "in the barn"


def test_the_question_for_a_given_answer_is_chosen_among_beams_with_its_round_trip(tiny, sections):
    from qg_studio.generation.consensus import consensus
    from qg_studio.generation.smollm_writer import CausalLMGenerator

    base, adapter = tiny
    asked = []

    def trip(items, story):  # the round trip stores each wording's answerability
        asked.append([i.question for i in items])
        for n, item in enumerate(items):
            item.scores.answerability = 1.0 if n == len(items) - 1 else 0.0

    generator = CausalLMGenerator(
        model=str(adapter), base=str(base), candidates_per_answer=4, round_trip=trip
    )
    item = generator.write_question(sections[:1], "in the barn", Element.SETTING, "explicit")
    (wordings,) = asked
    assert len(wordings) == len(set(wordings)) > 1  # several beams, each wording once
    chosen = consensus(wordings, [0.0] * (len(wordings) - 1) + [1.0])
    assert item.question == wordings[chosen]
    assert item.answers == ["in the barn"] and item.rule == "written.for_answer"


def test_a_question_about_someone_the_story_lacks_never_reaches_the_teacher(tiny, sections):
    from qg_studio.generation.smollm_writer import CausalLMGenerator
    from qg_studio.generation.smollm_writer import gives_away
    from qg_studio.generation.smollm_writer import unfounded
    from qg_studio.pipeline import ranked_slots

    story = "The old miller carried two sacks to the mill. His daughters sang by the river."
    assert unfounded(
        ["What did the youngest prince do?", "Where did the daughter sing?"], story
    ) == [["youngest", "prince"], []]
    assert gives_away("Where did the girls sing by the river?", "by the river")
    assert not gives_away("Where did the girls sing?", "by the river")

    base, adapter = tiny
    generator = CausalLMGenerator(
        model=str(adapter), base=str(base), questions_per_answer=2, choose_slots=ranked_slots
    )
    text = " ".join(s.text for s in sections)
    invented = "What did the youngest prince do with the dragon?"
    assert unfounded([invented], text) == [["youngest", "prince", "dragon"]]
    generator._decode = lambda prompts, settings: [[(invented, 0.9)] for _ in prompts]
    items = generator.generate(sections, GenerationRequest(count=3))
    # Every slot keeps the embedded engine's own question, labelled as its own.
    assert items and all(i.question != invented and i.engine == "embedded" for i in items)


def test_a_question_names_only_who_its_answer_is_about(sections):
    from qg_studio.generation.smollm_writer import _told_there
    from qg_studio.generation.smollm_writer import unfounded
    from qg_studio.schema import Evidence
    from qg_studio.schema import QAItem

    text = sections[0].text
    start = text.index("in the barn")
    slot = QAItem(
        question="Where did the hen sit?",
        answers=["in the barn"],
        element=Element.SETTING,
        explicitness=Explicitness.EXPLICIT,
        sections=[1],
        evidence=[Evidence(1, start, start + len("in the barn"), "in the barn")],
    )
    told = _told_there(slot, {s.id: s for s in sections})
    # The fox is in the story, but not in the sentence this answer comes from.
    assert unfounded(["Where did the fox sit?", "Where did the hen sit?"], [told, told]) == [
        ["fox"],
        [],
    ]


def test_answerer_routes_each_kind(tiny, sections):
    from qg_studio.answering.smollm import CausalLMAnswerer

    base, adapter = tiny
    answerer = CausalLMAnswerer(
        model=str(adapter), base=str(base), routes={"explicit": "extractive"}
    )
    yes_no, feeling, explicit = answerer.answer(
        ["Did the fox run to the forest?", "How did the miller feel?", "Who saw the hen?"],
        sections,
        [[1], [1], [1]],
    )
    assert yes_no.engine == "smollm" and yes_no.answer_kind.value == "yesno"
    assert yes_no.answers in (["Yes"], ["No"])
    assert yes_no.evidence[0].text == "The fox ran to the forest."  # the sentence it rests on
    assert feeling.engine == "smollm" and feeling.answer_kind.value == "abstractive"
    assert explicit.engine == "extractive"  # the span model keeps the kind it measured best on


def _registry(folder: Path):
    from qg_studio.models.registry import ModelEntry

    return {
        "lm": ModelEntry(
            "lm",
            str(folder),
            roles=["qg", "qa"],
            engine="smollm",
            prompt_format="qg-control+storyqa",
        )
    }


def _wins(folder: Path) -> None:
    (folder / "val.json").write_text(
        json.dumps(
            {"qg": {"smollm": 0.5, "embedded": 0.4}, "qa": {"smollm": 0.55, "extractive": 0.48}}
        )
    )


def test_auto_falls_back_with_a_notice_when_the_wheel_is_missing(tmp_path, tiny, monkeypatch):
    import shutil

    from qg_studio.models import causal_lm
    from qg_studio.models import choice as engines

    folder = Path(shutil.copytree(tiny[1], tmp_path / "adapter"))
    _wins(folder)
    monkeypatch.setattr(causal_lm, "BASE_PACKAGE", "no-such-wheel-here")
    for role, fallback in (("qg", "embedded"), ("qa", "extractive")):
        choice = engines.choose_engine(role, _registry(folder))
        assert choice.name == fallback
        assert "base model is not installed" in choice.notice and fallback in choice.notice


@pytest.mark.parametrize("damage", ["missing", "broken", "loses", "subset", "stale", "reads"])
def test_auto_falls_back_with_a_notice_when_the_adapter_is_missing_broken_or_worse(
    tmp_path, tiny, damage
):
    import shutil

    from qg_studio.models import choice as engines

    folder = Path(shutil.copytree(tiny[1], tmp_path / "adapter"))
    _wins(folder)
    if damage == "missing":
        (folder / "adapter_model.safetensors").unlink()
    elif damage == "broken":
        (folder / "adapter_model.safetensors").write_bytes(b"not a tensor file")
    elif damage == "loses":
        (folder / "val.json").write_text(json.dumps({"qg": {"smollm": 0.3, "embedded": 0.4}}))
    elif damage == "subset":  # better, but on a few stories only: not enough to switch
        (folder / "val.json").write_text(
            json.dumps({"qg": {"smollm": 0.5, "embedded": 0.4}, "limit": 3})
        )
    elif damage == "reads":  # better by ROUGE-L, worse in a teacher's reading of the sets
        val = json.loads((folder / "val.json").read_text())
        reading = {
            "smollm": {"read": 30, "good": 14, "wrong": 9},
            "embedded": {"read": 30, "good": 19, "wrong": 4},
        }
        (folder / "val.json").write_text(json.dumps({**val, "reading": reading}))
    else:  # retrained after the figures were measured: they are another adapter's
        val = json.loads((folder / "val.json").read_text())
        (folder / "val.json").write_text(json.dumps({**val, "adapter_sha256": "0123456789abcdef"}))
    choice = engines.choose_engine("qg", _registry(folder))
    assert choice.name == "embedded"
    said = {
        "missing": "no trained adapter",
        "broken": "is broken",
        "loses": "no better than the built-in embedded engine on the test stories",
        "subset": "first 3 test stories only",
        "stale": "for earlier weights",
        "reads": "reads worse to a teacher: 14 good and 9 wrong",
    }[damage]
    assert said in choice.notice


def test_a_failing_engine_gives_way_to_the_embedded_one_with_a_notice(tmp_path, sections):
    from qg_studio.services.generation import generate

    run = generate(
        sections,
        GenerationRequest(count=2),
        "smollm",
        {"model": str(tmp_path / "nothing-here")},
        use_embeddings=False,
    )
    assert run.engine == "embedded" and run.items
    assert any("smollm" in n and "no trained adapter" in n for n in run.notices)


def test_cli_names_a_missing_adapter_in_one_line(tmp_path, capsys):
    from qg_studio.cli import main

    story = tmp_path / "story.txt"
    story.write_text(TEXT, encoding="utf-8")
    code = main(
        [
            "answer",
            str(story),
            "-q",
            "Who saw the hen?",
            "--answerer",
            "smollm",
            "--model",
            str(tmp_path / "none"),
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "no trained adapter" in err[0]


def test_two_training_steps_leave_a_usable_adapter_and_resume(tmp_path, tiny):
    from qg_studio.generation.smollm_writer import CausalLMGenerator
    from qg_studio.models.causal_lm import load_adapter
    from qg_studio.models.config import TrainedConfig
    from qg_studio.train.lm import LMTrainSettings
    from qg_studio.train.lm import run

    base, _ = tiny
    data = write_ftqa(tmp_path / "data", "train", "toy", [TEXT], QUESTIONS)
    write_ftqa(data, "val", "toy-val", [TEXT], QUESTIONS[:2])
    out, work = tmp_path / "adapter", tmp_path / "work"
    settings = LMTrainSettings(
        max_steps=2, batch_size=2, save_steps=1, eval_steps=1, warmup_steps=0, explicit_qa_share=1.0
    )
    lines: list[str] = []
    first = run(data, out, settings, progress=lines.append, work=work, base=base)
    assert first["steps"] == 2 and (out / "adapter_model.safetensors").is_file()
    assert TrainedConfig.from_pretrained(out).steps == 2 and TrainedConfig.from_pretrained(out).log
    assert "from the start" in lines[-1]
    assert load_adapter(out, base=base).config.steps == 2  # usable as it is
    item = CausalLMGenerator(model=str(out), base=str(base)).write_question(
        [Section(id=1, text=TEXT)], "sad", Element.FEELING, Explicitness.IMPLICIT
    )
    assert item.question.endswith("?")
    settings.max_steps = 3
    second = run(data, out, settings, progress=lines.append, work=work, base=base)
    assert "resuming from" in lines[-1] and "checkpoint-2" in lines[-1]
    assert second["steps"] == 3 and TrainedConfig.from_pretrained(out).steps == 3
    # A second pass starts from the finished adapter, not from a new one: with a learning
    # rate of 0 it keeps exactly the weights it started from (a new one's are random).
    import torch
    from safetensors.torch import load_file

    more = tmp_path / "more"
    still = dataclasses.replace(settings, learning_rate=0.0)
    third = run(
        data, more, still, progress=lines.append, work=tmp_path / "w2", base=base, init_adapter=out
    )
    assert third["init_adapter"]["steps"] == 3
    before, after = (load_file(str(d / "adapter_model.safetensors")) for d in (out, more))
    assert before.keys() == after.keys()
    assert all(torch.equal(before[k], after[k]) for k in before)


def test_models_page_says_smollm_is_in_use_for_each_role_and_how_it_routes(tmp_path, tiny):
    import shutil

    from streamlit.testing.v1 import AppTest

    from qg_studio.models.config import TrainedConfig
    from qg_studio.models.registry import ModelEntry
    from qg_studio.models.registry import add_user_entry

    folder = Path(shutil.copytree(tiny[1], tmp_path / "adapter"))
    TrainedConfig.from_pretrained(folder).updated(**{"base_path": str(tiny[0])}).save_pretrained(
        folder
    )
    _wins(folder)
    add_user_entry(
        ModelEntry(
            "tiny-lm",
            str(folder),
            roles=["qg", "qa"],
            engine="smollm",
            prompt_format="qg-control+storyqa",
            origin="user",
        )
    )
    at = AppTest.from_file(
        str(Path(__file__).parent / "apps" / "models_page.py"), default_timeout=120
    ).run()
    assert not at.exception
    markdown = " ".join(m.value for m in at.markdown)
    assert markdown.count("Engine in use: **smollm** — model `tiny-lm`") == 2
    assert "explicit \u2192 **extractive**" in markdown and "yesno \u2192 **smollm**" in markdown
    success = " ".join(s.value for s in at.success)
    assert "questions 50.0% against 40.0%" in success and "answers 55.0% against 48.0%" in success


def test_model_card_reports_steps_loss_curve_and_val_figures(tmp_path):
    from qg_studio.models.config import TrainedConfig
    from qg_studio.train.lm_card import card_text

    TrainedConfig.from_dict(
        {
            "steps": 40,
            "data": "toy",
            "train_examples": {"qg": 10, "qa": 5},
            "settings": {"max_steps": 100, "batch_size": 8},
            "log": [
                {"step": 10, "loss": 3.1},
                {"step": 20, "loss": 2.4},
                {"step": 20, "eval_loss": 2.6},
                {"step": 40, "loss": 2.0},
            ],
        }
    ).save_pretrained(tmp_path)
    assert "Not measured yet" in card_text(tmp_path)
    (tmp_path / "val.json").write_text(
        json.dumps(
            {
                "adapter_steps": 40,
                "split": "val",
                "stories": 2,
                "qg": {
                    "smollm": 0.45,
                    "embedded": 0.41,
                    "n": 9,
                    "per_element": {"feeling": 0.5},
                    "embedded_per_element": {"feeling": 0.3},
                },
                "qa": {
                    "smollm": 0.5,
                    "extractive": 0.48,
                    "n": 9,
                    "routes": {"yesno": "smollm"},
                    "per_kind": {"yesno": {"smollm": 0.9, "extractive": 0.4, "n": 2}},
                    "per_explicitness": {"implicit": 0.33, "explicit": 0.6},
                    "extractive_per_explicitness": {"implicit": 0.2},
                },
            }
        )
    )
    card = card_text(tmp_path)
    assert "steps: 40 of 100" in card and "| 20 | 2.400 | 2.600 |" in card
    assert "| eval qg | 0.4500 | embedded 0.4100 | 9 |" in card
    assert "| yesno | 0.9000 | 0.4000 | 2 | smollm |" in card


def test_measuring_new_weights_drops_the_old_weights_figures_and_reading(tmp_path):
    from qg_studio.models.causal_lm import adapter_digest
    from qg_studio.train.lm_card import measure

    data = write_ftqa(tmp_path / "data", "val", "toy-val", [TEXT], QUESTIONS[:2])
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    (adapter / "adapter_model.safetensors").write_bytes(b"weights one")
    old = {"qg": {"smollm": 0.5}, "reading": {"smollm": {"good": 9}}}
    (adapter / "val.json").write_text(
        json.dumps({**old, "adapter_sha256": adapter_digest(adapter)})
    )
    kept = measure(data, adapter, parts=(), progress=lambda line: None)
    assert kept["qg"] == old["qg"] and kept["reading"] == old["reading"]
    (adapter / "adapter_model.safetensors").write_bytes(b"weights two")
    fresh = measure(data, adapter, parts=(), progress=lambda line: None)
    assert "qg" not in fresh and "reading" not in fresh
