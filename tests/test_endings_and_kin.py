"""How a story ends, where the rules had read a link as part of the event ("The next
morning, …", "Then …", "… after that") or left a "she" unnamed in the key; and the words
a child's story names its family by ("grandson", "Mum", "Grandpa"). Each on sentences
written for this project."""

from __future__ import annotations

from qg_studio.pipeline import story_candidates
from qg_studio.reading.analysis import analyse
from qg_studio.schema import Section


def _ending(text: str) -> str:
    items = story_candidates([Section(1, text)])
    return next(i.answer for i in items if i.question == "How does the story end?")


OPENING = (
    "A Miller lived beside a mill stream with his old grey donkey. Every day the donkey "
    "carried the sacks of flour up the hill to the village. One winter the donkey fell "
    "ill, and the Miller carried the sacks himself. He fed the donkey warm mash and sat "
    "with him every night. "
)


def test_the_ending_is_what_happened_not_when_after_what():
    got = _ending(OPENING + "The next morning, the donkey stood up and brayed for his breakfast.")
    assert got == "The donkey stood up and brayed for his breakfast"
    got = _ending(OPENING + "Then the donkey stood up and brayed for his breakfast.")
    assert got == "The donkey stood up and brayed for his breakfast"
    got = _ending(OPENING + "The donkey never carried a sack up the hill alone after that.")
    assert got == "The donkey never carried a sack up the hill alone"
    got = _ending(OPENING + "The next spring the donkey carried the sacks up the hill again.")
    assert got == "The donkey carried the sacks up the hill again"


def test_a_time_opened_by_a_link_word_goes_whole_not_cut_after_the_link():
    # "after that" is a link only where "that" is the thing; "after that winter" is a time
    got = _ending(OPENING + "After that winter the Miller never sold the old donkey.")
    assert got == "The Miller never sold the old donkey"
    got = _ending(OPENING + "From that winter on Greta fed the donkey herself.")
    assert got.startswith("From that winter on Greta")  # the name is kept, not cut


def test_a_time_that_tells_a_habit_stays_in_the_ending():
    got = _ending(OPENING + "Sometimes, on summer evenings, the Miller rode the donkey home.")
    assert got == "Sometimes, on summer evenings, the Miller rode the donkey home"


def test_whose_the_one_in_the_ending_is_is_named():
    got = _ending(
        "Rosa lost her red scarf on the way to the market. She looked for it until dark. "
        "The next day a girl from the bakery brought it to the door. Her father thanked the "
        "girl and gave her a jar of plum jam."
    )
    assert got == "Rosa's father thanked the girl and gave her a jar of plum jam"


def test_everyone_a_pronoun_stands_for_in_the_ending_is_named():
    got = _ending(
        "A Beaver and a Heron lived by the lake. The Beaver built a warm lodge before the "
        "frost, but the Heron only fished and sang. When the lake froze, the Heron had "
        "nowhere to go. The Beaver had room for two, and he was glad of company when she "
        "knocked at his door."
    )
    assert got == (
        "The Beaver had room for two, and he was glad of company when the Heron knocked at his door"
    )


def test_the_family_a_childs_story_names_are_someone():
    analysis = analyse(
        "One rainy afternoon the fisherman's granddaughter came to visit. She was only six. "
        "Later her grandpa came in from the boat, and he shook the rain from his coat. Her "
        "mum had gone to the market. When she came back, her arms were full of apples."
    )
    got = [
        (t.text, analysis.resolver.resolve(t)) for t in analysis.doc if t.lower_ in ("she", "he")
    ]
    assert got == [
        ("She", "the fisherman's granddaughter"),
        ("he", "the grandpa"),
        ("she", "the mum"),
    ]


def test_the_trades_and_young_creatures_of_a_childs_story_are_someone():
    analysis = analyse(
        "On the island lived an old keeper and his grey kitten, Smoke. Every night the keeper "
        "lit the lamp. One night he fell asleep by the fire. Smoke saw the dark window. She "
        "jumped onto his knees, and he woke with a start."
    )
    got = [
        (t.text, analysis.resolver.resolve(t)) for t in analysis.doc if t.lower_ in ("she", "he")
    ]
    assert got == [("he", "the keeper"), ("She", "Smoke"), ("he", "the keeper")]


def test_whom_the_ending_is_done_to_is_named():
    got = _ending(
        "Every winter the old Badger slept in a hole under the oak. One night the frost "
        "split the oak, and the Badger woke up shivering. A Rabbit found him in the snow. "
        "The Rabbit led him to her burrow."
    )
    assert got == "The Rabbit led the Badger to her burrow"
