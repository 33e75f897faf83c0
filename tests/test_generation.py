"""The embedded engine: grammar of each transformation, every element, answer-aware mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from qg_studio.generation import QuestionGenerator
from qg_studio.generation import get_generator
from qg_studio.reading.analysis import analyse
from qg_studio.reading.analysis import analyse_many
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import ask_do
from qg_studio.reading.grammar import ask_subject
from qg_studio.reading.grammar import state
from qg_studio.reading.inflect import is_past_form
from qg_studio.reading.inflect import lemma_of
from qg_studio.reading.inflect import past_of
from qg_studio.reading.inflect import third_person_of
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import Section

STORY = Path(__file__).parent / "fixtures" / "lantern_keeper.txt"


def _clause(text: str, index: int = 0, sentence: int = -1):
    analysis = analyse(text)
    return analysis.sentence_clauses[sentence][index]


# ------------------------------------------------------------------ inflection


@pytest.mark.parametrize(
    "form, lemma",
    [
        ("slew", "slay"),
        ("bade", "bid"),
        ("went", "go"),
        ("caught", "catch"),
        ("were", "be"),
        ("fled", "flee"),
    ],
)
def test_irregular_past_forms_go_back_to_their_lemma(form, lemma):
    assert lemma_of(form) == lemma


def test_a_final_consonant_doubles_where_english_doubles_it():
    from qg_studio.reading.inflect import ing_of

    # one short syllable, or a stressed last one: doubled
    assert [ing_of(v) for v in ("sit", "begin", "forget", "quit")] == [
        "sitting",
        "beginning",
        "forgetting",
        "quitting",
    ]
    assert [past_of(v) for v in ("admit", "regret", "plan")] == ["admitted", "regretted", "planned"]
    # an unstressed last syllable: not
    assert [ing_of(v) for v in ("open", "visit", "gather")] == ["opening", "visiting", "gathering"]
    assert [past_of(v) for v in ("open", "visit")] == ["opened", "visited"]


def test_past_and_third_person_forms():
    assert [past_of(v) for v in ("go", "carry", "stop", "love", "walk")] == [
        "went",
        "carried",
        "stopped",
        "loved",
        "walked",
    ]
    assert [third_person_of(v) for v in ("go", "carry", "wish", "run")] == [
        "goes",
        "carries",
        "wishes",
        "runs",
    ]


# ------------------------------------------------------------------ transformations


def test_do_support_uses_past_tense_and_the_lemma():
    c = _clause("The old fisherman caught a golden fish.")
    assert ask(c, "Why") == "Why did the old fisherman catch a golden fish?"


def test_do_support_with_an_irregular_verb_spacy_may_miss():
    c = _clause("The knight slew the dragon with one blow.")
    with_phrase = next(t for t in c.tail if t.lower_ == "with")
    assert (
        ask(c, "How", gap={t.i for t in with_phrase.subtree})
        == "How did the knight slay the dragon?"
    )


def test_an_irregular_past_tagged_as_present_is_asked_in_the_past():
    # spaCy tags "leapt" (a plural subject) as a present verb.
    c = _clause("The young frogs leapt over the wall every day.")
    assert ask_do(c) == "What did the young frogs do?"
    # A past that is also the present ("put", "read") is left to spaCy's reading.
    assert is_past_form("leapt") and is_past_form("swam")
    assert not is_past_form("put") and not is_past_form("read") and not is_past_form("leap")


def test_a_what_did_they_do_question_counts_from_an_event_not_a_state():
    text = (
        "An old badger lived beside the stream. The otters splashed past him every "
        "morning. The badger felt weary of their noise. The otters carried stones to the "
        "far bank."
    )
    items = get_generator("embedded").generate([Section(1, text)], GenerationRequest(count=10))
    anchored = [i.question for i in items if " after " in i.question]
    assert not [q for q in anchored if " lived " in q or " felt " in q], anchored


def test_present_tense_takes_does():
    c = _clause("The fox lives in a hole under the oak.")
    question = ask(c, "Where", gap={t.i for t in c.tail})
    assert question == "Where does the fox live?"


def test_auxiliary_inverts_instead_of_do_support():
    c = _clause("The princess was sleeping in the tower.")
    assert ask(c, "Why") == "Why was the princess sleeping in the tower?"
    c = _clause("The boy could not open the door.")
    assert ask(c, "Why") == "Why couldn't the boy open the door?"


def test_copula_inverts():
    c = _clause("The king was very angry.")
    assert ask(c, "Why") == "Why was the king very angry?"


def test_subject_question_keeps_the_verb_and_needs_no_inversion():
    c = _clause("The hare won the race.")
    assert ask_subject(c, "Who") == "Who won the race?"


def test_predicate_question_with_do():
    assert ask_do(_clause("The miller baked a cake.")) == "What did the miller do?"
    assert ask_do(_clause("The miller will bake a cake.")) == "What will the miller do?"
    assert ask_do(_clause("The miller was baking a cake.")) == "What was the miller doing?"


def test_pronoun_subject_resolves_to_the_character():
    text = "Once there lived a poor fisherman named Isaac. One day he caught a golden fish."
    analysis = analyse(text)
    clause = analysis.sentence_clauses[-1][0]
    assert ask(clause, "Why") == "Why did Isaac catch a golden fish?"


def test_subject_pronoun_prefers_the_character_holding_the_stage():
    text = "The owl listened quietly. At last she gave Mira a golden wick."
    analysis = analyse(text)
    assert analysis.sentence_clauses[-1][0].subject_text == "the owl"


def test_a_section_goes_on_from_the_characters_the_one_before_ended_with(engine):
    # A story cut into sections does not restart at each break: "She" opening the second
    # is the beekeeper, who held the stage where the first ended, not her guest.
    first = (
        "Old Marta kept bees at the edge of the forest. Every spring she sold honey at the "
        "market. One morning she found a stray dog asleep beside her hives."
    )
    second = "She gave him a bowl of water and a crust of bread. The dog wagged his tail."
    assert _opening_subject(first, second) == "Old Marta"
    # Read alone, the section has no one for "she" to be, and asks nothing of her.
    assert analyse(second).sentence_clauses[0][0].subject_text == "she"
    sections = [Section(1, first), Section(2, second)]
    asked = [
        i.question
        for i in engine.generate(sections, GenerationRequest(count=10))
        if i.evidence[0].section == 2 and "bowl of water" in i.evidence[0].text
    ]
    assert asked and all("Marta" in q for q in asked)


def test_a_pronoun_opening_a_section_means_the_last_subject_not_a_later_object():
    first = "A hunter named Oren lived by the river. He kept a pony in a shed behind his hut."
    second = "He saddled it at dawn and rode into the hills."
    assert _opening_subject(first, second) == "Oren"


def _opening_subject(first: str, second: str) -> str:
    """Who does the first deed of ``second``, read after ``first``."""
    return analyse_many([first, second])[1].sentence_clauses[0][0].subject_text


def test_the_pronoun_a_question_uses_for_someone_is_a_subject_pronoun():
    # Told carelessly ("Her and the king walked"), the parser takes "Her" for a subject;
    # a question about her still says "she".
    analysis = analyse("The queen smiled. Her and the king walked to the garden.")
    assert analysis.resolver.pronoun_for("the queen") == "she"


def test_a_name_ending_in_a_pronoun_stays_whole():
    # "Hou I", "Sir We": the parser reads the last word as a first-person subject.
    text = (
        "Tan I was the best archer in the valley. One day Tan I shot a wolf near the "
        "sheepfold. Then he gave the pelt to his friend Sir We."
    )
    analysis = analyse(text)
    subjects = [c.subject_text for clauses in analysis.sentence_clauses for c in clauses]
    assert subjects == ["Tan I", "Tan I", "Tan I"]
    assert "Sir We" in [t.text for t in analysis.doc]
    # And speech keeps its own "I": no name is made of the word before a comma.
    speech = analyse('"Mother, I will fetch the water," said Tom.')
    assert "Mother" not in [t.text for t in speech.doc if " " in t.text]


def test_first_person_in_dialogue_becomes_the_speaker():
    text = '"I will find the ring," said the young prince.'
    analysis = analyse(text)
    first = [c for c in analysis.sentence_clauses[0] if c.head.lower_ == "find"][0]
    assert first.subject_text == "the young prince"


def test_quotes_never_reach_the_question():
    c = _clause('The wolf said that "the door" was open.')
    assert '"' not in ask(c, "What")


def test_state_restates_with_a_pronoun_for_the_same_character():
    analysis = analyse("The girl opened the gate. She ran home.")
    first = analysis.sentence_clauses[0][0]
    assert state(first) == "the girl opened the gate"
    assert state(first, resolver=analysis.resolver, same_as="the girl") == "she opened the gate"


def test_a_participle_phrase_is_restated_as_the_event_it_tells():
    # "How did the heron feel when he alighting on the jetty?" was a question once.
    analysis = analyse(
        "The heron left the reeds, and alighting on the jetty, bowed to the fisherman."
    )
    told = [state(c, tense_past=True) for c in analysis.sentence_clauses[0]]
    assert "the heron alighted on the jetty" in told
    assert not any("alighting" in t for t in told)


def test_reason_clause_is_split_off_its_host():
    analysis = analyse("The king was angry because the princess had not come home.")
    markers = [c.marker for c in analysis.sentence_clauses[0]]
    assert "because" in markers


# ------------------------------------------------------------------ answer-aware mode


@pytest.fixture(scope="module")
def engine():
    return get_generator("embedded", model=None)


def test_engine_meets_the_protocol(engine):
    assert isinstance(engine, QuestionGenerator)
    assert engine.name == "embedded"


SECTION = Section(
    1,
    (
        "Once upon a time a poor woodcutter lived at the edge of a great forest. One morning he "
        "went into the forest to cut wood. The woodcutter was very tired because he had worked "
        "all night. When he reached the old oak, a little grey dwarf jumped out of the bushes. "
        "The woodcutter was frightened. The dwarf gave him a magic axe, so the woodcutter never "
        "had to work hard again."
    ),
)


@pytest.mark.parametrize(
    "element, answer, expected",
    [
        (Element.CHARACTER, "a little grey dwarf", "Who jumped out of the bushes?"),
        (Element.SETTING, "the edge of a great forest", "Where did the poor woodcutter live?"),
        (Element.ACTION, "a magic axe", "What did the dwarf give the woodcutter?"),
        (Element.FEELING, "frightened", "How did the woodcutter feel"),
        (Element.CAUSAL, "he had worked all night", "Why was the woodcutter very tired?"),
        (
            Element.OUTCOME,
            "a little grey dwarf jumped out of the bushes",
            "What happened when the woodcutter reached the old oak?",
        ),
        (Element.PREDICTION, "the woodcutter never had to work hard again", "What will"),
    ],
)
def test_rule_wording_for_every_element(element, answer, expected):
    from qg_studio.generation.writer import write
    from qg_studio.reading.analysis import locate

    analysis = analyse(SECTION.text)
    assert write(analysis, locate(analysis, answer), element, answer).startswith(expected)


@pytest.mark.parametrize(
    "element, answer",
    [
        (Element.CHARACTER, "a little grey dwarf"),
        (Element.SETTING, "the edge of a great forest"),
        (Element.ACTION, "a magic axe"),
        (Element.FEELING, "frightened"),
        (Element.CAUSAL, "he had worked all night"),
        (Element.OUTCOME, "a little grey dwarf jumped out of the bushes"),
        (Element.PREDICTION, "the woodcutter never had to work hard again"),
    ],
)
def test_write_question_for_every_element(engine, element, answer):
    from qg_studio.generation.variants import variants
    from qg_studio.reading.analysis import locate

    item = engine.write_question([SECTION], answer, element, Explicitness.EXPLICIT)
    analysis = analyse(SECTION.text)
    # The mined choice is one of the engine's wordings for this answer.
    assert item.question in variants(analysis, locate(analysis, answer), element, answer).values()
    assert item.question.endswith("?") and item.question[0].isupper()
    assert item.element == element and item.answers == [answer]
    assert element.value.split()[0] not in ("prediction",) or "will" in item.question
    ev = item.evidence[0]
    assert SECTION.text[ev.start : ev.end] == ev.text and answer.split()[-1] in ev.text


def test_write_question_with_a_paraphrased_answer_points_at_the_best_sentence(engine):
    item = engine.write_question(
        [SECTION], "He was scared.", Element.FEELING, Explicitness.IMPLICIT
    )
    assert item.question.startswith("How did")
    assert item.evidence and item.explicitness == Explicitness.IMPLICIT


# ------------------------------------------------------------------ candidate generation


@pytest.fixture(scope="module")
def story_candidates(engine):
    from qg_studio.story import section_story

    sections = section_story(STORY.read_text(encoding="utf-8"))
    return sections, engine.generate(sections, GenerationRequest(count=20))


def test_candidates_cover_all_seven_elements(story_candidates):
    _, items = story_candidates
    assert {i.element for i in items} == set(Element)
    assert {i.explicitness for i in items} == set(Explicitness)


def test_every_candidate_has_answer_and_evidence_inside_its_section(story_candidates):
    sections, items = story_candidates
    by_id = {s.id: s for s in sections}
    for item in items:
        assert item.answer.strip() and item.question.endswith("?")
        assert item.question[0].isupper()
        assert '"' not in item.question and "\n" not in item.answer
        for ev in item.evidence:
            assert by_id[ev.section].text[ev.start : ev.end] == ev.text
        assert item.engine == "embedded"


def test_candidates_resolve_pronouns(story_candidates):
    _, items = story_candidates
    subjects = [
        i.question.split()[2].lower()
        for i in items
        if i.question.startswith(("What did", "Why did", "How did"))
    ]
    assert subjects and not {"he", "she", "they", "it"} & set(subjects)


def test_explicit_answers_are_spans_of_the_text(story_candidates):
    sections, items = story_candidates
    for item in items:
        if item.element in (Element.SETTING,) and item.explicitness == Explicitness.EXPLICIT:
            assert item.answer in item.evidence[0].text


def test_no_sections_gives_no_candidates(engine):
    assert engine.generate([], GenerationRequest()) == []
    assert engine.generate([Section(1, "   ")], GenerationRequest()) == []


def test_mined_choice_picks_the_wording(engine, monkeypatch):
    from qg_studio.generation import variants

    monkeypatch.setattr(variants, "_choices", lambda: {"by_element": {"action": ["do"]}})
    item = engine.write_question([SECTION], "a magic axe", Element.ACTION)
    assert item.question == "What did the dwarf do?"
    monkeypatch.setattr(variants, "_choices", lambda: {})
    item = engine.write_question([SECTION], "a magic axe", Element.ACTION)
    assert item.question == "What did the dwarf give the woodcutter?"  # the rule, no table


@pytest.mark.parametrize(
    "sentence",
    [
        "The queen thanked her, and sent the girl a cloak as warm as the one she herself "
        "was wearing, and two baskets of fresh bread.",
        "When the boy heard that the two geese were also in the care of Old Tobias of the "
        "Long Meadow, he smiled once more.",
    ],
)
def test_a_long_answer_cut_short_ends_on_a_whole_phrase(sentence):
    # "the one he", "in the service of": an answer cut at a word count left a word
    # waiting for the next.
    analysis = analyse(sentence)
    answers = [state(c) for cl in analysis.sentence_clauses for c in cl]
    assert any(len(a.split()) >= 8 for a in answers), answers
    for answer in answers:
        last = answer.split()[-1].lower()
        assert last not in {"of", "the", "a", "he", "she", "as", "and", "in", "his"}, answer
