"""A fable's thing told as a character ("a great orange Pumpkin … he told the carrots"),
where the parser took the capital for a place and the inverted subject for an object; what
grows is how it grows, and the corner of a garden is the garden. On sentences written for
this project."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.pipeline import story_candidates
from qg_studio.reading.analysis import analyse
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section

STORY = (
    "In the corner of Mrs. Okoro's garden grew a great orange Pumpkin. Every day he grew a "
    'little fatter, and every day he grew a little prouder. "Look at me," he told the '
    'carrots and the beans. "I am the biggest thing in this garden." The carrots said '
    "nothing. At the fair the Pumpkin did not win a ribbon."
)


def _asked(text: str) -> dict[str, str]:
    sections = [Section(1, text)]
    items = EmbeddedGenerator().generate(sections, GenerationRequest(count=None))
    return {i.question: i.answer for i in items + story_candidates(sections)}


def test_a_thing_a_fable_names_with_a_is_someone_a_he_stands_for():
    analysis = analyse(STORY)
    assert {analysis.resolver.resolve(t) for t in analysis.doc if t.lower_ == "he"} == {
        "the great orange Pumpkin"
    }
    got = _asked(STORY)
    assert got["What did the great orange Pumpkin say to the carrots and the beans?"] == (
        "Look at me. I am the biggest thing in this garden"
    )


def test_whom_one_told_and_how_one_grew_are_no_things_done():
    got = _asked(STORY)
    assert not [q for q in got if q.endswith(("tell?", "grow?"))]
    assert not [a for a in got.values() if a.endswith("prouder")]


def test_the_corner_of_a_garden_is_the_garden():
    got = _asked(STORY)
    assert got["Where does this story take place?"] == "In the corner of Mrs. Okoro's garden"


def test_a_capitalised_thing_given_a_feeling_is_whom_she_means():
    from qg_studio.reading.analysis import analyse

    analysis = analyse(
        "Long ago the Moon was lonely. Every evening she shone over the empty fields and "
        "looked for a friend, but the crows were busy with the corn."
    )
    assert [analysis.resolver.resolve(t) for t in analysis.doc if t.lower_ == "she"] == ["the Moon"]


def test_a_thing_made_a_person_and_called_it_is_the_doer_of_its_deeds():
    text = (
        "On the shelf stood a small brass Lamp. The Lamp was lonely, because nobody lit it "
        "any more. One night the power went out. It was a dark night, and it began to rain. "
        "The Lamp wanted to help. It rolled to the edge of the shelf and fell into the "
        "girl's lap. A boy threw a ball. It bounced off the wall."
    )
    analysis = analyse(text)
    got = [(t.text, analysis.resolver.resolve(t)) for t in analysis.doc if t.lower_ == "it"]
    # "It was a dark night", "it began to rain" and the boy's ball point at no one; what
    # nobody lit is the Lamp, but an object "it" is not read as one
    assert got == [
        ("it", None),
        ("It", None),
        ("it", None),
        ("It", "the Lamp"),
        ("It", None),
    ]
    asked = _asked(text)
    assert asked["What did the Lamp do?"].startswith("rolled to the edge of the shelf")
    assert not [q for q in asked if "the ball" in q.lower() and "Lamp" in q]


def test_an_ending_names_the_thing_its_it_stands_for():
    text = (
        "On the shelf stood a small brass Lamp. The Lamp was lonely, because nobody lit it "
        "any more. One night the power went out, and the girl could not see her book. The "
        "Lamp wanted to help. It shone as bright as it could. The girl read until "
        "midnight, and it glowed with pride."
    )
    ending = {q: a for q, a in _asked(text).items() if q == "How does the story end?"}
    assert ending == {
        "How does the story end?": "The girl read until midnight, and the Lamp glowed with pride"
    }


def test_a_place_named_with_its_kind_is_no_one():
    asked = _asked(
        "The prince asked the sailors about the silver tree. Everyone said that Mount Kiro "
        "belonged to the old songs. Lake Mora lay to the north. Farmer Giles ploughed the field."
    )
    assert not [a for q, a in asked.items() if q.startswith("Who") and "Mora" in a]
    assert not [q for q in asked if "What did Lake Mora do" in q]
    assert asked["Who ploughed the field?"] == "Farmer Giles"
    # a place word the parser hangs on a name in lower case is no part of it
    assert (
        _asked("On her way home Elsa passed a village by the river.")[
            "Who passed a village by the river?"
        ]
        == "Elsa"
    )


def test_an_it_that_opens_a_sentence_is_the_thing_done_to_just_before():
    text = (
        "Nia kicked the old bucket as hard as she could. It flew over the wall and landed "
        "in the duck pond. The ducks flapped away in fright. Then her brother opened the "
        "back door. It was cold outside, and soon it began to snow."
    )
    asked = _asked(text)
    assert asked["Where did the old bucket land?"] == "in the duck pond"
    assert (
        asked["What did the ducks do after the old bucket landed in the duck pond?"]
        == "flapped away in fright"
    )
    # an "it" that is cold or begins to snow is no door
    assert not [
        q for q in list(asked) + list(asked.values()) if "door was" in q or "door began" in q
    ]
    assert asked["How does the story end?"] == "It was cold outside, and soon it began to snow"


def test_an_it_after_a_creature_is_not_named_for_the_thing():
    asked = _asked("The boy gave the puppy a bone. It wagged its tail and ran under the table.")
    assert not [q for q in list(asked) + list(asked.values()) if "the bone" in q and "wag" in q]


def test_an_it_after_a_thing_that_did_something_is_that_thing():
    asked = _asked(
        "Wen spun her web between two thistles. That afternoon a strong wind came down from "
        "the hill. It tore the web in two, and Wen climbed back up."
    )
    assert [q for q in asked if q.startswith("What did the strong wind tear")] or [
        a for a in asked.values() if a.startswith("the strong wind tore")
    ]


def test_the_place_a_superlative_ranks_within_is_not_where_the_story_is():
    ranked = (
        "The neighbours said Mr. Petrov's apples were the reddest in the valley. Every autumn "
        "he picked them one by one and laid them in straw. One morning a basket was empty."
    )
    assert _asked(ranked).get("Where does this story take place?") is None
    # where he lived is
    lived = ranked.replace("The neighbours said", "Mr. Petrov lived in the valley. People said")
    assert _asked(lived)["Where does this story take place?"] == "in the valley"


def test_an_it_after_joined_clauses_is_the_thing_of_the_latest():
    asked = _asked(
        "Pip hid in the barn. The clouds grew darker, and then the storm arrived. It "
        "shook the doors and broke the old weathercock."
    )
    assert [q for q in asked if q.startswith("What did the storm break")]
    assert not [q for q in list(asked) + list(asked.values()) if "clouds broke" in q]


def test_an_it_that_seemed_to_do_something_is_the_thing_made_a_person():
    asked = _asked(
        'The old Kettle sat on the stove. "Nobody listens to me," complained the Kettle. '
        "Then it began to rain outside, and the children came in. The Kettle was happy. It "
        "seemed to sing as it boiled."
    )
    assert asked["How does the story end?"] == "The Kettle seemed to sing as it boiled"
    assert not [q for q in list(asked) + list(asked.values()) if "Kettle began to rain" in q]
