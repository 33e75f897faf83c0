"""The seq2seq backend on tiny T5/BART checkpoints built in the test: input formats,
batching, the yes/no constraint, long inputs, and valid items from any checkpoint."""

from __future__ import annotations

import warnings

import pytest
from seq2seq_tiny import tiny_bart
from seq2seq_tiny import tiny_t5
from seq2seq_tiny import write_ftqa

from qg_studio.models import seq2seq as decoding
from qg_studio.models.prompts import answer_window
from qg_studio.models.prompts import qa_input
from qg_studio.models.prompts import qg_input
from qg_studio.pipeline import STORY_LEVEL_ENGINE
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section

SECTIONS = [
    Section(1, "The fox ran in the forest. The hen was sad because it was hungry."),
    Section(2, "Rain fell. The king went home to the barn."),
]


@pytest.fixture(scope="module")
def t5_dir(tmp_path_factory):
    return str(tiny_t5(tmp_path_factory.mktemp("t5") / "tiny-t5"))


@pytest.fixture(scope="module")
def bart_dir(tmp_path_factory):
    return str(tiny_bart(tmp_path_factory.mktemp("bart") / "tiny-bart"))


@pytest.fixture
def spy(monkeypatch):
    """Records every prompt the engines decode, then decodes as usual."""
    seen: dict[str, list] = {"prompts": [], "settings": [], "scored": []}
    generate, score = decoding.generate_texts, decoding.score_targets

    def generate_spy(loaded, prompts, settings=None):
        seen["prompts"] += list(prompts)
        seen["settings"].append(settings)
        return generate(loaded, prompts, settings)

    def score_spy(loaded, prompts, targets):
        seen["scored"] += [(p, tuple(targets)) for p in prompts]
        return score(loaded, prompts, targets)

    monkeypatch.setattr(decoding, "generate_texts", generate_spy)
    monkeypatch.setattr(decoding, "score_targets", score_spy)
    return seen


# -- formats -----------------------------------------------------------------------------


def test_unified_qa_input_format():
    text = qa_input("Why was the Hen  SAD?", "The Hen was sad.\nIt was hungry.", "abstractive")
    assert text == "abstractive\nwhy was the hen sad?\nthe hen was sad. it was hungry."
    assert qa_input("Did it rain?", "Rain fell.", AnswerKind.YESNO).startswith(
        "yesno\ndid it rain?\n"
    )
    assert qa_input("Who ran?", "The Fox ran.", "extractive").split("\n") == [
        "extractive",
        "who ran?",
        "the fox ran.",
    ]
    # The public UnifiedQA checkpoints read a literal backslash-n, without a prefix.
    assert qa_input("Who ran?", "The Fox ran.", fmt="unifiedqa") == "who ran? \\n the fox ran."


def test_qg_input_format_has_control_codes_in_fixed_order():
    text = qg_input("The hen was sad.", "feeling", "implicit", "she was sad")
    assert text == (
        "element: feeling | explicitness: implicit | answer: she was sad | "
        "context: The hen was sad."
    )
    assert qg_input("A | B", Element.CAUSAL, Explicitness.EXPLICIT).startswith(
        "element: causal relationship | explicitness: explicit | context: A , B"
    )
    assert (
        qg_input("The fox ran.", "character", "explicit", "fox", fmt="lmqg")
        == "generate question: The <hl> fox <hl> ran."
    )
    with pytest.raises(ValueError):
        qg_input("x", "character", "explicit", fmt="nope")


# -- the unified answerer ------------------------------------------------------------------


def test_answerer_sends_prefixed_lowercased_inputs(t5_dir, spy):
    from qg_studio.answering import Answerer
    from qg_studio.answering import get_answerer

    answerer = get_answerer("seq2seq", model=t5_dir, num_beams=1)
    assert isinstance(answerer, Answerer) and answerer.name == "seq2seq"
    assert answerer.loaded.max_new_tokens == 8  # from the checkpoint's generation config
    answers = answerer.answer(
        ["Who RAN in the forest?", "Did it rain?", "Why was the hen sad?"],
        SECTIONS,
        [[1], [2], [1]],
        kinds=[None, None, "abstractive"],
    )
    assert spy["prompts"] == [
        "extractive\nwho ran in the forest?\n" + SECTIONS[0].text.lower(),
        "abstractive\nwhy was the hen sad?\n" + SECTIONS[0].text.lower(),
    ]
    assert spy["scored"] == [("yesno\ndid it rain?\n" + SECTIONS[1].text.lower(), ("yes", "no"))]
    assert [a.answer_kind for a in answers] == [
        AnswerKind.EXTRACTIVE,
        AnswerKind.YESNO,
        AnswerKind.ABSTRACTIVE,
    ]
    assert answers[1].answers in (["Yes"], ["No"]) and answers[1].sections == [2]
    assert all(0.0 <= a.confidence <= 1.0 for a in answers)


