"""The parallel backends give the same dataset as one worker: a local process pool, and
Ray on a local two-CPU cluster (skipped where the `ray` extra is not installed)."""

from __future__ import annotations

import json

import pytest
from batch_stories import STORIES
from batch_stories import write_corpus

from qg_studio.batch.runner import run_batch
from qg_studio.batch.story import BatchSettings
from qg_studio.data.fairytaleqa import read_split

SETTINGS = BatchSettings(count=3)


def _dataset(out):
    return {
        s.name: [json.dumps(q.row, sort_keys=True) for q in s.questions]
        for s in read_split(out, "train")
    }


@pytest.fixture(scope="module")
def corpus_and_reference(tmp_path_factory):
    corpus = write_corpus(tmp_path_factory.mktemp("corpus"))
    out = tmp_path_factory.mktemp("one") / "out"
    run_batch(corpus, out, SETTINGS, workers=1, progress=False)
    return corpus, _dataset(out)


@pytest.mark.slow
def test_two_worker_processes_give_the_one_worker_dataset(corpus_and_reference, tmp_path):
    corpus, reference = corpus_and_reference
    summary = run_batch(corpus, tmp_path / "out", SETTINGS, workers=2, progress=False)
    assert (summary["workers"], summary["backend"], summary["done"]) == (2, "local", 3)
    assert _dataset(tmp_path / "out") == reference
    assert sorted(reference) == sorted(STORIES)


@pytest.mark.slow
def test_ray_actors_on_a_two_cpu_cluster_give_the_same_dataset(corpus_and_reference, tmp_path):
    ray = pytest.importorskip("ray")
    corpus, reference = corpus_and_reference
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        summary = run_batch(corpus, tmp_path / "out", SETTINGS, ray="auto", progress=False)
    finally:
        ray.shutdown()
    assert (summary["workers"], summary["backend"], summary["done"]) == (2, "ray", 3)
    assert _dataset(tmp_path / "out") == reference
