"""Median seconds to answer 40 questions about a 2,000-word story, after warm-up.

    .venv/bin/python benchmarks/bench_answer.py [--data ../shared/data/fairytaleqa]
        [--answerer extractive] [--model DIR] [--questions 40] [--repeat 5]

With the FairytaleQA folder present, the story is the val story closest to 2,000 words
(cut to 2,000) and the questions are its expert ones; otherwise the fixture story is
repeated to 2,000 words and asked generic questions. Sections are not given: each run
retrieves, then answers, as the app does for a teacher's question.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from qg_studio.answering import get_answerer
from qg_studio.schema import Section

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "miller_and_fox.txt"
SHARED = ROOT.parent / "shared" / "data" / "fairytaleqa"
GENERIC = [
    "Who is the main character?",
    "Where does this story take place?",
    "What did the miller do?",
    "Why did the fox come back?",
    "How did the miller feel?",
    "What happened at the end?",
    "Did the fox help the miller?",
    "What will the miller do next?",
]


def cut(sections: list[Section], words: int) -> list[Section]:
    out, total = [], 0
    for s in sections:
        if total >= words:
            break
        out.append(s)
        total += s.words
    return out


def workload(data: Path, words: int, n: int) -> tuple[list[Section], list[str], str]:
    if (data / "section-stories" / "val").is_dir():
        from qg_studio.data.fairytaleqa import read_split

        stories = read_split(data, "val")
        story = min(stories, key=lambda s: abs(sum(x.words for x in s.sections) - words))
        sections = cut(story.sections, words)
        kept = {s.id for s in sections}
        questions = [
            q.row["question"] for q in story.questions if set(q.sections) <= kept
        ] or GENERIC
        source = f"FairytaleQA val story {story.name!r}"
    else:
        from qg_studio.story import section_story

        text = FIXTURE.read_text(encoding="utf-8")
        sections = cut(section_story("\n\n".join([text] * (words // 700 + 1))), words)
        questions, source = GENERIC, f"fixture {FIXTURE.name} repeated"
    questions = (questions * (n // len(questions) + 1))[:n]
    return sections, questions, source


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=SHARED)
    parser.add_argument("--answerer", default="extractive")
    parser.add_argument("--model", default=None)
    parser.add_argument("--words", type=int, default=2000)
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    sections, questions, source = workload(args.data, args.words, args.questions)
    options = (
        {"model_dir": args.model}
        if args.model and args.answerer == "extractive"
        else ({"model": args.model} if args.model else {})
    )
    start = time.perf_counter()
    answerer = get_answerer(args.answerer, **options)
    load = time.perf_counter() - start
    start = time.perf_counter()
    answerer.answer(questions[:2], sections)  # warm-up: first batch, story index cached
    warm = time.perf_counter() - start
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        answerer.answer(questions, sections)
        times.append(time.perf_counter() - start)
    words = sum(s.words for s in sections)
    print(
        f"story: {source}, {words} words, {len(sections)} sections; "
        f"{len(questions)} questions; answerer {args.answerer}"
        + (" (FALLBACK: no model)" if getattr(answerer, "fallback", False) else "")
    )
    print(f"load {load:.2f}s, warm-up {warm:.2f}s, runs " + ", ".join(f"{t:.2f}" for t in times))
    print(f"median seconds for {len(questions)} questions: {statistics.median(times):.2f}")


if __name__ == "__main__":
    main()
