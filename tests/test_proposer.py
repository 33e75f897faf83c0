"""The model proposer: what it asks the adapter for, how it reads what comes back, and the
pipeline ranking its candidates together with the rules' (on a tiny Llama; no download)."""

from __future__ import annotations

import pytest
from causal_lm_tiny import tiny_adapter
from causal_lm_tiny import tiny_llama

from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section

OWL = (
    "The owl stayed home because her wing hurt. Her friend the crow brought her berries "
    "every morning. When the wing was well again, the owl flew to the crow's nest. "
    "She sang him a song of thanks."
)


@pytest.fixture(autouse=True)
def _engine_on(monkeypatch):
    monkeypatch.delenv("QG_STUDIO_SMOLLM", raising=False)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from qg_studio.models.config import TrainedConfig

    root = tmp_path_factory.mktemp("tiny-proposer")
    base = tiny_llama(root / "base")
    plain = tiny_adapter(base, root / "qg-only")
    proposer = tiny_adapter(base, root / "qag")
    TrainedConfig.from_pretrained(proposer).updated(
        **{"roles": ["qag", "qg"], "qag_window_words": 20}
    ).save_pretrained(proposer)
    return base, plain, proposer


def test_an_answer_in_the_text_is_explicit_with_its_span_else_implicit():
    from qg_studio.generation.proposer import proposed_item

    section = Section(id=3, text=OWL)
    told = proposed_item(
        "Why did the owl stay home?\nanswer: her wing hurt.", 0.8, section, Element.CAUSAL
    )
    assert (told.question, told.answer) == ("Why did the owl stay home?", "her wing hurt")
    assert told.explicitness is Explicitness.EXPLICIT and told.answer_kind.value == "extractive"
    assert told.evidence[0].text == "her wing hurt" and told.sections == [3]
    assert (told.engine, told.rule) == ("proposer", "lm.propose")
    inferred = proposed_item(
        "how did the owl feel about the crow\nanswer: grateful", 0.6, section, Element.FEELING
    )
    assert inferred.question == "How did the owl feel about the crow?"
    assert inferred.explicitness is Explicitness.IMPLICIT and not inferred.evidence
    # No answer written, or a copied paragraph: nothing a teacher could use.
    assert proposed_item("Why did the owl stay home?", 0.9, section, Element.CAUSAL) is None
    long = "Why?\nanswer: " + " ".join(["berries"] * 40)
    assert proposed_item(long, 0.9, section, Element.CAUSAL) is None


def test_the_proposer_asks_each_window_for_each_element_wanted(tiny):
    from qg_studio.generation.proposer import LMProposer

    base, _, adapter = tiny
    proposer = LMProposer(model=str(adapter), base=str(base))
    sections = [Section(id=1, text=OWL), Section(id=2, text="The crow smiled.")]
    plan = proposer.plan(sections, GenerationRequest(elements={"feeling": 2, "setting": 1}))
    windows = {(s.id, w) for s, w, _, _ in plan}
    assert {s for s, _ in windows} == {1, 2} and len(windows) >= 3  # 20-word windows
    asked = {(e, x) for _, _, e, x in plan}
    assert asked == {
        (Element.FEELING, Explicitness.EXPLICIT),
        (Element.FEELING, Explicitness.IMPLICIT),
        (Element.SETTING, Explicitness.EXPLICIT),
    }
    balanced = proposer.plan(sections[:1], GenerationRequest())
    assert {e for _, _, e, _ in balanced} == set(Element)
    # The tiny model writes no "answer:" line: it proposes nothing rather than junk.
    assert proposer.generate(sections, GenerationRequest(elements={"feeling": 2})) == []


def test_a_long_story_is_asked_within_the_sets_budget_evenly_over_its_length():
    from qg_studio.generation.proposer import spread_prompts

    # 20 windows, 9 element pairs, a 10-question set's budget of 20 prompts.
    chosen = spread_prompts(20, 9, 20)
    assert len(chosen) == len(set(chosen)) == 20
    per_pair = [sorted(w for w, p in chosen if p == pair) for pair in range(9)]
    assert all(len(windows) >= 2 for windows in per_pair)
    # Each pair is asked in both halves of the story, never twice in one place.
    assert all(min(ws) < 10 <= max(ws) for ws in per_pair)
    per_window = [sum(w == window for w, _ in chosen) for window in range(20)]
    assert max(per_window) <= 2
    # Within the budget, or with no total asked for (per section), every prompt is kept.
    assert len(spread_prompts(2, 9, 20)) == 18
    assert len(spread_prompts(20, 9, None)) == 180


