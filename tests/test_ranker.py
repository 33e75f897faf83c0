"""The learned ranker: its features, its labels, saving and loading it, training it on a
FairytaleQA-layout folder of our own, and the pipeline ranking and flagging by it."""

from __future__ import annotations

import json

import pytest
from seq2seq_tiny import write_ftqa

from qg_studio.ranking.learned import LearnedRanker
from qg_studio.ranking.learned import features
from qg_studio.ranking.learned import story_vocabulary
from qg_studio.schema import Evidence
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section

POND = (
    "A frog lived in a muddy pond at the edge of the farm. Every evening she sang to the "
    "moon. One night a heron came to the pond because he was hungry. The frog hid under a "
    "lily pad, so the heron caught nothing. He flew away over the barn. The frog was glad "
    "and sang louder than ever."
)
EXPERTS = [
    {
        "question": "Where did the frog live?",
        "answer1": "in a muddy pond",
        "attribute1": "setting",
        "ex-or-im1": "explicit",
    },
    {
        "question": "Why did the heron come to the pond?",
        "answer1": "he was hungry",
        "attribute1": "causal relationship",
        "ex-or-im1": "explicit",
    },
    {
        "question": "What did the frog do when the heron came?",
        "answer1": "hid under a lily pad",
        "attribute1": "action",
        "ex-or-im1": "explicit",
    },
    {
        "question": "How did the frog feel after the heron flew away?",
        "answer1": "glad",
        "attribute1": "feeling",
        "ex-or-im1": "explicit",
    },
]


def _item(question, answer, **kw) -> QAItem:
    return QAItem(question, [answer], kw.pop("element", "action"), "explicit", **kw)


def test_features_see_a_made_up_character_and_a_garbled_question():
    words = story_vocabulary(POND)
    told = features(_item("Why did the heron come to the pond?", "he was hungry"), words)
    made_up = features(_item("Why did the princess come to the castle?", "he was hungry"), words)
    garbled = features(_item("Why did the the heron come?", "he was hungry"), words)
    assert told["grounded"] == 1.0 and made_up["grounded"] < 0.5
    assert garbled["repeated_word"] == 1.0 and told["repeated_word"] == 0.0
    echo = features(_item("Did the frog hide under a lily pad?", "under a lily pad"), words)
    assert echo["gives_away"] == 1.0 and told["gives_away"] == 0.0
    item = _item("Who sang?", "the frog", engine="embedded", rule="character.subject")
    assert features(item, words)["rule=character.subject"] == 1.0


def test_a_candidate_is_labelled_by_its_closest_expert_pair_of_its_sections():
    from qg_studio.train.ranker import match_score

    experts = [
        ("Why did the heron come to the pond?", "he was hungry", {1}),
        ("Where did the frog live?", "in a muddy pond", {2}),
    ]
    same = _item("Why did the heron come to the pond?", "he was hungry", sections=[1])
    assert match_score(same, experts) == pytest.approx(1.0)
    elsewhere = _item("Where did the frog live?", "in a muddy pond", sections=[1])
    assert match_score(elsewhere, experts) < 0.5  # the expert asked it of another section
    near = _item("Why did the heron fly to the pond?", "because he was hungry", sections=[1])
    assert 0.6 < match_score(near, experts) < 1.0


def test_the_ranker_saves_and_loads_to_the_same_probabilities(tmp_path):
    ranker = LearnedRanker(
        {"grounded": 2.0, "rule=action.deed": -1.0},
        bias=-0.5,
        check_below=0.35,
        figures={"val": {"auroc": 0.8}},
    )
    path = ranker.save(tmp_path / "r")
    again = LearnedRanker.load(path.parent)
    f = {"grounded": 0.5, "rule=action.deed": 1.0, "unseen": 3.0}
    assert again.probability(f) == pytest.approx(ranker.probability(f))
    assert again.check_below == 0.35 and again.figures["val"]["auroc"] == 0.8
    # A larger weight first: the file reads as what the ranker trusts most.
    assert list(path.read_text().split('"weights"')[1].split('"'))[1] == "grounded"


def test_fit_learns_what_separates_matches_from_the_rest():
    from qg_studio.train.ranker import RankerSettings
    from qg_studio.train.ranker import fit
    from qg_studio.train.ranker import measure

    rows = [
        {"features": {"grounded": g, "answer_words": 1.0}, "match": 0.9 if g > 0.5 else 0.1}
        for g in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0) * 5
    ]
    settings = RankerSettings(c=10.0)
    ranker = fit(rows, settings)
    assert ranker.weights["grounded"] > 0
    figures = measure(ranker, rows, settings)
    assert figures["auroc"] == 1.0 and figures["matches"] == 15
    # At most a fifth of the matches fall under the check threshold.
    flagged = [
        r
        for r in rows
        if r["match"] > 0.5 and ranker.probability(r["features"]) < figures["check_below"]
    ]
    assert len(flagged) <= 3


