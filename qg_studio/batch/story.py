"""One story, start to finish: read → section → generate and answer → labelled rows.

:func:`process_story` is the only thing a worker runs per story, whatever the backend;
it never raises, so one bad file cannot stop a run: its outcome says why it failed.
It reads, sections and generates through the same services as ``qg-studio generate``
and the app (``qg_studio.services``), so a file is accepted or refused the same way.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from qg_studio.batch.corpus import StoryJob
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Record
from qg_studio.schema import Section

# Short enough to cost little, long enough to load every model a real story needs.
_WARM_UP_STORY = (
    "Once upon a time a young fox named Pell lived at the edge of a quiet wood. Every "
    "morning she ran to the river to watch the fishermen pull in their nets. One day a "
    "storm broke the old bridge, and the fishermen could not cross to the market. Pell "
    "was worried, because the village would have no bread that week. She remembered the "
    "fallen oak near the bend of the river. She led the fishermen there, and they laid "
    "the trunk across the water. The village cheered, and the fishermen gave Pell the "
    "biggest fish of the day. From then on, the people of the village called the oak "
    "Pell's Bridge, and children told the story every spring when the river was high. "
    "Pell was proud, but she still ran to the river every morning, just to watch."
)


@dataclass(frozen=True)
class BatchSettings(Record):
    """What every story is asked for; a resumed run must ask for the same."""

    engine: str = "embedded"
    model: str | None = None
    count: int | None = 10
    per_section: int | None = None
    answerer: str | None = None
    implicit_share: float = 0.3

    def request(self) -> GenerationRequest:
        return GenerationRequest(
            count=None if self.per_section else self.count,
            per_section=self.per_section,
            implicit_share=self.implicit_share,
        )


@dataclass
class StoryOutcome:
    """What a worker sends back: plain values, so it pickles for any backend."""

    key: str
    ok: bool
    reason: str = ""
    sections: list[tuple[int, str]] = field(default_factory=list)
    rows: list[dict[str, str]] = field(default_factory=list)
    provenance: list[dict[str, str]] = field(default_factory=list)
    words: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the worker process's CPU time: the cost on a dedicated core
    worker: str = ""
    fatal: bool = False  # the worker could not load its models: stop the run


def load_failure(key: str, exc: BaseException) -> StoryOutcome:
    return StoryOutcome(key, False, f"cannot load the models: {one_line(exc)}", fatal=True)


@dataclass
class Worker:
    """The models a worker loaded once, and what it was asked for."""

    settings: BatchSettings
    engine: str
    options: dict[str, Any]
    answerer: Any = None


def load_worker(settings: BatchSettings, threads: int | None = None) -> Worker:
    """Load every model once (spaCy, the encoder, the engine, the answerer) by running
    the pipeline on a short story; later stories find them in the process's caches."""
    if threads:
        import torch

        torch.set_num_threads(threads)
    from qg_studio.services.generation import resolve_engine
    from qg_studio.services.stories import ingest

    engine, options, _ = resolve_engine(
        settings.engine, {"model": settings.model} if settings.model else {}
    )
    from qg_studio.services.answers import answerer_named

    answerer = answerer_named(settings.answerer)
    worker = Worker(settings, engine, options, answerer)
    _questions(ingest(_WARM_UP_STORY).sections, worker)
    return worker


def process_story(job: StoryJob, worker: Worker) -> StoryOutcome:
    """The story's sections and QA rows, or the one-line reason it could not be done."""
    start, cpu = time.perf_counter(), time.process_time()
    where = f"{socket.gethostname()}:{os.getpid()}"
    try:
        title, sections = _sections(job)
        items = _questions(sections, worker, title)
    except Exception as exc:  # any story-level failure is recorded, never raised
        return StoryOutcome(
            job.key,
            False,
            one_line(exc),
            seconds=time.perf_counter() - start,
            cpu_seconds=time.process_time() - cpu,
            worker=where,
        )
    rows, provenance = _rows(items, worker.engine)
    return StoryOutcome(
        job.key,
        True,
        sections=[(s.id, s.text) for s in sections],
        rows=rows,
        provenance=provenance,
        words=sum(len(s.text.split()) for s in sections),
        seconds=time.perf_counter() - start,
        cpu_seconds=time.process_time() - cpu,
        worker=where,
    )


def _sections(job: StoryJob) -> tuple[str, list[Section]]:
    """The story's title (a corpus story's name as words) and its sections."""
    if job.kind == "fairytaleqa":
        # The corpus's own expert sections are kept; its questions are not read.
        from qg_studio.data.fairytaleqa import parse_story

        data = job.data if job.data is not None else job.source_file().read_bytes()
        story = parse_story(job.name, data, split=job.split)
        return story.title, story.sections
    from qg_studio.services.stories import ingest
    from qg_studio.services.stories import read_story

    title, text = read_story(job.path, job.data)
    return title, ingest(text, title=title).sections


def _questions(sections: list[Section], worker: Worker, title: str = "") -> list[QAItem]:
    """The question set, as `qg-studio generate` makes it: a named engine that fails is
    an error, never a quiet fall-back to another engine's questions."""
    from qg_studio.services.generation import generate

    return generate(
        sections,
        worker.settings.request(),
        engine=worker.engine,
        engine_options=worker.options,
        answerer=worker.answerer,
        fallback=False,
        title=title,
    ).items


def _rows(items: list[QAItem], engine: str) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    from qg_studio.data.question_rows import QUESTION_COLUMNS
    from qg_studio.data.question_rows import question_row

    rows, provenance = [], []
    for number, item in enumerate(items, start=1):
        qid = str(number)
        rows.append(question_row(item, QUESTION_COLUMNS, question_id=qid))
        # The same provenance the Annotate export writes for an unedited engine item.
        provenance.append(
            {
                "question_id": qid,
                "origin": "engine",
                "created_by": item.engine or engine,
                "engine": item.engine or engine,
                "edited": "no",
                "edited_by": "",
                "status": item.status.value,
            }
        )
    return rows, provenance


def one_line(exc: BaseException) -> str:
    from qg_studio.services import ServiceError
    from qg_studio.story import StoryInputError

    text = " ".join(str(exc).split()) or type(exc).__name__
    if not isinstance(exc, (ServiceError, StoryInputError)):
        text = f"{type(exc).__name__}: {text}"
    return text if len(text) <= 300 else text[:297] + "..."