def test_a_set_asks_the_proposer_no_more_than_its_budget(tiny):
    from qg_studio.generation.proposer import PROMPTS_PER_QUESTION
    from qg_studio.generation.proposer import LMProposer

    base, _, adapter = tiny
    proposer = LMProposer(model=str(adapter), base=str(base))
    sections = [Section(id=i, text=OWL) for i in range(1, 7)]
    every = proposer.plan(sections, GenerationRequest(count=None, per_section=2))
    asked = proposer.plan(sections, GenerationRequest(count=4))
    assert len(asked) == 4 * PROMPTS_PER_QUESTION < len(every)
    # Eight prompts for nine pairs: the one left out is not an inference the child makes.
    inferred = {(e, x) for _, _, e, x in asked if x is Explicitness.IMPLICIT}
    assert inferred == {
        (Element.FEELING, Explicitness.IMPLICIT),
        (Element.CAUSAL, Explicitness.IMPLICIT),
        (Element.PREDICTION, Explicitness.IMPLICIT),
    }
    ids = {s.id for s, _, _, _ in asked}
    assert 1 in ids and max(ids) >= 5


def test_a_proposed_question_about_someone_the_story_never_names_is_dropped(tiny, monkeypatch):
    import qg_studio.models.causal_lm as causal_lm
    from qg_studio.generation.proposer import LMProposer

    base, _, adapter = tiny
    written = [
        "What did the crow-owl bring every morning?\nanswer: berries",
        "What did the prince bring the owl?\nanswer: berries",
        "What did the crow bring the owl every morning?\nanswer: berries",
        "Who brought the owl berries?\nanswer: the crow",
    ]
    monkeypatch.setattr(
        causal_lm,
        "generate",
        lambda loaded, prompts, decode: [[(w, 0.8) for w in written]] * len(prompts),
    )
    items = LMProposer(model=str(adapter), base=str(base)).generate(
        [Section(id=1, text=OWL)], GenerationRequest(count=2)
    )
    assert {i.question for i in items} == {
        "What did the crow bring the owl every morning?",
        "Who brought the owl berries?",
    }


def test_an_adapter_not_trained_to_propose_is_refused_in_one_line(tiny):
    from qg_studio.generation.proposer import LMProposer
    from qg_studio.models.registry import ModelError

    base, plain, _ = tiny
    with pytest.raises(ModelError, match="not trained to propose"):
        LMProposer(model=str(plain), base=str(base))


def test_the_pipeline_ranks_several_proposers_candidates_together():
    from qg_studio.generation import GENERATORS
    from qg_studio.pipeline import generate_items

    class Fixed:
        name = "fixed"

        def __init__(self, **_):
            pass

        def generate(self, sections, request):
            return [
                QAItem(
                    "How did the owl feel when the crow brought her berries?",
                    ["thankful"],
                    "feeling",
                    "implicit",
                    sections=[sections[0].id],
                    evidence=[Evidence.find(sections[0], "a song of thanks")],
                    engine="fixed",
                    rule="lm.propose",
                    scores={"confidence": 0.95},
                )
            ]

    GENERATORS.register("fixed", f"{__name__}:_FIXED")
    globals()["_FIXED"] = Fixed
    sections = [Section(id=1, text=OWL)]
    request = GenerationRequest(count=10)
    items = generate_items(sections, request, "fixed+embedded", use_embeddings=False)
    engines = {i.engine for i in items}
    assert "fixed" in engines and engines & {"embedded", "story-level"}
    assert all(i.rule for i in items)  # every question says which proposer and rule made it


def test_a_proposed_question_says_its_own_element_and_leaves_the_whole_story_alone():
    from qg_studio.generation.proposer import proposed_item

    section = Section(id=1, text=OWL)
    # prompted for a setting, the model wrote a feeling question: the question says which
    felt = proposed_item(
        "How did the owl feel about the crow?\nanswer: grateful", 0.7, section, Element.SETTING
    )
    assert felt.element is Element.FEELING
    # a question the words do not place keeps the element it was asked for
    kept = proposed_item("What did the owl bring?\nanswer: berries", 0.7, section, Element.ACTION)
    assert kept.element is Element.ACTION
    # a window is not the story: its lesson and its main characters are asked from the whole
    for question in ("What lesson does the story teach?", "Who is the main character?"):
        assert (
            proposed_item(f"{question}\nanswer: the owl", 0.9, section, Element.CHARACTER) is None
        )


def test_the_model_is_not_shown_the_printed_moral(tiny, monkeypatch):
    import qg_studio.models.causal_lm as causal_lm
    from qg_studio.generation.proposer import LMProposer

    base, _, adapter = tiny
    seen: list[str] = []

    def remember(loaded, prompts, decode):
        seen.extend(prompts)
        return [[] for _ in prompts]

    monkeypatch.setattr(causal_lm, "generate", remember)
    fable = OWL + "\n\nA friend in need is a friend indeed."
    LMProposer(model=str(adapter), base=str(base)).generate(
        [Section(id=1, text=fable)], GenerationRequest(count=2)
    )
    assert seen and not [p for p in seen if "friend indeed" in p]
    assert [p for p in seen if "song of thanks" in p]