def test_yes_no_decoding_is_constrained_and_follows_the_model(tmp_path):
    import torch

    from qg_studio.answering.unified_seq2seq import UnifiedSeq2SeqAnswerer

    answerer = UnifiedSeq2SeqAnswerer(model=str(tiny_t5(tmp_path / "biased")), num_beams=1)
    model, tok = answerer.loaded.model, answerer.loaded.tokenizer
    for word in ("no", "yes"):
        bias = torch.zeros(len(tok))
        bias[tok.convert_tokens_to_ids(word)] = 30.0
        hook = model.lm_head.register_forward_hook(lambda m, i, out, b=bias: out + b)
        try:
            yesno, free = answerer.answer(["Was the hen sad?", "Who ran?"], SECTIONS, [[1], [1]])
        finally:
            hook.remove()
        assert yesno.answers == [word.capitalize()] and yesno.confidence > 0.99
        assert yesno.evidence and yesno.evidence[0].text == "The hen was sad because it was hungry."
        # Unconstrained decoding of the same model repeats the word: the constraint is real.
        assert free.answers[0].split()[:2] == [word, word]


def test_batching_keeps_order_and_results(t5_dir):
    from qg_studio.answering.unified_seq2seq import UnifiedSeq2SeqAnswerer

    questions = [
        "Who ran?",
        "What fell on the king and the queen in the forest?",
        "Who sat?",
        "Where did the king hurry once the rain fell?",
        "What was it?",
    ]
    ids = [[1], [2], [1], [2], [1]]
    one = UnifiedSeq2SeqAnswerer(model=t5_dir, num_beams=1, batch_size=1).answer(
        questions, SECTIONS, ids
    )
    many = UnifiedSeq2SeqAnswerer(model=t5_dir, num_beams=1, batch_size=8).answer(
        questions, SECTIONS, ids
    )
    assert [a.answers for a in one] == [a.answers for a in many]
    assert [a.sections for a in many] == ids


def test_long_context_is_narrowed_to_question_sentences_with_a_note(tmp_path, spy):
    from qg_studio.answering.unified_seq2seq import UnifiedSeq2SeqAnswerer
    from qg_studio.models.seq2seq import token_lengths

    folder = tiny_t5(tmp_path / "short", meta={"max_source_length": 40})
    filler = " ".join(["The wolf sat in the barn."] * 12)
    long = Section(1, f"{filler} The king went home because rain fell. {filler}")
    answerer = UnifiedSeq2SeqAnswerer(model=str(folder), num_beams=1)
    result = answerer.answer(["Why did the king go home?"], [long], [[1]])[0]
    prompt = spy["prompts"][0]
    assert "the king went home because rain fell." in prompt
    assert token_lengths(answerer.loaded.tokenizer, [prompt])[0] <= 40
    assert "40-token" in result.note


def test_empty_question_gets_an_empty_answer_not_a_crash(t5_dir):
    from qg_studio.answering.unified_seq2seq import UnifiedSeq2SeqAnswerer

    result = UnifiedSeq2SeqAnswerer(model=t5_dir).answer(["  "], SECTIONS, [[1]])
    assert result[0].answers == [] and result[0].note == "empty question"


# -- the question generator ----------------------------------------------------------------


