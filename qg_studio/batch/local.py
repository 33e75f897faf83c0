"""Local backends: the models in this process (one worker), or a process pool.

Each backend's ``outcomes(jobs)`` yields one :class:`StoryOutcome` per job as stories
finish, in any order, keeping only a few jobs in flight so that stopping is quick.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import wait
from concurrent.futures.process import BrokenProcessPool
from typing import Iterable
from typing import Iterator

from qg_studio.batch.corpus import StoryJob
from qg_studio.batch.story import BatchSettings
from qg_studio.batch.story import StoryOutcome
from qg_studio.batch.story import Worker
from qg_studio.batch.story import load_failure
from qg_studio.batch.story import load_worker
from qg_studio.batch.story import process_story

MAX_CRASHES = 2  # a story in flight when its worker died this often is recorded as failed


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class InlineBackend:
    """One worker: this process loads the models and does the stories one by one."""

    name = "local"

    def __init__(self, settings: BatchSettings):
        self.settings = settings
        self.workers = 1

    def outcomes(self, jobs: Iterable[StoryJob]) -> Iterator[StoryOutcome]:
        jobs = list(jobs)
        if not jobs:
            return
        try:
            worker = load_worker(self.settings)
        except Exception as exc:
            yield load_failure(jobs[0].key, exc)
            return
        for job in jobs:
            yield process_story(job, worker)


_WORKER: Worker | None = None
_LOAD_ERROR: BaseException | None = None


def _init(settings: BatchSettings, threads: int) -> None:
    global _WORKER, _LOAD_ERROR
    try:
        _WORKER = load_worker(settings, threads)
    except Exception as exc:  # reported with the first story, which stops the run
        _LOAD_ERROR = exc


def _run(job: StoryJob) -> StoryOutcome:
    if _WORKER is None:
        return load_failure(job.key, _LOAD_ERROR or RuntimeError("no models"))
    return process_story(job, _WORKER)


class PoolBackend:
    """A pool of worker processes, each loading the models once (its initializer)."""

    name = "local"

    def __init__(self, settings: BatchSettings, workers: int):
        self.settings = settings
        self.workers = workers

    def _pool(self) -> ProcessPoolExecutor:
        # spawn: a fresh interpreter per worker, never a fork of a process holding
        # torch's threads.
        return ProcessPoolExecutor(
            self.workers,
            multiprocessing.get_context("spawn"),
            initializer=_init,
            initargs=(self.settings, max(1, cores() // self.workers)),
        )

    def outcomes(self, jobs: Iterable[StoryJob]) -> Iterator[StoryOutcome]:
        queue = list(jobs)[::-1]
        crashes: dict[str, int] = {}
        pool = self._pool()
        running: dict = {}
        try:
            while queue or running:
                while queue and len(running) < 2 * self.workers:
                    job = queue.pop()
                    running[pool.submit(_run, job)] = job
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                lost = []
                for future in finished:
                    job = running.pop(future)
                    try:
                        outcome = future.result()
                    except BrokenProcessPool:
                        lost.append(job)
                        continue
                    yield outcome
                if lost:  # a worker died: the pool is unusable, start a new one
                    lost += running.values()
                    running.clear()
                    pool.shutdown(wait=False, cancel_futures=True)
                    for job in lost:
                        crashes[job.key] = crashes.get(job.key, 0) + 1
                        if crashes[job.key] >= MAX_CRASHES:
                            yield StoryOutcome(
                                job.key, False, "the worker process died while doing this story"
                            )
                        else:
                            queue.append(job)
                    pool = self._pool()
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
