"""`qg-studio batch` at corpus scale: throughput, kill -9 and resume, bad files mixed in.

    .venv/bin/python benchmarks/bench_batch.py throughput [--limit N] [--repeat R]
        [--shell-limit K] [--configs local1,local2,ray2,shell]
    .venv/bin/python benchmarks/bench_batch.py resume [--limit N] [--kills 3] [--seed S]
    .venv/bin/python benchmarks/bench_batch.py bad-files [--limit N]

The corpus is the FairytaleQA train split (``--data``, default ../shared/data/fairytaleqa),
each story written as a .txt file (its sections joined by blank lines) into a temporary
folder, so the batch and the shell loop of ``qg-studio generate`` read the same files.
Every run is a fresh ``qg-studio batch`` process (models load inside the timing, as a
user sees it). ``--limit`` takes the first N stories; the default is all 232.

throughput: each configuration's stories/min (median over --repeat runs), the median
  seconds a worker spent per story (from the manifest), and each one's ratio to a shell
  loop that runs ``qg-studio generate FILE --count 10 --json`` once per story
  (on the first --shell-limit stories: a loop pays the same model loading per story).
resume: one uninterrupted run, then a run killed with SIGKILL (its whole process group,
  workers included) at --kills random points and restarted each time with the same
  arguments; prints whether the final dataset equals the uninterrupted one (same stories,
  same QA pairs per story), the duplicates and the partial files found.
bad-files: the stories plus an empty file, a binary file, a fake .docx and a
  40,000-word story; prints every story's status and every failure's reason.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QG = str(ROOT / ".venv" / "bin" / "qg-studio")
SHARED = ROOT.parent / "shared" / "data" / "fairytaleqa"
CONFIGS = {
    "local1": ["--workers", "1"],
    "local2": ["--workers", "2"],
    "ray2": ["--ray", "local", "--workers", "2"],
}


def text_corpus(data: Path, split: str, limit: int | None, folder: Path) -> list[Path]:
    from qg_studio.data.fairytaleqa import read_split

    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for story in read_split(data, split)[:limit]:
        path = folder / f"{story.name}.txt"
        path.write_text("\n\n".join(s.text for s in story.sections) + "\n", encoding="utf-8")
        files.append(path)
    return files


def batch_command(corpus: Path, out: Path, extra: list[str]) -> list[str]:
    """The one ``qg-studio batch`` command every measurement here runs."""
    options = ["--count", "10", *extra, "--json", "--no-progress"]
    return [QG, "batch", str(corpus), "--out", str(out), *options]


def batch(corpus: Path, out: Path, extra: list[str]) -> dict:
    run = subprocess.run(batch_command(corpus, out, extra), capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"batch failed ({run.returncode}): {run.stderr.strip()[-500:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def manifest_rows(out: Path) -> list[dict]:
    db = sqlite3.connect(out / "manifest.sqlite")
    db.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in db.execute("SELECT * FROM stories ORDER BY key")]
    finally:
        db.close()


# -- throughput -------------------------------------------------------------------------


def shell_loop(files: list[Path], out: Path) -> float:
    """Seconds for `for f in files; do qg-studio generate $f --count 10 --json; done`."""
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    for path in files:
        with open(out / f"{path.stem}.json", "w") as sink:
            subprocess.run(
                [QG, "generate", str(path), "--count", "10", "--json"],
                stdout=sink,
                stderr=subprocess.DEVNULL,
            )
    return time.perf_counter() - start


def cmd_throughput(args, work: Path) -> dict:
    files = text_corpus(args.data, args.split, args.limit, work / "corpus")
    results = {}
    for name in args.configs.split(","):
        if name == "shell":
            shell_files = files[: args.shell_limit]
            times = [shell_loop(shell_files, work / f"shell-{r}") for r in range(args.repeat)]
            per_min = [len(shell_files) * 60 / t for t in times]
            results[name] = {
                "stories": len(shell_files),
                "stories_per_min": round(statistics.median(per_min), 2),
                "seconds": round(statistics.median(times), 1),
            }
        else:
            runs, per_story, per_story_cpu = [], [], []
            for r in range(args.repeat):
                out = work / f"{name}-{r}"
                runs.append(batch(work / "corpus", out, CONFIGS[name]))
                done = [row for row in manifest_rows(out) if row["status"] == "done"]
                per_story += [row["seconds"] for row in done]
                per_story_cpu += [row.get("cpu_seconds", 0.0) for row in done]
            results[name] = {
                "stories": runs[0]["stories"],
                "done": runs[0]["done"],
                "qa_pairs": runs[0]["qa_pairs"],
                "workers": runs[0]["workers"],
                "stories_per_min": round(statistics.median(r["stories_per_min"] for r in runs), 2),
                "seconds": round(statistics.median(r["seconds"] for r in runs), 1),
                "median_story_s": round(statistics.median(per_story), 2),
                "median_story_cpu_s": round(statistics.median(per_story_cpu), 2),
            }
        print(f"{name}: {json.dumps(results[name])}", flush=True)
    if "shell" in results:
        base = results["shell"]["stories_per_min"]
        for name, result in results.items():
            if name != "shell":
                result["vs_shell_loop"] = round(result["stories_per_min"] / base, 2)
    return {
        "corpus_stories": len(files),
        "repeat": args.repeat,
        "load": os.getloadavg(),
        "results": results,
    }


# -- resume -----------------------------------------------------------------------------


def _start(corpus: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        batch_command(corpus, out, ["--workers", "2"]),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )


def _done_count(out: Path) -> int:
    try:
        db = sqlite3.connect(out / "manifest.sqlite", timeout=5)
        try:
            return db.execute("SELECT COUNT(*) FROM stories").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def check_dataset(out: Path) -> dict:
    """Duplicates and partial files in a batch output folder."""
    from qg_studio.data.fairytaleqa import FtqaFormatError
    from qg_studio.data.fairytaleqa import read_split

    rows = {r["name"]: r for r in manifest_rows(out) if r["status"] == "done"}
    partial = [p.name for p in out.rglob("*.tmp")]
    try:
        stories = read_split(out, "train")
    except FtqaFormatError as exc:
        return {"partial_files": partial + [str(exc)], "duplicates": None}
    duplicates = 0
    for story in stories:
        ids = [q.question_id for q in story.questions]
        duplicates += len(ids) - len(set(ids))
        expected = rows.get(story.name)
        files = [
            out / "questions" / "train" / f"{story.name}-questions.csv",
            out / "provenance" / "train" / f"{story.name}-provenance.csv",
        ]
        if (
            expected is None
            or expected["qa_pairs"] != len(story.questions)
            or not all(f.exists() for f in files)
        ):
            partial.append(story.name)
    on_disk = sorted(s.name for s in stories)
    return {
        "stories": len(stories),
        "duplicates": duplicates + len(on_disk) - len(set(on_disk)),
        "partial_files": partial,
        "not_on_disk": sorted(set(rows) - set(on_disk)),
        "qa_per_story": {s.name: len(s.questions) for s in stories},
    }


def cmd_resume(args, work: Path) -> dict:
    files = text_corpus(args.data, args.split, args.limit, work / "corpus")
    rng = random.Random(args.seed)
    reference = batch(work / "corpus", work / "whole", ["--workers", "2"])
    out = work / "killed"
    kills = []
    targets = sorted(rng.sample(range(1, len(files)), min(args.kills, len(files) - 1)))
    for target in targets:
        # Each kill after at least one more story is recorded: a run that is killed again
        # while it loads its models proves less than one killed mid-corpus.
        target = max(target, _done_count(out) + 1)
        proc = _start(work / "corpus", out)
        while _done_count(out) < target and proc.poll() is None:
            time.sleep(0.1)
        time.sleep(rng.uniform(0, 3))  # anywhere in the next story: mid-write included
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            kills.append(
                {"after_done": _done_count(out), "tmp_files_left": len(list(out.rglob("*.tmp")))}
            )
        else:
            kills.append({"after_done": _done_count(out), "note": "run ended before the kill"})
    proc = _start(work / "corpus", out)
    final = json.loads(proc.communicate()[0].strip().splitlines()[-1])
    whole, killed = check_dataset(work / "whole"), check_dataset(out)
    done = [r for r in manifest_rows(work / "whole") if r["status"] == "done"]
    return {
        "stories": len(files),
        "kills": kills,
        "uninterrupted": reference,
        "median_story_s": round(statistics.median(r["seconds"] for r in done), 2),
        "median_story_cpu_s": round(statistics.median(r["cpu_seconds"] for r in done), 2),
        "resumed": final,
        "same_stories": sorted(whole["qa_per_story"]) == sorted(killed["qa_per_story"]),
        "same_qa_pairs_per_story": whole["qa_per_story"] == killed["qa_per_story"],
        "qa_pairs": [sum(whole["qa_per_story"].values()), sum(killed["qa_per_story"].values())],
        "duplicates": killed["duplicates"],
        "partial_files": killed["partial_files"],
        "not_on_disk": killed["not_on_disk"],
    }


# -- bad files --------------------------------------------------------------------------


def cmd_bad_files(args, work: Path) -> dict:
    corpus = work / "corpus"
    files = text_corpus(args.data, args.split, args.limit, corpus)
    (corpus / "empty.txt").write_bytes(b"")
    (corpus / "binary.txt").write_bytes(os.urandom(20_000))
    (corpus / "fake.docx").write_text("This is plain text with a .docx name.\n")
    sentence = "The old miller walked to the river and the fox ran after him. "
    (corpus / "forty-thousand-words.txt").write_text(sentence * 3077 + "The end.\n")
    summary = batch(corpus, work / "out", ["--workers", "2"])
    rows = manifest_rows(work / "out")
    good = {p.name for p in files}
    return {
        "summary": summary,
        "good_done": sum(1 for r in rows if r["key"] in good and r["status"] == "done"),
        "good_stories": len(good),
        "failed": {r["key"]: r["reason"] for r in rows if r["status"] == "failed"},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("throughput", "resume", "bad-files"))
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--split", default="train")
    parser.add_argument("--limit", type=int, default=None, help="first N stories (all: 232)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--shell-limit", type=int, default=10)
    parser.add_argument("--configs", default="local1,local2,ray2,shell")
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--keep", type=Path, default=None, help="work here, and keep it")
    args = parser.parse_args()
    os.environ.setdefault("QG_STUDIO_HOME", tempfile.mkdtemp(prefix="qg-bench-home-"))
    commands = {"throughput": cmd_throughput, "resume": cmd_resume, "bad-files": cmd_bad_files}
    with tempfile.TemporaryDirectory(prefix="qg-bench-batch-") as tmp:
        work = args.keep or Path(tmp)
        start = time.perf_counter()
        result = commands[args.what](args, work)
        result["bench_seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
