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
    analysis = analyse("That winter she had no bread to eat and no place to hide.")
    (clause,) = [c for clauses in analysis.sentence_clauses for c in clauses]
    assert state(clause) == "she had no bread to eat and no place to hide"


def test_going_to_sleep_is_one_doing_not_a_going_for_a_purpose():
    sections = [
        Section(
            1,
            "When the first frost came, the rabbits went to sleep in the hedge. Their aunt "
            "went to live with her cousins by the mill. The youngest went to fetch berries.",
        )
    ]
    items = EmbeddedGenerator().generate(sections, GenerationRequest(count=None))
    keys = {i.answer for i in items}
    assert not [k for k in keys if k.endswith(("went", "went to"))]
    assert "went to sleep in the hedge" in keys
    # A going for something is still one: its "to" is why.
    assert "went to fetch berries" not in keys


def test_two_bare_verbs_joined_are_one_doing_with_nothing_between():
    text = (
        "The old badger could not sleep. He tossed and turned in his bed of straw and "
        "listened to the rain."
    )
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    asked = {i.question: i.answer for i in items}
    assert "tossed and turned in his bed of straw" in asked.values()
    assert not [q for q in asked if "after he tossed?" in q or q.endswith("he tossed")]


def test_going_to_stay_with_someone_is_one_doing():
    text = (
        "When Ravi was eight, he went to stay with his uncle by the sea. On the first "
        "morning his uncle gave him a fishing net."
    )
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    keys = {i.answer for i in items}
    assert not [k for k in keys if k.endswith("went")]
    assert [k for k in keys if "went to stay with his uncle by the sea" in k]


def test_coming_to_rest_is_one_doing_and_coming_there_no_deed_of_its_own():
    text = (
        "The old boat drifted for days. It came to rest on a sandy beach. Children came "
        "there to play, and they loved the old boat."
    )
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    asked = {i.question: i.answer for i in items}
    assert not [q for q, a in asked.items() if a.startswith("to rest")]
    assert not [a for a in asked.values() if a == "came there"]
    # A common noun opening the sentence is lower case in a question, with its "the".
    assert asked.get("What did the children love?") == "the old boat"


def test_how_one_came_or_went_is_one_doing_with_it():
    text = (
        "Old Tortoise waited by the pond all day. When the sun was low, the Frog came "
        "hopping up to the stone. Then the two friends went walking down the lane."
    )
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    got = {i.question: i.answer for i in items}
    assert got["What happened when the sun was low?"] == "the Frog came hopping up to the stone"
    assert not [a for a in got.values() if a in ("the Frog came", "came")]
