"""Measure whole question sets the way a teacher judges them (``qg-studio eval sets``).

For every story: the default set (10 questions, balanced, 30% implicit) and one custom
mix, each asked of the story on its own, as two teachers would. Each set is checked for:

- ``given`` against ``asked``;
- ``element_kl``: KL(requested mix ‖ given mix) per set, averaged;
- ``implicit_share_error``: |implicit share given − asked| per set, averaged;
- ``duplicate_share``: items repeating (exactly or nearly, :func:`ranking.repeats.same_question`
  with the MiniLM encoder) an earlier item of the same set;
- ``explicit_answer_in_text``: explicit items whose answer is in the story verbatim
  (after normalising spaces and case);
- ``answerable``: items the answerer, reading the whole story, answers with the key's
  answer (agreement ≥ the round trip's floor) or from the very sentence the key cites;
  ``answerable_section_level`` the same over section-level items alone;
- ``story_level``: share of stories with at least one whole-story question.

Then the custom mix is asked again *after* the default set, with the default set as the
project's questions, as one teacher generating twice would: ``second_run`` says how many
of its questions came (the story's supply of new ones) and how many repeat the default
set (``repeats``, which must be 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Callable
from typing import Sequence

from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.text.sentences import sentences as split_sentences

DEFAULT_REQUEST = GenerationRequest(count=10, elements="balanced", implicit_share=0.3)
CUSTOM_REQUEST = GenerationRequest(
    count=None,
    implicit_share=0.4,
    elements={
        Element.CHARACTER: 2,
        Element.ACTION: 2,
        Element.FEELING: 1,
        Element.CAUSAL: 2,
        Element.OUTCOME: 2,
        Element.PREDICTION: 1,
    },
)
MIN_WORDS = 150  # a story this long must get every question asked for


@dataclass
class SetFigures:
    """What the sets of a split add up to, for :meth:`result`'s figures."""

    # Questions: asked for, given, repeating an earlier one, answerable from the story.
    asked: int = 0
    given: int = 0
    duplicates: int = 0
    answerable: int = 0
    # The same for section-level questions alone: a span reader answers a whole-story
    # question ("Who are the two main characters?") with one passage, rightly or not.
    section_level: int = 0
    section_level_answerable: int = 0
    # Sets: each one's element KL and implicit-share error; explicit answers stated in the
    # text; sets with a story-level question.
    kl: list[float] = field(default_factory=list)
    implicit_error: list[float] = field(default_factory=list)
    explicit: int = 0
    explicit_in_text: int = 0
    sets: int = 0
    sets_with_story_level: int = 0
    # Stories: those short of the count (150+ words, given < asked), those with a
    # story-level question.
    short_stories: list[str] = field(default_factory=list)
    # The questions the answerer could not answer, "story: question", for --show to mark.
    unanswered: list[str] = field(default_factory=list)
    stories: int = 0
    stories_with_story_level: int = 0
    # The custom mix asked again after the default set, in the same project.
    second_asked: int = 0
    second_given: int = 0
    second_repeats: int = 0

    def result(self, stories: int) -> dict:
        def share(n: int, d: int) -> float:
            return round(n / d, 4) if d else 0.0

        return {
            "stories": stories,
            "asked": self.asked,
            "given": self.given,
            "element_kl": round(sum(self.kl) / len(self.kl), 4) if self.kl else 0.0,
            "implicit_share_error": (
                round(sum(self.implicit_error) / len(self.implicit_error), 4)
                if self.implicit_error
                else 0.0
            ),
            "duplicate_share": share(self.duplicates, self.given),
            "explicit_answer_in_text": share(self.explicit_in_text, self.explicit),
            "answerable": share(self.answerable, self.given),
            "answerable_section_level": share(self.section_level_answerable, self.section_level),
            "story_level": share(self.stories_with_story_level, self.stories),
            "sets_with_story_level": share(self.sets_with_story_level, self.sets),
            "second_run": {
                "asked": self.second_asked,
                "given": self.second_given,
                "repeats": self.second_repeats,
            },
        }


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("\u2019", "'").split())


def requested_distribution(request: GenerationRequest, n_sections: int) -> dict[str, float]:
    from qg_studio.mix import requested_counts

    return {e.value: n for e, n in requested_counts(request, n_sections).items()}


