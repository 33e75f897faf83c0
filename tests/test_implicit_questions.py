"""Implicit questions a child answers by inference: a feeling the story does not name,
and a deed explained by a feeling told the sentence before."""

from __future__ import annotations

from qg_studio.generation.embedded import EmbeddedGenerator
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section


def _candidates(text: str) -> dict[str, QAItem]:
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    return {i.question: i for i in items}


def _feelings(text: str) -> dict[str, str]:
    return {
        q: i.answer
        for q, i in _candidates(text).items()
        if i.element == Element.FEELING and i.explicitness == Explicitness.IMPLICIT
    }


def test_what_is_done_to_someone_tells_how_they_felt():
    chased = _candidates(
        "The hare lived at the edge of the meadow. She had a nest under the hedge. One "
        "evening the wolf chased the hare across the field. The hare hid in a hollow log."
    )
    feel = chased["How did the hare feel when the wolf chased her across the field?"]
    assert (feel.answer, feel.element, feel.explicitness) == (
        "afraid",
        Element.FEELING,
        Explicitness.IMPLICIT,
    )
    assert "chased the hare across the field" in feel.evidence[0].text
    # Done to what is theirs: the owner feels it, named once and then "his".
    stolen = _feelings(
        "The lad slept under an oak with his cap beside him. The princess stole the lad's "
        "cap and ran back to the castle."
    )
    assert stolen == {"How did the lad feel when the princess stole his cap?": "upset"}
    lost = _feelings(
        "Old Tom mended nets by the harbour. He had a wife and a little dog. "
        "One winter his wife died. After that he lived alone with the dog."
    )
    assert lost == {"How did Old Tom feel when his wife died?": "sad"}


def test_a_feeling_the_story_tells_is_not_guessed():
    for text in (
        # Told in the next sentence: the told feeling is the answer, not a guess.
        "The wolf chased the hare across the field. The hare laughed at the slow wolf.",
        "The wolf chased the hare across the field. The hare was not afraid of him.",
        # Told in the sentence before, of the same one.
        "The Kettle was lonely on the cold stove. It wondered if anyone would ever fill it.",
        # Told in the same sentence, whoever's it is.
        "The goose grew angry with the hen, because she had cheated her out of the nest.",
    ):
        assert _feelings(text) == {}, text


def test_nothing_is_guessed_of_a_thing_a_report_or_a_threat():
    for text in (
        "The boy saved his pennies for a whole year.",
        "Then the farmer's wife told him how she had chased the fox away.",
        "The king said that he would punish the thief at dawn.",
    ):
        assert _feelings(text) == {}, text


def test_a_feeling_the_sentence_before_ends_on_is_why_they_acted():
    why = _candidates("The miller was very angry. He sent the boy away from the mill.")[
        "Why did the miller send the boy away from the mill?"
    ]
    assert why.answer == "the miller was very angry"
    assert (why.element, why.explicitness) == (Element.CAUSAL, Explicitness.IMPLICIT)
    # Someone else's feeling, or a feeling denied, explains nothing they did.
    for text in (
        "The miller was very angry. The boy ran away from the mill.",
        "The miller was not angry. He sent the boy away from the mill.",
        # A deed set against the feeling is done in spite of it.
        "The miller was very angry. But he sent the boy away from the mill.",
        "The miller was very angry. Still he sent the boy away from the mill.",
    ):
        asked = _candidates(text)
        assert not [q for q, i in asked.items() if q.startswith("Why") and "angry" in i.answer]


def test_a_gift_of_worth_tells_how_its_receiver_felt():
    given = _feelings(
        "The lad cut wood for the king all winter. The king gave the lad a bag of gold."
    )
    assert given == {"How did the lad feel when the king gave him a bag of gold?": "happy"}
    # A bag of meal is no treasure; a name stays a name; a pronoun goes before "off".
    assert _feelings("The king gave the lad a bag of meal.") == {}
    assert _feelings("Queen Mab forgave Denis for breaking the jug.") == {
        "How did Denis feel when Queen Mab forgave Denis for breaking the jug?": "relieved"
    }
    carried = _feelings("The giant carried off the princess to his castle on the hill.")
    assert carried == {
        "How did the princess feel when the giant carried her off to his castle on the hill?": (
            "afraid"
        )
    }


