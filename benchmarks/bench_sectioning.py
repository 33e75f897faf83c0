"""Median time to section a 2,000-word story, and the process's peak memory.

.venv/bin/python benchmarks/bench_sectioning.py [--story FILE] [--repeat 7]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
from pathlib import Path

from qg_studio.story import grade_sections
from qg_studio.story import parse_story
from qg_studio.story import section_story

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "miller_and_fox.txt"


def story_of(words: int, source: Path) -> str:
    body = parse_story(source.read_text(encoding="utf-8")).text
    copies = words // len(body.split()) + 1
    text = "\n\n".join([body] * copies)
    paragraphs, total = [], 0
    for paragraph in text.split("\n\n"):
        if total >= words:
            break
        paragraphs.append(paragraph)
        total += len(paragraph.split())
    return "\n\n".join(paragraphs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--story", type=Path, default=FIXTURE)
    parser.add_argument("--words", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    text = story_of(args.words, args.story)
    start = time.perf_counter()
    section_story(text)
    cold = time.perf_counter() - start
    times, grade_times = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        sections = section_story(text)
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        grade_sections(sections, "3-5")
        grade_times.append(time.perf_counter() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"story: {len(text.split())} words, {len(sections)} sections")
    print(f"first call (loads spaCy): {cold:.2f} s")
    print(
        f"sectioning median: {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}, n={len(times)})"
    )
    print(f"grading median: {statistics.median(grade_times):.3f} s")
    print(f"peak RSS: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
