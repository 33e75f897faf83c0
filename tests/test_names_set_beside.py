"""A name set after a comma names the one whose phrase it closes: "a boy from her class,
Leo" is Leo (not her class), "his grey kitten, Smoke" is the kitten, though the parser
hangs the name on the nearest noun or tags the noun a proper one. On sentences written
for this project."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.reading.analysis import analyse
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section


def test_a_name_after_a_phrase_names_the_one_the_phrase_is_about():
    text = (
        "One snowy morning a girl from the next farm, Ilka, came to the gate. She was "
        "carrying a basket of eggs. The daughter of the miller, Mira, opened the gate."
    )
    assert analyse(text).resolver.aliases == {"girl": "Ilka", "daughter": "Mira"}
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    asked = [i.question for i in items]
    assert "What was Ilka doing when she came to the gate?" in asked
    assert not [q for q in asked if "the girl" in q]
