"""An item's scores and flags: typed for new code, the stored JSON unchanged for old items."""

from __future__ import annotations

import json

from qg_studio.schema import QAItem
from qg_studio.scores import FLAGS
from qg_studio.scores import SCORES
from qg_studio.scores import ItemScores


def _item(**scores) -> QAItem:
    return QAItem("Who found the lantern?", ["Mira"], "character", "explicit", scores=scores)


def test_an_item_stored_before_keeps_its_scores_and_unknown_keys():
    stored = {
        "question": "Who found the lantern?",
        "answers": ["Mira"],
        "element": "character",
        "explicitness": "explicit",
        "scores": {"confidence": 0.8, "rank": 0.61, "low_quality": 1.0, "legacy": 3},
    }
    item = QAItem.from_dict(json.loads(json.dumps(stored)))
    assert item.scores.confidence == 0.8 and item.scores.rank == 0.61
    assert item.scores.low_quality is True and item.scores.unanswerable is False
    assert item.to_dict()["scores"] == {
        "confidence": 0.8,
        "rank": 0.61,
        "low_quality": 1.0,
        "legacy": 3.0,
    }


def test_unset_scores_and_lowered_flags_are_absent_when_stored():
    item = _item(confidence=0.5)
    assert item.scores.rank is None and item.scores.check_answer is False
    item.scores.check_answer = True
    assert item.scores.to_dict() == {"confidence": 0.5, "check_answer": 1.0}
    item.scores.check_answer = False
    assert item.scores.to_dict() == {"confidence": 0.5}


def test_a_dict_assigned_later_becomes_typed():
    item = _item()
    item.scores = {"confidence": 0.25}
    assert isinstance(item.scores, ItemScores) and item.scores.confidence == 0.25
    assert item.scores == ItemScores(confidence=0.25)


def test_every_declared_key_names_its_writer():
    assert not set(SCORES) & set(FLAGS)
    assert all("(" in writer for writer in {**SCORES, **FLAGS}.values())
