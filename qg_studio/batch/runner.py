"""A batch run: find the stories, skip those the manifest has, do the rest, summarise."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

from qg_studio.batch.corpus import StoryJob
from qg_studio.batch.corpus import find_stories
from qg_studio.batch.manifest import DONE
from qg_studio.batch.manifest import FAILED
from qg_studio.batch.manifest import MANIFEST
from qg_studio.batch.manifest import Manifest
from qg_studio.batch.output import remove_leftovers
from qg_studio.batch.output import write_meta
from qg_studio.batch.output import write_outcome
from qg_studio.batch.story import BatchSettings
from qg_studio.batch.story import StoryOutcome


class BatchError(RuntimeError):
    """The run cannot go on (a folder that is not ours, models that do not load)."""


def make_backend(settings: BatchSettings, workers: int | None, ray: str | None, todo: int):
    if ray:
        from qg_studio.batch.ray_backend import RayBackend

        return RayBackend(settings, ray, workers)
    from qg_studio.batch.local import InlineBackend
    from qg_studio.batch.local import PoolBackend
    from qg_studio.batch.local import cores

    workers = max(1, min(workers or cores(), max(todo, 1)))
    return InlineBackend(settings) if workers == 1 else PoolBackend(settings, workers)


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise BatchError(f"--out {out} is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MANIFEST).exists():
        raise BatchError(
            f"--out {out} is not empty and holds no batch manifest; "
            "choose a new folder (a batch replaces files in its own only)"
        )


def run_batch(
    corpus: str | Path,
    out: str | Path,
    settings: BatchSettings,
    workers: int | None = None,
    ray: str | None = None,
    split: str | None = None,
    retry_failed: bool = False,
    progress: bool = True,
    on_outcome: Callable[[StoryOutcome], None] | None = None,
) -> dict:
    """Do every story of ``corpus`` not yet done in ``out``; the summary as a dict."""
    start = time.perf_counter()
    if ray:
        from qg_studio.batch.ray_backend import import_ray

        import_ray()  # missing Ray: one line before anything is written
    jobs = find_stories(corpus, split)
    out = Path(out)
    _check_out(out)
    manifest = Manifest(out)
    try:
        manifest.claim(
            {"corpus": str(Path(corpus).resolve()), "split": split, **settings.to_dict()}
        )
        if retry_failed:
            manifest.forget([r["key"] for r in manifest.rows(FAILED)])
        remove_leftovers(out, [(r["split"], r["name"]) for r in manifest.rows(DONE)])
        seen = manifest.statuses()
        todo = [job for job in jobs if job.key not in seen]
        backend = make_backend(settings, workers, ray, len(todo))
        processed = _run(backend, todo, len(jobs), out, manifest, progress, on_outcome)
        write_meta(out, manifest.rows(DONE))
        totals = manifest.totals()
    finally:
        manifest.close()
    seconds = time.perf_counter() - start
    return {
        "stories": len(jobs),
        **totals,
        "seconds": round(seconds, 2),
        "stories_per_min": round(processed * 60 / seconds, 2) if seconds else 0.0,
        "workers": backend.workers,
        "backend": backend.name,
    }


def _run(
    backend,
    todo: list[StoryJob],
    total: int,
    out: Path,
    manifest: Manifest,
    progress: bool,
    on_outcome,
) -> int:
    from tqdm import tqdm

    by_key = {job.key: job for job in todo}
    failed = 0
    bar = tqdm(
        total=total,
        initial=total - len(todo),
        unit="story",
        file=sys.stderr,
        disable=not progress,
        mininterval=0.5,
        dynamic_ncols=True,
    )
    processed = 0
    try:
        for outcome in backend.outcomes(todo):
            if outcome.fatal:
                raise BatchError(outcome.reason)
            job = by_key[outcome.key]
            if outcome.ok:
                write_outcome(out, job, outcome)  # files first, then the manifest says done
                manifest.record(
                    job.key,
                    job.name,
                    job.split,
                    DONE,
                    qa_pairs=len(outcome.rows),
                    sections=len(outcome.sections),
                    words=outcome.words,
                    seconds=outcome.seconds,
                    cpu_seconds=outcome.cpu_seconds,
                    worker=outcome.worker,
                )
            else:
                failed += 1
                manifest.record(
                    job.key,
                    job.name,
                    job.split,
                    FAILED,
                    outcome.reason,
                    seconds=outcome.seconds,
                    cpu_seconds=outcome.cpu_seconds,
                    worker=outcome.worker,
                )
                bar.write(f"failed: {job.key}: {outcome.reason}", file=sys.stderr)
            processed += 1
            bar.update(1)
            if failed:
                bar.set_postfix(failed=failed, refresh=False)
            if on_outcome is not None:
                on_outcome(outcome)
    finally:
        bar.close()
    return processed
