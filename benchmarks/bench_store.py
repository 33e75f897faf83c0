"""The store under the loads issues 13 and 18 measured: counts of errors and lost writes.

    .venv/bin/python benchmarks/bench_store.py [--threads 4] [--saves 200]
        [--settings 334] [--runs 4] [--kills 20]

Prints one line per scenario and a JSON object last. "Lost" is a write the store
acknowledged (the call returned) that the file does not hold afterwards.

- threads: N threads share one Store (as the app's sessions do), each adding and then
  editing ``--saves`` items in one story;
- settings: two processes each make ``--settings`` settings writes to one project,
  ``--runs`` times;
- sections: two processes append words to their own section of one story against the
  version they read, retrying when refused as stale;
- kill -9: a child edits items in a loop, reporting each acknowledged edit; it is killed
  with SIGKILL at random moments ``--kills`` times; then every reported edit is looked up
  and the file's integrity checked.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.store import Store

# The same workers the concurrency tests run, here at the issues' scale and counted.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import test_store_concurrency as workload  # noqa: E402

EDIT_LOOP = """
import sys
from qg_studio.store import Store
store, story_id, start = Store(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
item_ids = [i.id for i in store.list_items(story_id)]
for n in range(start, start + 100_000):
    store.update_item(item_ids[n % len(item_ids)], "loop", question=f"edit {n}?")
    print(n, flush=True)
"""


def _question(text: str) -> QAItem:
    return QAItem(
        question=text, answers=["x"], element="action", explicitness="explicit", sections=[1]
    )


def _new_story(path: Path) -> tuple[int, int]:
    with Store(path) as store:
        project = store.create_project("bench")
        return project, store.add_story(
            project, "S", "A.\n\nB.", [Section(1, "A."), Section(2, "B.")]
        )


def _pool(n: int):
    return multiprocessing.get_context("spawn").Pool(n)


def threads(folder: Path, n_threads: int, saves: int) -> dict:
    path = folder / "threads.sqlite3"
    _, story_id = _new_story(path)
    store, results = Store(path), []
    workers = [
        threading.Thread(
            target=lambda t=t: results.append(workload._save_items(store, story_id, f"t{t}", saves))
        )
        for t in range(n_threads)
    ]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    seconds = time.perf_counter() - start
    acked = {q for _, done in results for q in done}
    held = {i.question for i in store.list_items(story_id)}
    return {
        "writes": 2 * n_threads * saves,
        "errors": sum(e for e, _ in results),
        "acknowledged": len(acked),
        "lost": len(acked - held),
        "seconds": round(seconds, 2),
    }


def settings(folder: Path, writes: int, runs: int) -> dict:
    acked = lost = 0
    for run in range(runs):
        path = folder / f"settings{run}.sqlite3"
        project, _ = _new_story(path)
        with _pool(2) as pool:
            start_at = time.time() + 3
            acked += sum(
                pool.starmap(
                    workload._process_settings,
                    [(str(path), project, tag, writes, start_at) for tag in ("a", "b")],
                )
            )
        kept = Store(path).get_project(project).settings
        lost += sum(1 for tag in "ab" for i in range(writes) if f"{tag}-{i}" not in kept)
    return {"acknowledged": acked, "lost": lost}


def sections(folder: Path, saves: int) -> dict:
    path = folder / "sections.sqlite3"
    _, story_id = _new_story(path)
    with _pool(2) as pool:
        start_at = time.time() + 3
        done = pool.starmap(
            workload._process_sections, [(str(path), story_id, s, saves, start_at) for s in (1, 2)]
        )
    text = {s.id: s.text for s in Store(path).get_story(story_id).sections}
    lost = sum(1 for s in (1, 2) for i in range(saves) if f"w{s}x{i}" not in text[s].split())
    return {
        "acknowledged": sum(d[0] for d in done),
        "refused_as_stale": sum(d[1] for d in done),
        "lost": lost,
    }


def kills(folder: Path, n_kills: int) -> dict:
    path = folder / "kills.sqlite3"
    _, story_id = _new_story(path)
    Store(path).add_items(story_id, [_question(f"q{i}") for i in range(20)], "bench")
    acked: list[int] = []
    for _ in range(n_kills):
        child = subprocess.Popen(
            [
                sys.executable,
                "-c",
                EDIT_LOOP,
                str(path),
                str(story_id),
                str(len(acked) and acked[-1] + 1),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        deadline = time.time() + random.uniform(0.5, 2.0)
        for line in child.stdout:
            acked.append(int(line))
            if time.time() > deadline:
                break
        os.kill(child.pid, signal.SIGKILL)
        acked += [int(line) for line in child.stdout.read().split()]
        child.wait()
    store = Store(path)
    history = {h["after"]["question"] for h in store.history(story_id) if h["action"] == "edit"}
    return {
        "kills": n_kills,
        "acknowledged": len(acked),
        "lost": sum(1 for n in acked if f"edit {n}?" not in history),
        "integrity": store._db.execute("PRAGMA integrity_check").fetchone()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--saves", type=int, default=200)
    parser.add_argument("--settings", type=int, default=334)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--kills", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        report = {"threads": threads(folder, args.threads, args.saves)}
        print("threads:", report["threads"], flush=True)
        report["settings"] = settings(folder, args.settings, args.runs)
        print("settings:", report["settings"], flush=True)
        report["sections"] = sections(folder, args.saves // 2)
        print("sections:", report["sections"], flush=True)
        report["kill_9"] = kills(folder, args.kills)
        print("kill -9:", report["kill_9"], flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
