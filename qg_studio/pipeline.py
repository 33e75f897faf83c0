"""Sections → candidates → answerability → a ranked set that fills the request.

The one place engines meet: the generator, the tagger and the answerer never import
each other; this module hands each one's output to the next.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Sequence

from qg_studio.generation import get_generator
from qg_studio.schema import GenerationRequest, QAItem, Section

log = logging.getLogger(__name__)

Progress = Callable[[float, str], None]


def generate_items(sections: Sequence[Section], request: GenerationRequest,
                   engine: str = "embedded", engine_options: dict[str, Any] | None = None,
                   answerer=None, progress: Progress | None = None,
                   use_embeddings: bool = True) -> list[QAItem]:
    """The questions for a story's sections, as the teacher asked for them."""
    report = progress or (lambda fraction, message: None)
    sections = [s for s in sections if s.text.strip()]
    if not sections:
        return []
    if use_embeddings:
        from qg_studio.ranking import warm_encoder

        warm_encoder()
    report(0.05, f"loading the {engine} engine")
    generator = get_generator(engine, **(engine_options or {}))
    report(0.15, f"writing questions for {len(sections)} section(s)")
    candidates = generator.generate(sections, request)
    report(0.6, f"{len(candidates)} candidate questions")
    # Every engine labels its items (a QAItem cannot exist without an element and an
    # explicitness), so the tagger is not needed here; it labels teachers' questions.
    from qg_studio.ranking import rank_and_select, score_items, shortlist

    if answerer is not None and candidates:
        # Answering is the slow step: round-trip only the strongest candidates.
        score_items(candidates)
        need = request.total(len(sections))
        candidates = shortlist(sorted(candidates, key=lambda i: -i.scores["rank"]),
                               max(need * 3, 40))
        report(0.65, "checking each question can be answered from the story")
        _answerability(candidates, sections, answerer)
    report(0.85, "ranking and removing near-duplicates")
    chosen = rank_and_select(candidates, request, sections, use_embeddings=use_embeddings)
    for item in chosen:
        item.engine = item.engine or generator.name
    report(1.0, f"{len(chosen)} questions ready")
    return chosen


def _answerability(items: list[QAItem], sections: Sequence[Section], answerer) -> None:
    try:
        from qg_studio.answering.roundtrip import score_answerability
    except ImportError:
        log.info("no answerability round trip installed; ranking without it")
        return
    # Round-trip only a shortlist: answering is the slow step.
    score_answerability(items, sections, answerer)
