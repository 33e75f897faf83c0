"""Generate a question set, and regenerate part of one.

The engine choice lives here: ``auto`` means the best question model this machine can
load (:func:`qg_studio.models.choose_engine`, asked once per process because loading a
checkpoint is what proves it works), and a named model that is missing, broken or
crashes mid-way gives way to the embedded engine with a notice the teacher sees.
"""

from __future__ import annotations

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
    """The best question engine here (:class:`qg_studio.models.EngineChoice`), found once."""
    from qg_studio.models import choose_engine

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


def question_writer(engine: str = "embedded", engine_options: dict[str, Any] | None = None):
    """An engine that writes the question for a given answer (answer-aware generation)."""
    from qg_studio.generation import get_generator

    engine, options, _ = resolve_engine(engine, engine_options)
    try:
        return get_generator(engine, **options)
    except KeyError as exc:
        raise ServiceError(str(exc).strip("'\"")) from None
    except (OSError, ValueError) as exc:
        raise ServiceError(f"cannot load engine {engine!r}: {exc}") from None


@dataclass
class Regeneration:
    added: list[int]
    replaced: int
    notices: list[str]


def _norm(question: str) -> str:
    return " ".join(question.lower().split())


def regenerate(
    store, story, what: str, target, count: int, items: Sequence[QAItem], actor: str
) -> Regeneration:
    """New questions for one section (``what="section"``) or one element, replacing the
    unkept ones there in one transaction; kept questions stay and are not written again.

    Uses the engine the project was last generated with, with the same fallback.
    """
    settings = store.get_project(story.project_id).settings
    engine = settings.get("engine", FALLBACK_ENGINE)
    options = settings.get("engine_options") or {}
    if what == "section":
        group = [i for i in items if target in i.sections]
        sections = [s for s in story.sections if s.id == target]
        request = GenerationRequest(count=count)
    else:
        group = [i for i in items if i.element.value == target]
        sections = story.sections
        request = GenerationRequest(count=None, elements={target: count})
    # What stays in the project (all but the unkept questions being replaced) is not
    # asked again.
    stays = [i for i in items if i not in group or i.status == ReviewStatus.KEPT]
    run = generate(
        sections,
        request,
        engine,
        options,
        use_embeddings=False,
        existing=stays,
        title=story.title,
    )
    kept = {_norm(i.question) for i in group if i.status == ReviewStatus.KEPT}
    fresh = [
        i
        for i in run.items
        if _norm(i.question) not in kept and (what != "element" or i.element.value == target)
    ][:count]
    replace = [i.id for i in group if i.status != ReviewStatus.KEPT]
    if not fresh:
        return Regeneration([], 0, run.notices)
    added = store.replace_items(
        story.id, replace, fresh, actor=actor, added_by=fresh[0].engine or engine
    )
    return Regeneration(added, len(replace), run.notices)
