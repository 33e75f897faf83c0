"""The tagger: element and explicitness for typed and generated questions, and its commands."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from ftqa_files import write_story

from qg_studio.cli import main
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import Section
from qg_studio.tagging import Tag
from qg_studio.tagging import tag
from qg_studio.tagging import tag_many
from qg_studio.tagging.model import DEFAULT_MODEL
from qg_studio.tagging.model import MODEL_ENV
from qg_studio.tagging.model import load_model

SECTIONS = [
    Section(
        1,
        "Once upon a time a poor miller lived by the river with his three sons. "
        "One morning the youngest son found a golden key under the old oak tree. "
        "He ran home and showed it to his father.",
    ),
    Section(
        2,
        "The father turned the key over in his hands. That night a little grey fox "
        "knocked at the door and asked for the key, because it opened the fox's "
        "own house deep in the forest.",
    ),
]

TYPICAL = [
    ("Who found the golden key?", Element.CHARACTER),
    ("Who helped the old woman carry the basket?", Element.CHARACTER),
    ("What kind of person was the king?", Element.CHARACTER),
    ("Where did the miller live?", Element.SETTING),
    ("Where did the fox hide the cheese?", Element.SETTING),
    ("What did the youngest son do with the key?", Element.ACTION),
    ("What did the miller do with the gold?", Element.ACTION),
    ("How did the father feel when he saw the key?", Element.FEELING),
    ("How did the princess feel when the frog spoke?", Element.FEELING),
    ("Why did the fox knock at the door?", Element.CAUSAL),
    ("What made the giant angry?", Element.CAUSAL),
    ("What happened after the fox knocked at the door?", Element.OUTCOME),
    ("What happened after the bell rang?", Element.OUTCOME),
    ("What will the boy do next?", Element.PREDICTION),
    ("What will happen to the king if he breaks his promise?", Element.PREDICTION),
]


@pytest.fixture
def no_model(monkeypatch, tmp_path):
    monkeypatch.setenv(MODEL_ENV, str(tmp_path / "missing.npz"))


@pytest.fixture
def shipped():
    if load_model() is None:
        pytest.fail(f"the shipped model {DEFAULT_MODEL} is missing")


@pytest.mark.parametrize("question,element", TYPICAL)
def test_model_tags_each_elements_typical_question_forms(shipped, question, element):
    assert tag(question).element == element


@pytest.mark.parametrize("question,element", TYPICAL)
def test_rules_tag_the_same_forms_when_the_model_file_is_missing(no_model, question, element):
    result = tag(question)
    assert result.source == "rules"
    assert result.element == element


def test_span_answer_in_the_sections_is_explicit(shipped):
    result = tag("What did the youngest son find under the old oak tree?", "a golden key", SECTIONS)
    assert result.explicitness == Explicitness.EXPLICIT
    assert result.explicitness_confidence > 0.9


def test_answer_absent_from_the_sections_is_implicit(shipped):
    feeling = tag("How did the father feel when he saw the key?", "proud and happy", SECTIONS)
    reason = tag(
        "Why did the son run home?", "He wanted his father to see what he found.", SECTIONS
    )
    assert feeling.explicitness == Explicitness.IMPLICIT
    assert reason.explicitness == Explicitness.IMPLICIT


def test_the_same_question_changes_with_its_evidence(shipped):
    question = "Why did the fox knock at the door?"
    found = tag(question, "it opened the fox's own house", SECTIONS)
    inferred = tag(question, "The fox was tired of sleeping outside in the cold.", SECTIONS)
    assert found.explicitness == Explicitness.EXPLICIT
    assert inferred.explicitness == Explicitness.IMPLICIT


def test_typed_question_without_answer_or_sections(shipped):
    assert (
        tag("How did the princess feel when the frog spoke?").explicitness == Explicitness.IMPLICIT
    )
    assert tag("Where did the miller live?").explicitness == Explicitness.EXPLICIT
    # An answer without sections still counts: a one-word feeling is rarely a quote.
    with_answer = tag("How did the father feel when he saw the key?", "happy")
    assert with_answer.explicitness == Explicitness.IMPLICIT


def test_rules_use_the_span_test_when_answer_and_sections_are_known(no_model):
    explicit = tag("What did the son find?", "a golden key", SECTIONS)
    implicit = tag("What did the son find?", "a treasure", SECTIONS)
    assert (explicit.explicitness, implicit.explicitness) == (
        Explicitness.EXPLICIT,
        Explicitness.IMPLICIT,
    )


@pytest.mark.parametrize("source", ["model", "rules"])
def test_confidences_are_probabilities(source, monkeypatch, tmp_path):
    if source == "rules":
        monkeypatch.setenv(MODEL_ENV, str(tmp_path / "missing.npz"))
    questions = [q for q, _ in TYPICAL] + ["", "banana?", "Tell me about the story."]
    answers = ["a golden key"] * len(questions)
    for result in tag_many(questions, answers, SECTIONS) + tag_many(questions):
        assert isinstance(result, Tag) and result.source == source
        assert 0.0 <= result.element_confidence <= 1.0
        assert 0.5 <= result.explicitness_confidence <= 1.0
        assert set(result.scores) == {e.value for e in Element}
        assert math.isclose(sum(result.scores.values()), 1.0, abs_tol=1e-5)
        assert all(0.0 <= p <= 1.0 for p in result.scores.values())
        assert result.element_confidence == max(result.scores.values())
        assert result.scores[result.element.value] == result.element_confidence


def test_missing_model_falls_back_with_lower_confidence(shipped, monkeypatch, tmp_path):
    question = "Who found the golden key?"
    trained = tag(question)
    monkeypatch.setenv(MODEL_ENV, str(tmp_path / "missing.npz"))
    fallback = tag(question)
    assert trained.source == "model" and fallback.source == "rules"
    assert fallback.element == trained.element == Element.CHARACTER
    assert fallback.element_confidence < trained.element_confidence
    assert fallback.explicitness_confidence < trained.explicitness_confidence


def test_tag_many_matches_tag_and_accepts_shared_or_per_question_sections(shipped):
    questions = ["Who found the golden key?", "Why did the fox knock at the door?"]
    answers = ["the youngest son", "it opened the fox's own house"]
    shared = tag_many(questions, answers, SECTIONS)
    per_question = tag_many(questions, answers, [SECTIONS[:1], SECTIONS[1:]])
    single = [tag(q, a, SECTIONS) for q, a in zip(questions, answers)]
    assert [t.to_dict() for t in shared] == [t.to_dict() for t in single]
    assert [t.element for t in per_question] == [t.element for t in single]
    assert tag_many([]) == []
    with pytest.raises(ValueError):
        tag_many(questions, answers[:1])
    with pytest.raises(ValueError):
        tag_many(questions, answers, [SECTIONS])


def test_blank_answer_counts_as_unknown(shipped):
    assert (
        tag("Where did the miller live?", "  ", SECTIONS).to_dict()
        == tag("Where did the miller live?").to_dict()
    )


# ------------------------------------------------------------- FairytaleQA-layout fixture


def _write_story(
    root: Path,
    split: str,
    name: str,
    sections: list[str],
    questions: list[tuple[str, str, str, str, str]],
) -> None:
    rows = [
        {
            "question_id": i,
            "local-or-sum": "local",
            "cor_section": cor,
            "attribute1": element,
            "question": question,
            "ex-or-im1": explicitness,
            "answer1": answer,
        }
        for i, (cor, element, question, explicitness, answer) in enumerate(questions, 1)
    ]
    write_story(root, split, name, sections, rows)


FIXTURE_QUESTIONS = [
    ("1", "character", "Who found the golden key?", "explicit", "the youngest son"),
    ("1", "setting", "Where did the miller live?", "explicit", "by the river"),
    (
        "1",
        "action",
        "What did the youngest son do after he found the key?",
        "explicit",
        "ran home and showed it to his father",
    ),
    ("1", "feeling", "How did the father feel when he saw the key?", "implicit", "proud"),
    (
        "2",
        "causal relationship",
        "Why did the fox ask for the key?",
        "explicit",
        "it opened the fox's own house deep in the forest",
    ),
    (
        "2",
        "outcome resolution",
        "What happened after the father turned the key over?",
        "explicit",
        "a little grey fox knocked at the door",
    ),
    (
        "1,2",
        "prediction",
        "What will the fox do when he gets the key back?",
        "implicit",
        "He will give the key back to the fox.",
    ),
]


@pytest.fixture
def ftqa(tmp_path) -> Path:
    root = tmp_path / "ftqa"
    _write_story(root, "val", "miller-and-fox", [s.text for s in SECTIONS], FIXTURE_QUESTIONS)
    return root


def test_eval_tag_json_contract(shipped, ftqa, capsys):
    code = main(["eval", "tag", "--data", str(ftqa), "--split", "val", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["n"] == len(FIXTURE_QUESTIONS)
    assert 0.0 <= summary["element_acc"] <= 1.0 and 0.0 <= summary["explicitness_acc"] <= 1.0
    # These are textbook forms of every element; the tagger must get them all.
    assert summary["element_acc"] == 1.0
    assert summary["explicitness_acc"] >= 6 / 7
    assert "element confusion" in out and "prediction" in out and "recall" in out


def test_eval_tag_counts_mistakes(shipped, tmp_path, capsys):
    root = tmp_path / "wrong"
    wrong = [(cor, "setting", q, "implicit", a) for cor, _, q, _, a in FIXTURE_QUESTIONS]
    _write_story(root, "val", "miller-and-fox", [s.text for s in SECTIONS], wrong)
    assert main(["eval", "tag", "--data", str(root), "--split", "val", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["element_acc"] == pytest.approx(1 / 7, abs=1e-3)
    assert summary["explicitness_acc"] < 0.5


def test_eval_tag_bad_folder_is_one_line_error(tmp_path, capsys):
    assert main(["eval", "tag", "--data", str(tmp_path / "nowhere"), "--split", "val"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("qg-studio: error:") and "\n" not in err
    (tmp_path / "empty").mkdir()
    assert main(["eval", "tag", "--data", str(tmp_path / "empty"), "--split", "val"]) == 2


def test_train_tagger_writes_a_model_that_tags(tmp_path, monkeypatch, capsys):
    root = tmp_path / "ftqa"
    # Three stories (a feature must be seen in three), each question twice reworded.
    texts = [s.text for s in SECTIONS]
    doubled = FIXTURE_QUESTIONS + [
        (c, e, q.replace("the ", "that ", 1), x, a) for c, e, q, x, a in FIXTURE_QUESTIONS
    ]
    _write_story(root, "train", "miller-and-fox", texts, doubled)
    _write_story(root, "train", "miller-and-fox-again", texts, doubled)
    _write_story(root, "train", "miller-and-fox-third", texts, doubled)
    out = tmp_path / "model"
    assert main(["train", "tagger", "--data", str(root), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["questions"] == 3 * len(doubled)
    assert (out / "tagger.npz").is_file()

    monkeypatch.setenv(MODEL_ENV, str(out / "tagger.npz"))
    result = tag("Where did the fox live?")
    assert result.source == "model"
    assert result.element == Element.SETTING
    assert tag("How did the boy feel?").element == Element.FEELING


def test_train_tagger_without_train_split_is_user_error(tmp_path, capsys):
    assert main(["train", "tagger", "--data", str(tmp_path)]) == 2
    assert "no train split" in capsys.readouterr().err


# ------------------------------------------------------------- the real data (skipped without it)

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "fairytaleqa"
needs_shared = pytest.mark.skipif(
    not (SHARED / "questions" / "val").is_dir(), reason="../shared/data/fairytaleqa is absent"
)


@pytest.mark.shared
@needs_shared
def test_shipped_model_meets_the_val_targets(shipped, capsys):
    assert main(["eval", "tag", "--data", str(SHARED), "--split", "val", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["n"] == 1025
    assert summary["element_acc"] >= 0.95
    assert summary["explicitness_acc"] >= 0.90


@pytest.mark.slow
@pytest.mark.shared
@needs_shared
def test_train_tagger_reproduces_the_shipped_model(shipped, tmp_path, capsys):
    import numpy as np

    assert main(["train", "tagger", "--data", str(SHARED), "--out", str(tmp_path)]) == 0
    with (
        np.load(DEFAULT_MODEL, allow_pickle=False) as old,
        np.load(tmp_path / "tagger.npz", allow_pickle=False) as new,
    ):
        assert sorted(old.files) == sorted(new.files)
        for key in old.files:
            if old[key].dtype.kind == "f":
                np.testing.assert_allclose(new[key], old[key], atol=1e-4, err_msg=key)
            else:
                assert (new[key] == old[key]).all(), key
