"""What was going on when something happened is its while, not a moment to count from:
not "What did the boy do after the wind was blowing?". On sentences written for this
project."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section


def _answers(text: str) -> dict[str, str]:
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    return {i.question: i.answer for i in items}


def test_what_was_going_on_is_the_while_of_a_deed():
    got = _answers(
        "The goose left her nest by the pond. The fox was watching from the reeds. The "
        "goose waddled to the water's edge."
    )
    assert got["What did the goose do while the fox was watching from the reeds?"] == (
        "waddled to the water's edge"
    )
    assert not [q for q in got if "after the fox was watching" in q]


def test_what_one_was_doing_is_asked_at_when_it_happened():
    got = _answers(
        "The farmer's niece climbed onto the pig's wall. The pig was eating its supper. The "
        "girl fell into the mud."
    )
    assert (
        got["What was the pig doing when the farmer's niece climbed onto the pig's wall?"]
        == "eating its supper"
    )


def test_what_one_saw_or_heard_going_on_is_no_deed_nor_feeling_of_theirs():
    got = _answers(
        "The old Turtle was walking along the bank when she heard a tiny voice crying. The "
        "baker was about to close the shop when she saw a thin boy standing in the snow."
    )
    assert not [q for q in got if q.startswith("Who standing")]
    assert not [q for q in got if q.startswith("How did the old Turtle feel")]


def test_a_verb_joined_to_one_under_way_is_under_way_too():
    from qg_studio.reading.analysis import analyse
    from qg_studio.reading.moments import in_progress

    analysis = analyse("The dog was barking and growling at the hen house.")
    assert [in_progress(c) for c in analysis.sentence_clauses[0]] == [True, True]


def test_what_one_had_none_of_is_no_thing_to_ask_for():
    got = _answers(
        "A thin brown dog sat under the shelter. He had no collar, and he found no food."
    )
    assert not [a for a in got.values() if a in ("no collar", "no food")]
