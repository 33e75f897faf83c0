"""One a story brings on with "there was" or "there lived" is someone a later "he" or
"she" can mean, as much as one named as a subject: "in the crowd there was also a tinker
... his cart" is the tinker's cart, not the one last named before him. On sentences written
for this project."""

from __future__ import annotations

from qg_studio.reading.analysis import analyse


def _resolved(text: str, words=("he", "she", "his", "her", "him")) -> list[tuple[str, str]]:
    analysis = analyse(text)
    return [(t.text, analysis.resolver.resolve(t)) for t in analysis.doc if t.lower_ in words]


def test_one_there_was_brings_on_is_whom_the_next_he_means():
    got = _resolved(
        "The queen held a fair before her brother's hall. Many merchants came, and among "
        "them there was also a tinker. The queen liked the bright pans on his cart, so she "
        "bought one, and he bowed low.",
        ("his", "he"),
    )
    assert got == [("his", "the tinker"), ("he", "the tinker")]


def test_one_there_lived_brings_on_holds_the_stage():
    got = _resolved(
        "Mila walked to the edge of the forest with her grandfather. Near the river there "
        "lived an old ferryman. Every evening he sang to the fish.",
        ("he",),
    )
    assert got == [("he", "the old ferryman")]


def test_no_one_there_is_no_one_to_mean():
    got = _resolved(
        "The miller came home late. There was nobody in the kitchen, and there was no dog "
        "by the fire. He lit a candle.",
        ("he",),
    )
    assert got == [("He", "the miller")]
