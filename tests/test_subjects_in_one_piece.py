"""A subject is said in one piece: a list the parser hangs on it from the end of the
sentence ("The scarecrow heard the farmers talking about autumn: the red apples, …") is no
part of who did it. On sentences written for this project."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section


def test_a_list_after_a_colon_is_no_part_of_the_subject():
    text = (
        "At the start of spring, the children built a snowman in the park. The snowman "
        "listened to the children talking about summer: the warm sun, the ice cream, the "
        "swimming pool. The snowman wished he could see it."
    )
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    assert not [i for i in items if "the warm sun" in i.question or i.answer.endswith("sun")]
    assert "the snowman" in {i.answer for i in items if i.question.startswith("Who listened")}
