"""An infinitive that an indefinite or a "no" noun takes is told with it: a key never ends
on "with nowhere" or "no place", cut from "to sleep" or "to hide". On sentences written for
this project."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.pipeline import story_candidates
from qg_studio.reading.analysis import analyse
from qg_studio.reading.grammar import state
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section


def test_a_deed_with_nowhere_to_sleep_keeps_to_sleep():
    sections = [
        Section(1, "The fox came home late and found that the river had washed his den away."),
        Section(
            2,
            "He lay on the grass, wet and cold, with nowhere to sleep. The next morning he "
            "dug a new den on the hill.",
        ),
    ]
    items = EmbeddedGenerator().generate(sections, GenerationRequest(count=None))
    items += story_candidates(sections)
    keys = [i.answer for i in items if "lay on the grass" in i.answer]
    assert keys
    assert all(k.endswith("with nowhere to sleep") for k in keys)


def test_a_moment_told_again_keeps_what_one_had_no_place_for():
    analysis = analyse("That winter she had nothing to eat and no place to hide.")
    (clause,) = [c for clauses in analysis.sentence_clauses for c in clauses]
    assert state(clause) == "she had nothing to eat and no place to hide"
