"""Median time to tag a batch of questions, cold model load, and peak memory.

    .venv/bin/python benchmarks/bench_tagger.py [--story FILE] [--questions 300] [--repeat 5]

The questions are built from the story's sentences (every element's form, half with an
answer taken from the sentence), as a generator's candidates would be.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import time
from pathlib import Path

from qg_studio.schema import Section

FIXTURE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "miller_and_fox.txt"
FORMS = [
    "Who {}?",
    "Where {}?",
    "What did they do after {}?",
    "How did they feel when {}?",
    "Why {}?",
    "What happened after {}?",
    "What will happen after {}?",
]


def workload(text: str, n: int) -> tuple[list[str], list[str | None], list[Section]]:
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    sections = [Section(i + 1, p) for i, p in enumerate(paragraphs)]
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 4]
    questions, answers = [], []
    for i in range(n):
        words = sentences[i % len(sentences)].split()
        questions.append(FORMS[i % len(FORMS)].format(" ".join(words[:6]).rstrip(".,;!?")))
        answers.append(" ".join(words[-5:]) if i % 2 else None)
    return questions, answers, sections


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--story", type=Path, default=FIXTURE)
    parser.add_argument("--questions", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    questions, answers, sections = workload(args.story.read_text(encoding="utf-8"), args.questions)

    start = time.perf_counter()
    from qg_studio.tagging import tag_many
    from qg_studio.tagging.model import load_model

    if load_model() is None:
        print("model file missing: timing the rules fallback")
    tag_many(questions[:1])
    cold = time.perf_counter() - start
    bare, full = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        tag_many(questions)
        bare.append(time.perf_counter() - start)
        start = time.perf_counter()
        tag_many(questions, answers, sections)
        full.append(time.perf_counter() - start)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"cold import + load + first tag: {cold:.3f} s")
    print(
        f"{len(questions)} questions, question only:        median {statistics.median(bare):.3f} s"
    )
    print(
        f"{len(questions)} questions, answers + {len(sections)} sections: median "
        f"{statistics.median(full):.3f} s"
    )
    print(f"peak RSS: {peak_mb:.0f} MB")


if __name__ == "__main__":
    main()
