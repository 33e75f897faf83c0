"""What a story tells as not done is no deed and has no purpose: what one would not do
("he would not hire anyone to fix it"), what one could not do before something else
happened ("before she could hold it, the wind took it"), and what one was only watched
doing ("watched the fishermen rowing out"). On sentences written for this project."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section


def _items(text: str):
    return EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))


def test_what_one_would_not_do_has_no_purpose_to_ask():
    items = _items(
        "The baker's chimney smoked and his oven door was cracked, but he would not hire "
        "anyone to fix them. Every morning his bread came out black."
    )
    assert not [i for i in items if i.answer == "to fix them"]
    assert not [i for i in items if i.question.startswith("Why wouldn't")]
    # Nor is "anyone" cut from what they were wanted for.
    items = _items(
        "The goat's fence was broken, but she would not pay anyone to mend it. So the wind "
        "blew through the shed all winter."
    )
    assert not [i for i in items if i.answer.endswith("would not pay anyone")]


def test_a_purpose_told_as_done_is_asked():
    items = _items(
        "One night the fox crept into the garden to steal a hen. The farmer's dog barked "
        "and chased him away."
    )
    assert ("Why did the fox creep into the garden?", "to steal a hen") in {
        (i.question, i.answer) for i in items
    }


def test_what_one_met_with_after_is_no_purpose():
    items = _items(
        "The old man woke up to find the house empty. He ran to the gate, only to find it "
        "locked, and he sat down on the step."
    )
    assert not [i for i in items if i.answer.startswith("to find")]


def test_what_one_took_care_to_do_is_one_deed():
    items = _items("The old shepherd took great care to count his sheep every evening.")
    got = {(i.question, i.answer) for i in items}
    assert not [a for _, a in got if a in ("great care", "to count his sheep every evening")]
    assert (
        "What did the old shepherd do?",
        "took great care to count his sheep every evening",
    ) in got


def test_what_one_could_not_do_before_something_happened_was_not_done():
    items = _items(
        "Lena held her kite up high, and before she could hold the string tight, the wind "
        "carried it away. She ran after it across the park."
    )
    assert not [i for i in items if "hold the string" in i.answer]
    assert not [i for i in items if i.question.startswith("What could Lena")]


def test_what_one_was_only_watched_doing_is_not_their_deed():
    items = _items(
        "The old lighthouse stood on the cliff above the harbour. Every day it watched the "
        "fishermen rowing out to sea, pulling their nets behind them."
    )
    assert not [i for i in items if i.answer.startswith("rowing")]
    assert not [i for i in items if i.question == "What did the fishermen do?"]


def test_what_one_could_not_take_is_no_thing_to_ask_for():
    items = _items(
        "The squirrel ran back to his hiding place, but the nuts had gone soft in the rain, "
        "and he could not eat a single one."
    )
    assert not [i for i in items if i.answer == "a single one"]


def test_what_one_was_shown_or_told_is_no_event_of_the_story():
    items = _items(
        "The old sailor showed the boy how to read the sky instead: where the sun rose in "
        "summer, and how the clouds moved before a storm."
    )
    assert not [
        i for i in items if i.question.startswith(("When did the sun", "Where did the sun"))
    ]
    assert not [i for i in items if "did the clouds" in i.question]


def test_what_one_did_not_want_is_not_asked_as_what_one_wanted():
    from qg_studio.pipeline import story_candidates

    text = (
        "Every summer Kasia and her aunt picked plums from the old tree. One year the tree "
        "gave no plums. A neighbour told them to cut it down. Kasia did not want to lose "
        "the tree. She watered it every evening, and the next summer Kasia picked three "
        "baskets of plums."
    )
    items = story_candidates([Section(1, text)])
    wants = {i.question: i.answer for i in items if "want" in i.question}
    assert "to lose the tree" not in wants.values()


def test_a_time_is_no_thing_done_to():
    asked = {
        i.question: i.answer
        for i in _items(
            "Mina kicked at the ball and missed the first time. The bears spent the whole "
            "winter in a cave. Then Mina caught the ball."
        )
    }
    assert not {"the first time", "the whole winter"} & set(asked.values())
    assert asked.get("What did Mina catch?") == "the ball"


def test_how_one_was_found_is_no_deed_of_theirs():
    items = _items(
        "The storm blew all night. In the morning they found the little goat trapped "
        "behind a rock and tangled in a bramble. Tomas carried the goat home."
    )
    said = [f"{i.question} – {i.answer}" for i in items]
    assert not [s for s in said if "goat do" in s or "goat trap" in s or "goat tangle" in s]
    assert not [s for s in said if s.startswith("Where did the little goat")]
    assert [s for s in said if s.startswith("Who carried the goat home?")]


def test_what_had_been_done_when_something_happened_is_the_scene_not_what_happened():
    items = _items(
        "Anna set out for the mill with a sack of wheat. She had not gone far when a "
        "goose ran across the road in front of her. She laughed and walked on."
    )
    said = {i.question: i.answer for i in items}
    assert not [a for a in said.values() if "had not gone far" in a]
    assert not [q for q in said if q.startswith("What happened when the goose")]