def test_a_reaction_told_by_its_start_shows_a_feeling_and_asks_why():
    asked = _candidates(
        "The queen took the lad's purse and flew back to her castle. The lad began to cry."
    )
    why = asked["Why did the lad begin to cry?"]
    assert (why.answer, why.explicitness) == (
        "the queen flew back to her castle",
        Explicitness.IMPLICIT,
    )
    feel = asked["How did the lad feel when the queen flew back to her castle?"]
    assert (feel.answer, feel.element) == ("sad", Element.FEELING)
    # "began to dig" shows nothing.
    assert not [
        q for q in _candidates("The dog saw a bone. He began to dig in the garden.") if "feel" in q
    ]
    # A reaction told by its end shows the feeling is over, not that it was felt.
    for text in (
        "The miller's wife sang a soft song. The baby stopped crying.",
        "The old goat told a joke. The lambs ceased laughing at once.",
    ):
        asked = _candidates(text)
        assert not [q for q in asked if "feel" in q or q.startswith("Why")], text


def test_a_feeling_word_on_a_deed_is_asked_with_its_moment_and_its_cause():
    asked = _candidates(
        "An old man asked the girl for a crust. The girl ate the whole loaf herself. "
        "The old man trudged home very sad."
    )
    feel = asked["How did the old man feel when he trudged home?"]
    assert (feel.answer, feel.explicitness) == ("very sad", Explicitness.EXPLICIT)
    why = asked["Why was the old man very sad?"]
    assert (why.answer, why.explicitness) == (
        "the girl ate the whole loaf herself",
        Explicitness.IMPLICIT,
    )
    # He went home sad, not because he was sad; and "looked sad" is no deed.
    assert "Why did the old man trudge home?" not in asked
    assert not [q for q in _candidates("The old king looked sad.") if "when he looked" in q]


def test_a_cry_that_is_speech_shows_no_sadness():
    for text in (
        'The wolves ran across the ice toward the cart. "Turn back!" cried the mother.',
        "The wolves ran across the ice. The women cried out for help.",
    ):
        asked = _candidates(text)
        assert not [q for q, i in asked.items() if i.answer == "sad" or "Why did" in q], text
    wept = _candidates("The troll took the children away. The mother cried all night.")
    assert wept["How did the mother feel when the troll took the children away?"].answer == "sad"


def test_a_shiver_with_cold_shows_no_fear():
    cold = _candidates("The snow fell all night. The goats shivered with cold in the shed.")
    assert not [q for q, i in cold.items() if i.answer == "afraid" or q.startswith("Why")]
    wolf = _candidates("A grey wolf came to the door. The children shivered in their beds.")
    assert wolf["How did the children feel when the grey wolf came to the door?"].answer == (
        "afraid"
    )


def test_a_feeling_the_sentence_tells_gets_no_guess_beside_it():
    got = _feelings(
        "Mum said we could not go to the beach. I was upset, because I wanted to swim, "
        "and I sulked all afternoon."
    )
    assert got == {}


def test_a_feeling_that_lasted_a_moment_is_not_why_one_acted_after_it():
    asked = _candidates(
        "The farmer found the goat in his garden. He was cross with her for a moment, and "
        "then he laughed."
    )
    assert not [
        (q, i.answer) for q, i in asked.items() if q.startswith("Why") and "cross" in i.answer
    ]


def test_what_one_does_to_the_one_a_feeling_is_about_is_not_why_one_felt_it():
    asked = _candidates(
        "The boy came home late, wet to the skin. His mother wrapped him in a towel. She "
        "was cross with him."
    )
    assert not [q for q, i in asked.items() if q.startswith("Why") and "towel" in i.answer]
    # What the other did is why: "The goat ate the cabbages. The farmer was angry with it."
    asked = _candidates("The goat ate the farmer's cabbages. The farmer was angry with the goat.")
    why = asked["Why was the farmer angry with the goat?"]
    assert why.answer == "the goat ate the farmer's cabbages"