def count_repeats(items: Sequence[QAItem], earlier: Sequence[QAItem], within: bool = True) -> int:
    """Items that ask what an earlier item of ``earlier`` (or, ``within``, of this set) asks."""
    from qg_studio.ranking.repeats import same_question
    from qg_studio.ranking.repeats import wait_for_encoder

    if not items:
        return 0
    wait_for_encoder()
    from qg_studio.models.embeddings import embed

    pool = list(earlier) + list(items)
    vectors = embed([i.question for i in pool])
    sims = vectors @ vectors.T
    start = len(earlier)
    # Against an earlier run, a repeat is what Generate itself refuses to save again
    # (drop_repeats): one short answer ("sorrow", "the giant") is no proof of a repeat.
    return sum(
        any(
            same_question(pool[j], pool[i], float(sims[i, j]), name_answers=j >= start)
            for j in range(i if within else start)
        )
        for i in range(start, len(pool))
    )


def answerable(
    items: Sequence[QAItem], sections: Sequence[Section], answerer, title: str = ""
) -> list[bool]:
    """Per item: the answerer finds the key's answer, or answers from the sentence cited."""
    from qg_studio.answering.roundtrip import agreement
    from qg_studio.answering.roundtrip import same_sentence
    from qg_studio.scores import ANSWERABILITY_FLOOR

    if not items:
        return []
    replies = answerer.answer(
        [i.question for i in items], sections, [None] * len(items), title=title
    )
    texts = {s.id: s.text for s in sections}
    out = []
    for item, reply in zip(items, replies):
        agree = max(
            (agreement(p, a) for p in reply.answers for a in item.answers if a.strip()), default=0.0
        )
        same_place = same_sentence(item.evidence, reply.evidence, texts)
        out.append(agree >= ANSWERABILITY_FLOOR or same_place)
    return out


def stated(answer: str, story_text: str, sentences: Sequence[str]) -> bool:
    """An explicit answer is stated in the story: verbatim, or every content word of it
    in one sentence (answers name who "he" is: "the old miller listened with great delight")."""
    from qg_studio.reading.analysis import content

    if _norm(answer) in story_text:
        return True
    words = set(content(answer))
    return bool(words) and any(words <= set(content(s)) for s in sentences)


def measure_story(
    name: str,
    sections: Sequence[Section],
    generate: Callable,
    answerer,
    figures: SetFigures,
    title: str = "",
) -> list[list[QAItem]]:
    """Generate the default set and the custom mix for one story, add up the figures, and
    ask the custom mix again after the default set (``second_run``)."""
    text = " ".join(s.text for s in sections)
    words = len(text.split())
    story_text = _norm(text)
    sentences = [s.text[a:b] for s in sections for a, b in split_sentences(s.text)]
    made = [list(generate(sections, request, ())) for request in (DEFAULT_REQUEST, CUSTOM_REQUEST)]
    for request, items in zip((DEFAULT_REQUEST, CUSTOM_REQUEST), made):
        asked = request.total(len(sections))
        figures.asked += asked
        figures.given += len(items)
        figures.sets += 1
        if len(items) < asked and words >= MIN_WORDS and name not in figures.short_stories:
            figures.short_stories.append(name)
        _add_mix(figures, request, len(sections), items)
        figures.duplicates += count_repeats(items, ())
        for item in items:
            if item.explicitness == Explicitness.EXPLICIT:
                figures.explicit += 1
                figures.explicit_in_text += stated(item.answer, story_text, sentences)
        found = answerable(items, sections, answerer, title)
        figures.answerable += sum(found)
        figures.unanswered += [f"{name}: {i.question}" for i, ok in zip(items, found) if not ok]
        local = [ok for item, ok in zip(items, found) if not item.scores.story_level]
        figures.section_level += len(local)
        figures.section_level_answerable += sum(local)
        figures.sets_with_story_level += any(i.scores.story_level for i in items)
    second = list(generate(sections, CUSTOM_REQUEST, made[0]))
    figures.second_asked += CUSTOM_REQUEST.total(len(sections))
    figures.second_given += len(second)
    figures.second_repeats += count_repeats(second, made[0], within=False)
    figures.stories += 1
    figures.stories_with_story_level += any(i.scores.story_level for items in made for i in items)
    return made + [second]


def _add_mix(
    figures: SetFigures, request: GenerationRequest, n_sections: int, items: Sequence[QAItem]
) -> None:
    from qg_studio.evaluate import kl_divergence

    given: dict[str, int] = {}
    for item in items:
        given[item.element.value] = given.get(item.element.value, 0) + 1
    figures.kl.append(kl_divergence(requested_distribution(request, n_sections), given))
    implicit = sum(i.explicitness == Explicitness.IMPLICIT for i in items)
    figures.implicit_error.append(abs(implicit / max(len(items), 1) - request.implicit_share))
