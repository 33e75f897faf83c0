"""The whole run on a ~2,000-word story: section, generate, answer (the round trip), rank.

Per engine, a fresh process runs the pipeline once cold (imports, model loads, first
parse) and then ``--repeat`` times warm; this script samples that process's memory with
psutil and prints medians. Run it on a quiet machine:

    .venv/bin/python benchmarks/bench_pipeline.py [--story FILE] [--engines smollm,embedded]
    .venv/bin/python benchmarks/bench_pipeline.py --engines proposer --adapter models/smollm-qag

The story: ``--story FILE``, else the FairytaleQA val story nearest 2,000 words when
``../shared/data/fairytaleqa`` is there (read at run time, never copied), else the
project's own 2,000-word bench story. Bars (issue 17): warm <= 20 s, cold <= 60 s,
peak <= 2 GB on the 2-core CPU.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "fairytaleqa"
# The answerer each engine's sets are checked with: the span model but for smollm's own.
ANSWERERS = {"smollm": "smollm", "embedded": "extractive", "proposer": "extractive"}
STAGES = ("section", "generate", "answer", "rank")


def pick_story(path: str | None) -> tuple[str, str]:
    """(text, where it came from)."""
    if path:
        return Path(path).read_text(encoding="utf-8"), path
    if SHARED.is_dir():
        from qg_studio.data.fairytaleqa import read_split

        stories = read_split(SHARED, "val")
        best = min(stories, key=lambda s: abs(sum(len(x.text.split()) for x in s.sections) - 2000))
        return "\n\n".join(s.text for s in best.sections), f"FairytaleQA val: {best.name}"
    from qg_studio.cli.generate import default_bench_story

    return default_bench_story(), "the project's bench story"


def cpu_s() -> float:
    """This process's CPU seconds so far: on a busy machine, the figure that wall time hides."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(
    engine: str, answerer: str, story_file: str, repeat: int, adapter: str | None = None
) -> None:
    """One process: a cold run, then warm ones; one JSON line per run on stdout."""
    started = time.perf_counter()
    from qg_studio.answering import get_answerer
    from qg_studio.pipeline import generate_items
    from qg_studio.ranking.repeats import warm_encoder
    from qg_studio.schema import GenerationRequest
    from qg_studio.story import section_story

    text = Path(story_file).read_text(encoding="utf-8")
    loaded_answerer = None
    for run in range(repeat + 1):
        stamps: dict[str, float] = {}
        t0 = time.perf_counter() if run else started
        warm_encoder()
        sections = section_story(text + ("" if not run else f"\n\nThe end ({run})."))
        t1 = time.perf_counter()
        options = {"model": adapter} if adapter and engine in ("smollm", "proposer") else {}
        if loaded_answerer is None:
            # The adapter is the answerer's too only where the engine answers its own.
            loaded_answerer = get_answerer(answerer, **(options if answerer == engine else {}))

        def progress(fraction: float, message: str) -> None:
            stamps.setdefault(f"{fraction:.2f}", time.perf_counter())

        items = generate_items(
            sections,
            GenerationRequest(count=10),
            engine,
            options,
            answerer=loaded_answerer,
            progress=progress,
        )
        t2 = time.perf_counter()
        at = lambda key, default: stamps.get(key, default)  # noqa: E731
        answer_start, rank_start = at("0.65", at("0.85", t2)), at("0.85", t2)
        print(
            json.dumps(
                {
                    "run": run,
                    "total": t2 - t0,
                    "section": t1 - t0,
                    "cpu": cpu_s(),
                    "generate": answer_start - t1,
                    "answer": rank_start - answer_start,
                    "rank": t2 - rank_start,
                    "items": len(items),
                    "sections": len(sections),
                    "engine": items[0].engine if items else engine,
                }
            ),
            flush=True,
        )


def measure(engine: str, story_file: str, repeat: int, adapter: str | None = None) -> dict:
    import psutil

    proc = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--child",
            engine,
            "--story",
            story_file,
            "--repeat",
            str(repeat),
        ]
        + (["--adapter", adapter] if adapter else []),
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    watched = psutil.Process(proc.pid)
    peak = 0
    while proc.poll() is None:
        try:
            rss = watched.memory_info().rss + sum(
                c.memory_info().rss for c in watched.children(recursive=True)
            )
            peak = max(peak, rss)
        except psutil.Error:
            pass
        time.sleep(0.05)
    runs = [json.loads(line) for line in proc.stdout.read().splitlines() if line.startswith("{")]
    if proc.returncode or not runs:
        raise SystemExit(f"{engine}: the benchmark process failed (exit {proc.returncode})")
    warm = [r for r in runs if r["run"]]
    cpu = [b["cpu"] - a["cpu"] for a, b in zip(runs, runs[1:])]
    result = {
        "engine": engine,
        "answerer": ANSWERERS[engine],
        "cold_s": round(runs[0]["total"], 2),
        "warm_s": round(statistics.median(r["total"] for r in warm), 2),
        "peak_mb": round(peak / 2**20),
        "items": runs[-1]["items"],
        "sections": runs[-1]["sections"],
        "written_by": runs[-1]["engine"],
        "cold_cpu_s": round(runs[0]["cpu"], 1),
        "warm_cpu_s": round(statistics.median(cpu), 1),
    }
    for stage in STAGES:
        result[f"warm_{stage}_s"] = round(statistics.median(r[stage] for r in warm), 2)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--story", default=None)
    parser.add_argument("--engines", default="smollm,embedded")
    parser.add_argument("--repeat", type=int, default=3, help="warm runs after the cold one")
    parser.add_argument(
        "--adapter",
        default=None,
        help="the smollm or proposer adapter folder (default: the shipped one)",
    )
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, ANSWERERS[args.child], args.story, args.repeat, args.adapter)
        return
    import tempfile

    text, source = pick_story(args.story)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as fh:
        fh.write(text)
    print(f"story: {source}, {len(text.split())} words")
    results = []
    for engine in args.engines.split(","):
        result = measure(engine, fh.name, max(1, args.repeat), args.adapter)
        results.append(result)
        print(
            f"{engine:<9} (answerer {result['answerer']}, written by {result['written_by']}):"
            f" warm {result['warm_s']:.1f} s median of {args.repeat} (section "
            f"{result['warm_section_s']:.1f}, generate {result['warm_generate_s']:.1f}, "
            f"answer {result['warm_answer_s']:.1f}, rank {result['warm_rank_s']:.1f}); "
            f"cold {result['cold_s']:.1f} s; CPU time warm {result['warm_cpu_s']:.1f} s, "
            f"cold {result['cold_cpu_s']:.1f} s; peak {result['peak_mb']} MB; "
            f"{result['items']} questions from {result['sections']} sections",
            flush=True,
        )
    Path(fh.name).unlink()
    print(json.dumps({"story": source, "words": len(text.split()), "results": results}))


if __name__ == "__main__":
    main()