def test_a_laugh_followed_by_the_laughers_words_to_another_is_no_happiness():
    got = _candidates(
        "The old miller watched the boy fill the trough with a tin cup. The miller laughed. "
        '"You will need a hundred years," he said. The boy kept filling.'
    )
    # he laughs at the boy: not happy, and the boy's deed before is not why
    assert not [q for q in got if q.startswith("How did the miller feel")]
    assert "Why did the miller laugh?" not in got
    # a laugh at a story, with nothing said to anyone after it, is still a happy one
    told = _candidates(
        "The boy told the old miller a funny story about a goose. The miller laughed. Then "
        "he went back to his sacks of flour."
    )
    happy = [i.answer for q, i in told.items() if q.startswith("How did the miller feel")]
    assert happy == ["happy"]


def test_a_feeling_about_it_is_asked_at_the_moment_before():
    got = {
        q: i.answer
        for q, i in _candidates(
            "The Jay had found a shiny red bead by the well, and he was very proud of it. "
            "The Wren was proud of her nest."
        ).items()
        if i.element == Element.FEELING
    }
    # "How did the Jay feel about it?" names nothing a child can find
    assert got["How did the Jay feel when he had found a shiny red bead by the well?"] == "proud"
    assert got["How did the Wren feel about her nest?"] == "proud"


def test_who_frightens_another_is_not_the_one_frightened():
    got = {
        q: i.answer
        for q, i in _candidates(
            "The wolf scared the sheep in the far field. The loud bang frightened the hens."
        ).items()
        if i.element == Element.FEELING
    }
    assert not [
        q for q in got if q.startswith(("How did the wolf feel", "How did the loud bang feel"))
    ]
    assert got["How did the wolf make the sheep feel?"] == "scared"


def test_a_told_feeling_of_a_thing_made_a_person_is_asked_even_where_the_moment_says_it():
    got = {
        q: i.answer
        for q, i in _candidates(
            "The cook put the Kettle away and forgot it on the top shelf. The Kettle was "
            "lonely in the dark. It listened to the mice in the cupboard."
        ).items()
        if i.element == Element.FEELING
    }
    # "How did the Kettle feel when the cook forgot it …?": read alone, "it" is nothing
    assert got == {"How did the Kettle feel?": "lonely"}


def test_a_feeling_told_by_ones_heart_is_read_from_the_idiom():
    got = _feelings(
        "Lotte played the old tune every night. One night the box went silent. Lotte sat "
        "beside the box and felt her heart grow heavy. The next morning the clockmaker mended "
        "the spring. Lotte's heart leapt. Her brother's heart did not sink."
    )
    assert got == {
        "How did Lotte feel when the box went silent?": "sad",
        "How did Lotte feel when the clockmaker mended the spring?": "happy",
    }


def test_a_feeling_verb_is_answered_as_a_child_says_it_and_asked_about_what_is_feared():
    got = {
        q: i.answer
        for q, i in _candidates(
            "The old woman had taken the boy's coins, so she could not send him away, and "
            "though she feared being scolded, she went to the palace. The Heron lived by the "
            "river. She was proud of her long beak."
        ).items()
        if i.element == Element.FEELING
    }
    assert got["How did the old woman feel about being scolded?"] == "scared"
    assert got["How did the Heron feel about her long beak?"] == "proud"
    assert "feared" not in got.values()


def test_what_one_weeps_or_fears_to_do_is_no_feeling_about():
    got = _candidates(
        "The hunter's wife sat by the road and wept her fill. The little bird feared to "
        "break the spell by speaking."
    )
    assert not [q for q in got if "about her fill" in q or "about to" in q]


def test_tears_of_joy_are_joy():
    got = {
        q: i.answer
        for q, i in _candidates(
            "Old Mrs. Hallam came back to the potter's shop. She held the mended bowl in her "
            "hands and began to cry with joy."
        ).items()
        if i.element == Element.FEELING
    }
    assert got and set(got.values()) == {"happy"}