@pytest.mark.parametrize("which", ["t5", "bart"])
def test_generate_gives_valid_items_from_any_checkpoint(which, t5_dir, bart_dir):
    from qg_studio.generation import QuestionGenerator
    from qg_studio.generation import get_generator

    generator = get_generator("seq2seq", model=t5_dir if which == "t5" else bart_dir)
    assert isinstance(generator, QuestionGenerator)
    items = generator.generate(SECTIONS, GenerationRequest(count=7, implicit_share=0.3))
    # Up to two candidates per requested question (different answers) for the ranker.
    assert 7 < len(items) <= 14
    assert {i.element for i in items} == set(Element)
    assert sum(i.explicitness is Explicitness.IMPLICIT for i in items) >= 2
    keys = [(i.sections[0], i.element, i.answer.lower()) for i in items]
    assert len(set(keys)) == len(keys)  # extra candidates never repeat a question's target
    assert {s for i in items for s in i.sections} == {1, 2}
    for item in items:
        assert item.question.endswith("?") and item.answers and item.answers[0]
        assert item.engine == f"seq2seq:tiny-{which}"
        for ev in item.evidence:
            section = SECTIONS[ev.section - 1]
            assert section.text[ev.start : ev.end] == ev.text
        kind = (
            AnswerKind.EXTRACTIVE
            if item.explicitness is Explicitness.EXPLICIT
            else AnswerKind.ABSTRACTIVE
        )
        assert item.answer_kind is kind
        assert 0.0 <= item.scores.confidence <= 1.0


def test_generate_prompts_carry_the_requested_control_codes(t5_dir, spy):
    from qg_studio.generation.seq2seq_writer import Seq2SeqGenerator

    generator = Seq2SeqGenerator(model=t5_dir, oversample=1)
    request = GenerationRequest(
        count=None, elements={"feeling": 1, "setting": 1}, implicit_share=0.5
    )
    items = generator.generate(SECTIONS[:1], request, num_beams=1, do_sample=True, top_p=0.5)
    assert spy["prompts"][0].startswith("element: feeling | explicitness: implicit | answer: ")
    assert spy["prompts"][1].startswith("element: setting | explicitness: explicit | answer: ")
    assert spy["prompts"][1].endswith(f"context: {SECTIONS[0].text}")
    assert "answer: in the forest |" in spy["prompts"][1]
    settings = spy["settings"][0]
    assert (settings.num_beams, settings.do_sample, settings.top_p) == (1, True, 0.5)
    assert [i.element for i in items] == [Element.FEELING, Element.SETTING]


@pytest.mark.parametrize("context_words", [None, 12])
def test_training_and_inference_prompts_are_identical(tmp_path, spy, context_words):
    from qg_studio.data.fairytaleqa import read_split
    from qg_studio.generation.seq2seq_writer import Seq2SeqGenerator
    from qg_studio.train.examples import qg_pairs

    text = (
        "The fox ran in the forest. It was hungry. The hen sat in the barn. "
        "The wolf saw the hen. The king went home. Rain fell."
    )
    root = write_ftqa(
        tmp_path / "data",
        "train",
        "toy",
        [text],
        [
            {
                "question": "Where did the hen sit?",
                "answer1": "in the barn",
                "attribute1": "setting",
                "ex-or-im1": "explicit",
            },
            {
                "question": "How did the fox feel?",
                "answer1": "hungry",
                "attribute1": "feeling",
                "ex-or-im1": "implicit",
            },
        ],
    )
    pairs = qg_pairs(read_split(root, "train"), context_words=context_words)
    folder = tiny_t5(tmp_path / "m", meta={"context_words": context_words})
    generator = Seq2SeqGenerator(model=str(folder), num_beams=1)
    story = read_split(root, "train")[0]
    for q in story.questions:
        item = q.to_item()
        generator.write_question(
            [s for s in story.sections if s.id in item.sections],
            q.answers[0],
            item.element,
            item.explicitness,
        )
    assert spy["prompts"] == [p.source for p in pairs]
    if context_words:
        assert "context: The hen sat in the barn. The wolf saw the hen." in pairs[0].source


def test_write_question_guesses_explicitness_from_the_text(t5_dir):
    from qg_studio.generation.seq2seq_writer import Seq2SeqGenerator

    generator = Seq2SeqGenerator(model=t5_dir, num_beams=1)
    explicit = generator.write_question(SECTIONS, "in the forest", Element.SETTING)
    implicit = generator.write_question(SECTIONS, "she felt very lonely", Element.FEELING)
    assert explicit.explicitness is Explicitness.EXPLICIT
    assert explicit.evidence[0].text == "in the forest" and explicit.sections == [1]
    assert implicit.explicitness is Explicitness.IMPLICIT and implicit.evidence == []