def test_training_on_a_folder_writes_a_ranker_and_goes_on_from_its_candidates(tmp_path):
    from qg_studio.services.answers import load_answerer
    from qg_studio.train.ranker import RankerSettings
    from qg_studio.train.ranker import run

    data = tmp_path / "data"
    for i in range(4):
        write_ftqa(data, "train", f"pond{i}", [POND], EXPERTS)
    write_ftqa(data, "val", "pond-val", [POND], EXPERTS)
    settings = RankerSettings(holdout_every=2, match=0.6)
    lines: list[str] = []
    answerer = load_answerer("extractive")
    figures = run(
        data,
        tmp_path / "ranker",
        settings,
        work=tmp_path / "work",
        answerer=answerer,
        progress=lines.append,
    )
    assert figures["train"]["stories"] == 2 and figures["train"]["matches"] > 0
    assert (tmp_path / "ranker" / "ranker.json").is_file()
    assert len(list((tmp_path / "work").glob("*.jsonl"))) == 3 and len(lines) == 3
    ranker = LearnedRanker.load(tmp_path / "ranker")
    assert any(k.startswith("rule=") for k in ranker.weights)
    lines.clear()
    again = run(
        data,
        tmp_path / "ranker",
        settings,
        work=tmp_path / "work",
        answerer=answerer,
        progress=lines.append,
    )
    assert lines == [] and again["val"] == figures["val"]  # read back, not generated again


def test_the_pipeline_ranks_and_flags_by_the_learned_ranker():
    from qg_studio.pipeline import generate_items

    sections = [Section(id=1, text=POND)]
    # A ranker that trusts only where-questions: they come first, and all else is checked.
    ranker = LearnedRanker({"element=setting": 6.0}, bias=-3.0, check_below=0.5)
    items = generate_items(
        sections,
        GenerationRequest(count=4, elements={"setting": 1, "action": 3}),
        use_embeddings=False,
        ranker=ranker,
    )
    assert items and all(i.scores.rank is not None for i in items)
    for item in items:
        setting = item.element.value == "setting"
        assert item.scores.check_answer is not setting
        assert item.scores.answer_confidence == pytest.approx(0.95 if setting else 0.05, abs=0.01)
    evidence = Evidence.find(sections[0], "a muddy pond")
    assert evidence is not None


def test_the_ranker_in_use_is_the_one_named_else_none_when_switched_off(tmp_path, monkeypatch):
    from qg_studio.ranking.learned import default_ranker

    LearnedRanker({"grounded": 1.5}, bias=0.1).save(tmp_path / "mine")
    monkeypatch.setenv("QG_STUDIO_RANKER", str(tmp_path / "mine"))
    assert default_ranker().weights == {"grounded": 1.5}
    monkeypatch.setenv("QG_STUDIO_RANKER", "off")
    assert default_ranker() is None
    monkeypatch.setenv("QG_STUDIO_RANKER", str(tmp_path / "nothing-here"))
    assert default_ranker() is None


def test_a_teachers_keep_and_drop_decisions_refit_the_ranker_measured_on_held_out_ones(
    tmp_path, monkeypatch, capsys
):
    """Kept questions are grounded ones and dropped ones name people the story lacks: the
    refit learns that from the decisions alone and tells held-out ones apart."""
    from qg_studio.cli import main
    from qg_studio.ranking.learned import default_ranker
    from qg_studio.store import Store

    store = Store()
    for n in range(10):
        project = store.create_project(f"Class {n}")
        story = store.add_story(project, "Pond", POND, [Section(id=1, text=POND)])
        good = [
            _item(f"Why did the heron come to the pond {k}?", "he was hungry", sections=[1])
            for k in range(3)
        ]
        bad = [
            _item(f"Why did the princess visit the castle {k}?", "to dance", sections=[1])
            for k in range(3)
        ]
        ids = store.add_items(story, good + bad, actor="embedded")
        for item_id in ids[:3]:
            store.update_item(item_id, "teacher", status="kept")
        for item_id in ids[3:]:
            store.update_item(item_id, "teacher", status="dropped")
        typed = store.add_items(story, [_item("Who sang?", "the frog")], actor="teacher")
        store.update_item(typed[0], "teacher", status="kept")  # hers: not a proposer's
    assert main(["train", "ranker", "--from-store", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["train"]["candidates"] == 8 * 6 and figures["held_out"]["stories"] == 2
    assert figures["held_out"]["auroc"] == 1.0
    ranker = default_ranker()  # from now on, this user's sets are ranked by it
    assert ranker is not None and ranker.weights["grounded"] > 0
    monkeypatch.setenv("QG_STUDIO_RANKER", "off")
    assert default_ranker() is None


def test_too_few_decisions_are_refused_in_one_line(capsys):
    from qg_studio.cli import main

    assert main(["train", "ranker", "--from-store"]) == 2
    assert "the ranker needs at least 20" in capsys.readouterr().err
