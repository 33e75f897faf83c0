"""Counting words the rules had copied as they stood: "One young Ant" is "the young Ant"
(not "the one young Ant"), "the other bees each" are "the other bees", and "one at a
time" says how many, not when. On sentences written for this project."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section


def _answers(text: str) -> dict[str, str]:
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    return {i.question: i.answer for i in items}


def test_one_young_ant_is_the_young_ant_and_three_hares_the_three_hares():
    got = _answers(
        "One young Ant wanted to be the strongest worker of all. Three old Hares watched "
        "her from the grass."
    )
    assert got["Who wanted to be the strongest worker of all?"] == "the young Ant"
    assert got["Who watched the young Ant from the grass?"] == "the three old Hares"


def test_a_quantifier_after_the_noun_is_not_part_of_who():
    got = _answers("The meadow was full of clover. The other bees each flew home with their loads.")
    assert got["Who flew home with their loads?"] == "the other bees"


def test_one_at_a_time_is_how_many_not_when():
    got = _answers("When the rain stopped, the young Bee carried the drops home one at a time.")
    assert not [q for q in got if q.startswith("When")]


def test_many_named_again_are_the_ones_named():
    got = _answers("Many clever owls came to the oak. They read the old maps and argued all night.")
    assert got["What did the clever owls read?"] == "the old maps"


def test_what_a_colon_opens_is_cut_whole_not_after_its_first_item():
    got = _answers(
        "Our neighbour kept a white goat. The goat ate everything: apples, washing from the "
        "line, and once a straw hat."
    )
    assert "Who ate everything?" in got
    assert not [a for a in got.values() if a.endswith(("apples", ": apples"))]


def test_all_before_a_time_stays_when_the_one_before_it_is_named():
    got = _answers(
        "The old Badger was too tired to talk. So the young Rabbit sat beside him all "
        "night and kept the fire burning."
    )
    asked = [q for q in got if "beside the old Badger" in q]
    assert asked
    assert all("beside the old Badger all night" in q for q in asked)
