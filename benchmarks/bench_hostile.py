"""Hostile inputs, each in a fresh ``qg-studio`` process: the corpus of tests/hostile_cases.py
(cases, tracebacks, hangs, the slowest case), then the doubling run: one bad file (short
one-line paragraphs) from 60k to 960k characters through ``section``, ``generate``,
``answer`` and ``batch``, where each doubling should cost at most about twice the time
(linear work, limits before any parsing).

    .venv/bin/python benchmarks/bench_hostile.py [--repeat 3] [--skip-corpus]

Medians of ``--repeat`` runs; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
QG = str(Path(sys.executable).with_name("qg-studio"))
HANG_SECONDS = 120


def run(argv: list[str], env: dict, stdin: str | None = None) -> tuple[float, int, str]:
    started = time.perf_counter()
    with open(stdin or os.devnull, "rb") as fh:
        try:
            proc = subprocess.run(
                [QG, *argv],
                stdin=fh,
                capture_output=True,
                text=True,
                env=env,
                timeout=HANG_SECONDS,
            )
        except subprocess.TimeoutExpired:
            return HANG_SECONDS, -1, "hang"
    return time.perf_counter() - started, proc.returncode, proc.stderr


def corpus() -> dict:
    from hostile_cases import CASES

    rows = []
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, QG_STUDIO_HOME=str(Path(tmp) / "home"))
            made = case.make(Path(tmp), env)
            argv, cleanup = made if isinstance(made, tuple) else (made, None)
            try:
                seconds, status, err = run(argv, env, case.stdin)
            finally:
                if cleanup:
                    cleanup()
        rows.append(
            {
                "case": case.name,
                "seconds": round(seconds, 2),
                "status": status,
                "expected": case.status,
                "traceback": "Traceback" in err,
                "hang": status == -1,
                "line": err.strip().splitlines()[-1][:140] if err.strip() else "",
            }
        )
        print(f"{seconds:6.2f}s  {status}  {case.name}: {rows[-1]['line']}", flush=True)
    slowest = max(rows, key=lambda r: r["seconds"])
    return {
        "cases": len(rows),
        "tracebacks": sum(r["traceback"] for r in rows),
        "hangs": sum(r["hang"] for r in rows),
        "wrong_status": sum(r["status"] != r["expected"] for r in rows),
        "slowest": {"case": slowest["case"], "seconds": slowest["seconds"]},
        "rows": rows,
    }


def doubling(repeat: int) -> dict:
    """The parse itself (in this process, no limits) and each command on one bad file:
    short one-line paragraphs, 60k to 960k characters, ending in a 201-character "word"
    that no story holds, so every command must read it all, linearly, and refuse it."""
    from qg_studio.story import parse_story

    sizes = [60_000, 120_000, 240_000, 480_000, 960_000]
    line = "the fox ran and the hen sat\n\n"
    parse: dict[int, float] = {}
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, QG_STUDIO_HOME=str(Path(tmp) / "home"))
        for size in sizes:
            text = line * (size // len(line))
            times = []
            for _ in range(repeat):
                started = time.perf_counter()
                parse_story(text)
                times.append(time.perf_counter() - started)
            parse[size] = round(statistics.median(times), 3)
            path = Path(tmp) / f"bad-{size}.txt"
            path.write_text(text + "x" * 201 + "\n", encoding="utf-8")
            corpus_dir = Path(tmp) / f"corpus-{size}"
            corpus_dir.mkdir()
            (corpus_dir / path.name).write_bytes(path.read_bytes())
            commands = {
                "section": ["section", str(path)],
                "generate": ["generate", str(path)],
                "answer": ["answer", str(path), "--question", "Why did the fox run?"],
                "batch": ["batch", str(corpus_dir), "--out", str(Path(tmp) / f"out-{size}")],
            }
            for name, argv in commands.items():
                times = []
                for n in range(repeat):
                    if name == "batch":
                        argv = [*argv[:3], f"{argv[3]}-{n}"]
                    times.append(run(argv, env)[0])
                out.setdefault(name, {})[size] = round(statistics.median(times), 2)
            print(size, f"parse {parse[size]}", {k: v[size] for k, v in out.items()}, flush=True)
    out = {"parse_story (in process)": parse, **out}
    ratios = {
        name: [round(b / a, 2) for a, b in zip(list(t.values()), list(t.values())[1:])]
        for name, t in out.items()
    }
    return {"median_seconds": out, "doubling_ratios": ratios}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-corpus", action="store_true")
    args = parser.parse_args()
    figures = {}
    if not args.skip_corpus:
        figures["corpus"] = corpus()
    figures["doubling"] = doubling(args.repeat)
    summary = {k: v for k, v in figures.get("corpus", {}).items() if k != "rows"}
    print(json.dumps({"corpus": summary, "doubling": figures["doubling"]}, indent=1))


if __name__ == "__main__":
    main()
