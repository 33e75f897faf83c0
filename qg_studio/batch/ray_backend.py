"""The Ray backend: one actor per CPU of the cluster, each loading the models once.

Actors send their outcomes back to the driver, which alone writes files and the
manifest, so the output folder is on the machine that runs ``qg-studio batch`` and the
other nodes need no shared disk. Ray is an optional extra (``pip install -e '.[ray]'``).
"""

from __future__ import annotations

from typing import Iterable
from typing import Iterator

from qg_studio.batch.corpus import StoryJob
from qg_studio.batch.story import BatchSettings
from qg_studio.batch.story import StoryOutcome
from qg_studio.batch.story import Worker
from qg_studio.batch.story import load_failure
from qg_studio.batch.story import load_worker
from qg_studio.batch.story import one_line
from qg_studio.batch.story import process_story

INSTALL_HINT = (
    "--ray needs Ray, an optional extra: pip install 'qg-studio[ray]' "
    "(in a checkout: pip install -e '.[ray]')"
)


class RayUnavailable(RuntimeError):
    """Ray is not installed, or no cluster answers at the address given."""


def import_ray():
    try:
        import ray
    except ImportError:
        raise RayUnavailable(INSTALL_HINT) from None
    return ray


class StoryActor:
    """A Ray actor: its models load in ``__init__``, once; each call does one story."""

    def __init__(self, settings: BatchSettings):
        self.worker: Worker | None = None
        self.error: BaseException | None = None
        try:
            self.worker = load_worker(settings, threads=1)
        except Exception as exc:  # reported with the first story, which stops the run
            self.error = exc

    def run(self, job: StoryJob) -> StoryOutcome:
        if self.worker is None:
            return load_failure(job.key, self.error or RuntimeError("no models"))
        return process_story(job, self.worker)


def with_data(job: StoryJob) -> StoryJob | StoryOutcome:
    """The job with its file's bytes, since a worker on another node cannot read this
    disk; or, for a file that cannot be read or is too big to be a story, its failure."""
    from dataclasses import replace

    from qg_studio.ingest import MAX_DOCX_BYTES
    from qg_studio.ingest import load_story_file

    path = job.source_file()
    try:
        if path.stat().st_size <= MAX_DOCX_BYTES:
            return replace(job, data=path.read_bytes())
        load_story_file(path)  # refuses it by its size, without reading it
    except Exception as exc:
        return StoryOutcome(job.key, False, one_line(exc))
    return StoryOutcome(job.key, False, f"{path.name} is too big to be a story")


class RayBackend:
    name = "ray"

    def __init__(self, settings: BatchSettings, address: str, workers: int | None = None):
        self.ray = import_ray()
        self.settings = settings
        self.started = False
        if not self.ray.is_initialized():
            try:
                if address == "local":  # a private one-machine cluster for this run
                    self.ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
                else:
                    self.ray.init(address=address, log_to_driver=False)
            except ConnectionError:
                raise RayUnavailable(
                    f"no Ray cluster answers at {address!r}; start one with "
                    "`ray start --head` (then --ray auto), or use --ray "
                    "local for this machine alone"
                ) from None
            self.started = True
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.workers = max(1, min(workers or cpus, cpus))

    def outcomes(self, jobs: Iterable[StoryJob]) -> Iterator[StoryOutcome]:
        ray = self.ray
        remote = ray.remote(num_cpus=1)(StoryActor)
        queue = list(jobs)[::-1]
        actors = [remote.remote(self.settings) for _ in range(min(self.workers, len(queue)))]
        running: dict = {}
        refused: list[StoryOutcome] = []  # files the driver could not send

        def give(actor) -> None:
            while queue:
                job = with_data(queue.pop())
                if isinstance(job, StoryOutcome):
                    refused.append(job)
                    continue
                running[actor.run.remote(job)] = (actor, job)
                return

        try:
            for actor in actors:
                give(actor)
                give(actor)  # one queued behind the one running: no idle gap
            while running or refused:
                if refused:
                    yield refused.pop()
                    continue
                ready, _ = ray.wait(list(running), num_returns=1)
                actor, job = running.pop(ready[0])
                try:
                    outcome = ray.get(ready[0])
                except ray.exceptions.RayActorError as exc:
                    outcome = StoryOutcome(
                        job.key,
                        False,
                        f"the Ray worker died while doing this story ({type(exc).__name__})",
                    )
                    actor = remote.remote(self.settings)
                    actors.append(actor)
                yield outcome
                give(actor)
        finally:
            for actor in actors:
                ray.kill(actor)
            if self.started:
                ray.shutdown()