def test_long_section_is_windowed_around_the_answer_with_a_warning(tmp_path, spy):
    from qg_studio.generation.seq2seq_writer import Seq2SeqGenerator
    from qg_studio.models.seq2seq import token_lengths

    folder = tiny_t5(tmp_path / "short", meta={"max_source_length": 40})
    filler = " ".join(["The wolf sat in the barn."] * 15)
    long = Section(1, f"{filler} The queen was happy. {filler}")
    generator = Seq2SeqGenerator(model=str(folder), num_beams=1)
    with pytest.warns(UserWarning, match="exceed the model's 40-token input"):
        item = generator.write_question([long], "happy", Element.FEELING, Explicitness.EXPLICIT)
    assert "The queen was happy." in spy["prompts"][0]
    assert token_lengths(generator.loaded.tokenizer, spy["prompts"])[0] <= 40
    assert item.evidence[0].text == "happy"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a section that fits is never warned about
        generator.write_question(SECTIONS[:1], "sad", Element.FEELING)


def test_answer_window_keeps_the_answer_sentence_and_neighbours():
    text = "A one. B two. C three has the key. D four. E five."
    assert answer_window(text, "the key", 9) == "B two. C three has the key. D four."
    assert answer_window(text, "key", None) == text
    assert "the key" in answer_window(text, "three key", 5)  # implicit: most shared words


def test_missing_model_is_a_one_line_error(tmp_path):
    from qg_studio.generation.seq2seq_writer import Seq2SeqGenerator
    from qg_studio.models.registry import ModelError

    with pytest.raises(ModelError) as err:
        Seq2SeqGenerator(model=str(tmp_path / "no" / "such" / "folder"))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("which", ["t5", "bart"])
def test_generate_command_with_a_random_checkpoint_gives_valid_items(
    which, t5_dir, bart_dir, tmp_path, story_text, capsys
):
    """An untrained model writes nonsense; the teacher still gets a set to see and edit,
    each item flagged when it reads badly, not an empty result."""
    import json

    from qg_studio.cli import main

    story = tmp_path / "story.txt"
    story.write_text(story_text, encoding="utf-8")
    code = main(
        [
            "generate",
            str(story),
            "--engine",
            "seq2seq",
            "--model",
            t5_dir if which == "t5" else bart_dir,
            # More than the story-level questions (who, where, the turn, the ending, …)
            # could fill on their own: some places are the model's.
            "--count",
            "12",
            # What the model wrote, as it wrote it: the answer check would rightly keep an
            # untrained model's questions out of the set.
            "--answerer",
            "none",
            "--json",
        ]
    )
    assert code == 0
    out = capsys.readouterr()
    items = json.loads(out.out.strip().splitlines()[-1])["items"]
    assert items
    if len(items) < 12:  # an untrained model tends to write one question for every answer
        assert f"{len(items)} of the 12 questions asked for" in out.err
    assert any(raw["engine"] == f"seq2seq:tiny-{which}" for raw in items)
    for raw in items:
        item = QAItem.from_dict(raw)
        assert item.question.endswith("?") and item.answer.strip()
        assert item.engine in (f"seq2seq:tiny-{which}", STORY_LEVEL_ENGINE)
        assert item.sections
        readable = len(item.question.split()) >= 3
        assert readable or item.scores.low_quality


def test_eval_commands_take_a_seq2seq_checkpoint(t5_dir, tmp_path, capsys):
    import json

    from qg_studio.cli import main

    root = write_ftqa(
        tmp_path / "data",
        "val",
        "toy",
        [SECTIONS[0].text],
        [
            {
                "question": "Why was the hen sad?",
                "answer1": "it was hungry",
                "attribute1": "causal relationship",
                "ex-or-im1": "explicit",
            },
            {
                "question": "Where did the fox run?",
                "answer1": "in the forest",
                "attribute1": "setting",
                "ex-or-im1": "explicit",
            },
        ],
    )
    for command in (["eval", "qg"], ["eval", "qa", "--given-sections"]):
        code = main(
            [
                *command,
                "--data",
                str(root),
                "--split",
                "val",
                "--engine",
                "seq2seq",
                "--model",
                t5_dir,
                "--json",
            ]
        )
        result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
        assert code == 0 and result["n"] == 2
        assert 0.0 <= result["rougeL_f"] <= 1.0
