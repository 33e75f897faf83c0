"""Generate a question set, and regenerate part of one.

The engine choice lives here: ``auto`` means the best question model this machine can
load (:func:`qg_studio.models.choice.choose_engine`, asked once per process because loading a
checkpoint is what proves it works), and a named model that is missing, broken or
crashes mid-way gives way to the embedded engine with a notice the teacher sees.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Callable
from typing import Sequence

from qg_studio.pipeline import generate_items
from qg_studio.pipeline import shortfall
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import ReviewStatus
from qg_studio.schema import Section
from qg_studio.services import ServiceError

log = logging.getLogger(__name__)

Progress = Callable[[float, str], None]
AUTO = "auto"
FALLBACK_ENGINE = "embedded"


@dataclass
class GenerationRun:
    """What a run made, the engine that made it, and what the teacher should be told."""

    items: list[QAItem]
    engine: str
    engine_options: dict[str, Any] = field(default_factory=dict)
    notices: list[str] = field(default_factory=list)
    shortfall: Any = None  # mix.MixShortfall: which elements fell short, and why

    @property
    def engine_label(self) -> str:
        model = self.engine_options.get("model")
        return f"{self.engine} ({model})" if model else self.engine


@functools.lru_cache(maxsize=1)
def best_engine():
    """The best question engine here (:class:`qg_studio.models.registry.EngineChoice`), found once."""
    from qg_studio.models.choice import choose_engine

    return choose_engine("qg")


def resolve_engine(
    engine: str, engine_options: dict[str, Any] | None = None
) -> tuple[str, dict[str, Any], str | None]:
    """``auto`` becomes the best engine available here, with a line saying which."""
    if engine != AUTO:
        return engine, dict(engine_options or {}), None
    choice = best_engine()
    return choice.name, dict(choice.options), choice.notice


def generate(
    sections: Sequence[Section],
    request: GenerationRequest,
    engine: str = AUTO,
    engine_options: dict[str, Any] | None = None,
    answerer=None,
    progress: Progress | None = None,
    use_embeddings: bool = True,
    fallback: bool = True,
    existing: Sequence[QAItem] = (),
    title: str = "",
) -> GenerationRun:
    """The set a teacher asked for (about the story called ``title``, if it has one). With
    ``fallback`` a failing model gives way to the embedded engine and the run says so;
    without it (the CLI's named ``--engine``) the failure is a :class:`ServiceError`. No new
    question repeats one of ``existing``."""
    from qg_studio.generation import GENERATORS
    from qg_studio.pipeline import engine_names

    engine, options, notice = resolve_engine(engine, engine_options)
    if not engine_names(engine) or set(engine_names(engine)) - set(GENERATORS.names()):
        raise ServiceError(
            f"unknown question engine {engine!r}; known: {', '.join(GENERATORS.names())}"
        )
    notices = [notice] if notice else []

    def write(engine: str, options: dict[str, Any]):
        return generate_items(
            sections, request, engine, options, answerer, progress, use_embeddings, existing, title
        )

    try:
        items = write(engine, options)
    except Exception as exc:
        if not fallback or engine == FALLBACK_ENGINE:
            if isinstance(exc, OSError):  # a missing or broken checkpoint (models.ModelError)
                raise ServiceError(f"cannot load the question model: {exc}") from None
            raise
        log.warning("the %s engine failed: %s", engine, exc)
        notices.append(
            f"The {engine} engine could not run ({exc}); "
            f"these questions come from the {FALLBACK_ENGINE} engine instead."
        )
        engine, options = FALLBACK_ENGINE, {}
        items = write(engine, options)
    short = shortfall(items, request, sections, engine)
    return GenerationRun(
        items, engine, options, notices + ([short] if short else []), getattr(items, "mix", None)
    )


def question_writer(
    engine: str = "embedded", engine_options: dict[str, Any] | None = None, answerer: str = "auto"
):
    """An engine that writes the question for a given answer (answer-aware generation).
    A model engine checks its candidate wordings by answering them with ``answerer`` (as
    ``--answerer`` names one: "auto" the best here, "none" no check); the embedded engine
    writes one wording and needs none."""
    from qg_studio.generation import get_generator

    engine, options, _ = resolve_engine(engine, engine_options)
    checker = None if engine == FALLBACK_ENGINE else _answerer(answerer)
    if checker is not None:
        from qg_studio.answering.roundtrip import score_answerability

        options["round_trip"] = lambda items, sections: score_answerability(
            items, sections, checker
        )
    try:
        return get_generator(engine, **options)
    except KeyError as exc:
        raise ServiceError(str(exc).strip("'\"")) from None
    except (OSError, ValueError) as exc:
        raise ServiceError(f"cannot load engine {engine!r}: {exc}") from None


def _answerer(name: str):
    from qg_studio.services.answers import answerer_named

    return answerer_named(name)


@dataclass
class Regeneration:
    added: list[int]
    replaced: int
    notices: list[str]


def _norm(question: str) -> str:
    return " ".join(question.lower().split())


def decided(store, story_id: int) -> list[QAItem]:
    """Everything the teacher has decided about this story's questions, as items no new
    run may ask again: every saved question (kept, dropped or not yet reviewed) and every
    first wording a teacher's edit replaced."""
    items = store.list_items(story_id)
    by_id = {i.id: i for i in items}
    earlier = []
    for item_id, wording in store.earlier_questions(story_id):
        current = by_id.get(item_id)
        if current is not None:
            earlier.append(dataclasses.replace(current, question=wording, id=None))
    return items + earlier


def regenerate_group(items: Sequence[QAItem], what: str, target) -> list[QAItem]:
    """The questions a regenerate of a section or an element is about. A question about
    the whole story (its main characters, where it happens, its lesson) cites every
    section but belongs to none: a section's regenerate leaves it."""
    if what == "section":
        return [i for i in items if target in i.sections and not i.scores.story_level]
    return [i for i in items if i.element.value == target]


def regenerate(
    store, story, what: str, target, count: int, items: Sequence[QAItem], actor: str
) -> Regeneration:
    """New questions for one section (``what="section"``) or one element, in place of
    the ones there the teacher has not reviewed, in one transaction and one undo step.
    Kept questions stay; dropped ones stay dropped (they remain saved, as dropped, and
    are never asked again), and so does any wording a teacher's edit replaced.

    Uses the engine the project was last generated with, with the same fallback.
    """
    settings = store.get_project(story.project_id).settings
    engine = settings.get("engine", FALLBACK_ENGINE)
    options = settings.get("engine_options") or {}
    group = regenerate_group(items, what, target)
    if what == "section":
        sections = [s for s in story.sections if s.id == target]
        request = GenerationRequest(count=count)
    else:
        sections = story.sections
        request = GenerationRequest(count=None, elements={target: count})
    replaced = [i for i in group if i.status == ReviewStatus.UNREVIEWED]
    gone = {i.id for i in replaced}
    # Nothing the teacher has decided on is asked again: what stays, what was dropped,
    # the first wording of what was edited.
    stays = [i for i in decided(store, story.id) if i.id is None or i.id not in gone]
    run = generate(
        sections,
        request,
        engine,
        options,
        use_embeddings=False,
        existing=stays,
        title=story.title,
    )
    taken = {_norm(i.question) for i in stays}
    fresh = [
        i
        for i in run.items
        if _norm(i.question) not in taken and (what != "element" or i.element.value == target)
    ][:count]
    if not fresh:
        return Regeneration([], 0, run.notices)
    label = (
        f"regenerated section {target}" if what == "section" else f"regenerated {target} questions"
    )
    added = store.replace_items(
        story.id,
        [i.id for i in replaced],
        fresh,
        actor=actor,
        added_by=fresh[0].engine or engine,
        label=f"{label}: {len(fresh)} new, {len(replaced)} replaced",
    )
    return Regeneration(added, len(replaced), run.notices)
