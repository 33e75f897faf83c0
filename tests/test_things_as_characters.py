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
