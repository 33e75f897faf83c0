"""CPU seconds a command costs from a cold process (issue 30's start-up bars).

    .venv/bin/python benchmarks/bench_startup.py [--runs 5] [--story FILE]

Each command runs ``--runs`` times in a fresh process; the figure is the median of the
process's user + system CPU seconds (``os.wait4``), which a busy machine disturbs far less
than wall time. Bars: ``section`` on a 250-word story <= 3 s, ``--help`` <= 1 s,
``generate`` (default engine) <= 15 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STORY = ROOT / "benchmarks" / "data" / "fable_heron_and_the_tortoise.txt"


def cpu_seconds(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``argv`` in a new process."""
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {process.stderr.read().decode()[-500:]}")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--story", default=str(STORY))
    args = parser.parse_args()
    cli = [sys.executable, "-m", "qg_studio"]
    words = len(Path(args.story).read_text(encoding="utf-8").split())
    commands = {
        "--help": cli + ["--help"],
        f"section ({words} words)": cli + ["section", args.story],
        f"generate ({words} words, default engine)": cli + ["generate", args.story],
    }
    for name, argv in commands.items():
        runs = [cpu_seconds(argv) for _ in range(args.runs)]
        cpu = statistics.median(c for c, _ in runs)
        wall = statistics.median(w for _, w in runs)
        print(f"{name:<42} CPU {cpu:6.2f} s (median of {args.runs})   wall {wall:6.2f} s")


if __name__ == "__main__":
    main()
