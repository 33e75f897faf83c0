"""Sections → candidates → answerability → a ranked set that fills the request.

The one place engines meet: the generator, the tagger and the answerer never import
each other; this module hands each one's output to the next.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Callable
from typing import Sequence

from qg_studio.generation import get_generator
from qg_studio.mix import MixShortfall
from qg_studio.mix import check_mix
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.schema import section_texts

log = logging.getLogger(__name__)
STORY_LEVEL_ENGINE = "story-level"
AUTO_RANKER = "auto"  # generate_items' default: the shipped learned ranker, if one ships  # whole-story questions come from rules, not the engine

Progress = Callable[[float, str], None]


class QuestionSet(list):
    """The chosen items (a list), with what the teacher must be told about the mix."""

    mix: MixShortfall | None = None


def shortfall(
    items: Sequence[QAItem], request: GenerationRequest, sections: Sequence[Section], engine: str
) -> str | None:
    """A line for the teacher when the set is smaller than asked or misses part of the
    mix (which elements, and why), else None."""
    mix = getattr(items, "mix", None)
    if mix is None and isinstance(items, QuestionSet):
        return None
    if mix is None:
        n_sections = len([s for s in sections if s.text.strip()])
        mix = check_mix(items, request, n_sections, engine=items[0].engine if items else engine)
    if mix is None or not items:
        return None
    return mix.message()


def generate_items(
    sections: Sequence[Section],
    request: GenerationRequest,
    engine: str = "embedded",
    engine_options: dict[str, Any] | None = None,
    answerer=None,
    progress: Progress | None = None,
    use_embeddings: bool = True,
    existing: Sequence[QAItem] = (),
    title: str = "",
    ranker: Any = AUTO_RANKER,
) -> QuestionSet:
    """The questions for a story's sections, as the teacher asked for them.

    Any engine's candidates are joined by the story-level ones (who, where, the turning
    point, the ending, the lesson, predictions where parts end) for a whole-story request,
    and none may repeat a question of ``existing`` (the project's saved questions); the
    story's ``title`` tells who its main characters are. ``ranker``: the learned ranker
    (by default the shipped one, if any; None: the hand-set weights). The result carries
    ``mix``: what fell short of the request, and why."""
    report = progress or (lambda fraction, message: None)
    sections = [s for s in sections if s.text.strip()]
    if not sections:
        return QuestionSet()
    if ranker is AUTO_RANKER:
        from qg_studio.ranking.learned import default_ranker

        ranker = default_ranker()
    found = checked_candidates(
        sections,
        request,
        engine,
        engine_options,
        answerer,
        report,
        use_embeddings,
        existing,
        title,
        ranker=ranker,
    )
    report(0.85, "ranking and removing near-duplicates")
    from qg_studio.ranking import rank_and_select

    chosen = QuestionSet(
        rank_and_select(
            found.items, request, sections, use_embeddings=use_embeddings, ranker=ranker
        )
    )
    for item in chosen:
        item.engine = item.engine or found.engine
    from qg_studio.trust import mark_trust

    mark_trust(chosen, ranker)
    chosen.mix = check_mix(
        chosen,
        request,
        len(sections),
        Counter(i.element for i in found.items),
        found.repeats,
        engine=engine,
    )
    report(1.0, f"{len(chosen)} questions ready")
    return chosen


@dataclass
class Candidates:
    """The checked candidates a set is chosen from, and what was left out as repeats."""

    items: list[QAItem]
    engine: str
    repeats: Counter = field(default_factory=Counter)


def checked_candidates(
    sections: Sequence[Section],
    request: GenerationRequest,
    engine: str = "embedded",
    engine_options: dict[str, Any] | None = None,
    answerer=None,
    progress: Progress | None = None,
    use_embeddings: bool = True,
    existing: Sequence[QAItem] = (),
    title: str = "",
    ranker=None,
    shortlisted: bool = True,
) -> Candidates:
    """Every proposer's candidates for the sections, with the story-level ones, none on a
    fable's printed moral nor repeating ``existing``; round-tripped through ``answerer``
    (the strongest few when ``shortlisted``, all of them otherwise: the ranker's training
    data). Generation and the ranker's training both read candidates from here."""
    report = progress or (lambda fraction, message: None)
    if use_embeddings:
        from qg_studio.ranking.repeats import warm_encoder

        warm_encoder()
    report(0.05, f"loading the {engine} engine")
    generators = proposers(engine, engine_options)
    report(0.15, f"writing questions for {len(sections)} section(s)")
    candidates = [item for g in generators for item in g.generate(sections, request)]
    if request.per_section is None:
        candidates = candidates + story_candidates(sections, title)
    moral = _moral(sections)
    candidates = [i for i in candidates if not on_moral(i, sections[-1].id, moral)]
    candidates = told_as_the_story_tells(candidates, sections)
    offered = Counter(i.element for i in candidates)
    repeats: Counter = Counter()
    if existing:
        from qg_studio.ranking.repeats import drop_repeats

        fresh = drop_repeats(candidates, existing, use_embeddings=use_embeddings)
        repeats = offered - Counter(i.element for i in fresh)
        candidates = fresh
    report(0.6, f"{len(candidates)} candidate questions")
    # Every engine labels its items (a QAItem cannot exist without an element and an
    # explicitness), so the tagger is not needed here; it labels teachers' questions.
    if answerer is not None and candidates:
        from qg_studio.ranking import score_items
        from qg_studio.ranking import shortlist

        if shortlisted:
            # Answering is the slow step: round-trip only the strongest candidates.
            story = section_texts(sections) if ranker else ""  # only a learned ranker reads it
            score_items(candidates, ranker=ranker, story_text=story)
            need = request.total(len(sections))
            candidates = shortlist(
                sorted(candidates, key=lambda i: -i.scores.rank), max(need * 3, 40)
            )
        report(0.65, "checking each question can be answered from the story")
        _answerability(candidates, sections, answerer, whole_story=request.per_section is None)
    return Candidates(candidates, generators[0].name, repeats)


def told_as_the_story_tells(
    candidates: Sequence[QAItem], sections: Sequence[Section]
) -> list[QAItem]:
    """The candidates without those whose question or key says a character did what the
    story tells only of another ("Why did the Crow tumble down the hill?" where the fox
    did; the key "the Crow saw the fox"): a misread pronoun or a model's confusion; nor
    those keyed with another kind of answer than asked ("How did the willow feel? –
    heavy rain", :func:`qg_studio.reading.answer_fit.misfit`), keyed with the question said
    again ("Why did the keeper not come? – The keeper did not come") or with the one it
    asks about ("Who did the mother buy the flute from? – the mother"), nor those English
    does not put so ("Why did the Crow tumbled …?",
    :func:`qg_studio.reading.question_form.misformed`)."""
    from qg_studio.reading.analysis import analyse_each
    from qg_studio.reading.analysis import analyse_many
    from qg_studio.reading.answer_fit import asked_of_itself
    from qg_studio.reading.answer_fit import misfit
    from qg_studio.reading.answer_fit import restated
    from qg_studio.reading.deeds import doers
    from qg_studio.reading.deeds import misattributed
    from qg_studio.reading.question_form import misformed

    told = doers(analyse_many([s.text for s in sections]))
    story = section_texts(sections)
    questions = analyse_each([i.question for i in candidates])
    keys = analyse_each([i.answer for i in candidates])
    kept = []
    for item, question, key in zip(candidates, questions, keys):
        why = (
            misformed(question)
            or misfit(item.question, key)
            or restated(question, key)
            or asked_of_itself(question, key, story)
        )
        if why is None and (misattributed(question, told) or misattributed(key, told)):
            why = "someone said to do what another did"
        if why is None:
            kept.append(item)
        else:
            log.info("left out (%s): %s – %s", why, item.question, item.answer)
    return kept


def proposers(engine: str, options: dict[str, Any] | None = None) -> list:
    """The engines an engine name asks for: one name, or several joined by ``+``
    ("proposer+embedded": the model's candidates and the rules', ranked together)."""
    return [
        get_generator(name, **{"choose_slots": ranked_slots, **(options or {})})
        for name in engine_names(engine)
    ]


def ranked_slots(
    found: Sequence[QAItem], request: GenerationRequest, sections: Sequence[Section]
) -> list[QAItem]:
    """What the SmolLM2 writer rewords: the rules' candidates, ranked as a set would be
    (without the embedding check: the slots are reworded before any set is chosen)."""
    from qg_studio.ranking import rank_and_select

    return rank_and_select(found, request, sections, use_embeddings=False)


def engine_names(engine: str) -> list[str]:
    return [name.strip() for name in engine.split("+") if name.strip()]


def story_candidates(sections: Sequence[Section], title: str = "") -> list[QAItem]:
    """Whole-story questions for any engine; a story the parser cannot read gets none."""
    try:
        from qg_studio.generation.story_level import story_questions

        items = story_questions(sections, title)
    except Exception as exc:  # the section-level questions still make a set
        log.warning("no story-level questions: %s", exc)
        return []
    # Written by the story-level rules whatever the engine: the teacher sees who wrote what.
    for item in items:
        item.engine = item.engine or STORY_LEVEL_ENGINE
    return items


def _moral(sections: Sequence[Section]) -> tuple[int, int] | None:
    try:
        from qg_studio.generation.story_end import moral_line

        return moral_line(sections[-1])
    except Exception:
        return None


def on_moral(item: QAItem, last_section: int, moral: tuple[int, int] | None) -> bool:
    """A section-level question built on a fable's closing moral ("Who thinks of
    tomorrow?"): the moral is asked about as the story's lesson, not as an event."""
    if moral is None or item.scores.story_level or not item.evidence:
        return False
    ev = item.evidence[0]
    return ev.section == last_section and ev.start >= moral[0]


def _answerability(
    items: list[QAItem], sections: Sequence[Section], answerer, whole_story: bool
) -> None:
    try:
        from qg_studio.answering.roundtrip import score_answerability
    except ImportError:
        log.info("no answerability round trip installed; ranking without it")
        return
    # A question about the whole story ("How does the story end?", "Who are the two main
    # characters?") is keyed by rules that read all of it; a span reader answers it with
    # one passage and would flag a right key, so only section-level questions go round.
    section_level = [i for i in items if not i.scores.story_level]
    score_answerability(section_level, sections, answerer, whole_story)
