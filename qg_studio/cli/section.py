"""``qg-studio section`` and ``qg-studio eval sections``."""

from __future__ import annotations

import argparse

from qg_studio.cli.common import dataset_options
from qg_studio.cli.common import emit_json
from qg_studio.cli.common import json_and_run


def register(commands) -> None:
    p = commands.top.add_parser("section", help="cut a story into graded sections")
    p.add_argument("file", help="a .txt (UTF-8, UTF-16 or cp1252) or .docx story; - for stdin")
    p.add_argument("--grade", default="K-8", help="target grade band within K-8, e.g. 3-5")
    json_and_run(p, run_section, "one JSON object on the last line")

    e = commands.eval.add_parser("sections", help="agreement with expert sections")
    dataset_options(e, split="val")
    json_and_run(e, run_eval_sections)


def run_section(args: argparse.Namespace) -> int:
    from qg_studio.services.stories import ingest_file

    story = ingest_file(args.file, args.grade)
    sections, report = story.sections, story.report
    if args.json:
        emit_json(
            {
                "story": report.to_dict(),
                "sections": [
                    {
                        "id": s.id,
                        "text": s.text,
                        "words": s.words,
                        "grade": s.readability.grade,
                        "verdict": s.verdict,
                        "readability": s.readability.to_dict(),
                    }
                    for s in sections
                ],
            }
        )
        return 0
    figures = report.story
    print(
        f"Story: {figures.words} words, {figures.sentences} sentences, grade {figures.grade:g} "
        f"(Flesch-Kincaid {figures.fk_grade:g}, Dale-Chall {figures.dale_chall:g}) — "
        f"{report.verdict} band {report.band}"
    )
    for s in sections:
        r = s.readability
        print(
            f"  {s.id:>3}  {s.words:>4} words  grade {r.grade:>4g}  FK {r.fk_grade:>4g}  "
            f"DC {r.dale_chall:>5g}  {s.verdict:<5}  {s.text[:60]!r}"
        )
    for warning in report.warnings:
        print(f"warning: {warning}")
    return 0


def run_eval_sections(args: argparse.Namespace) -> int:
    from qg_studio.services.evaluation import eval_sections

    result = eval_sections(args.data, args.split)
    if args.json:
        emit_json(result)
    else:
        for key, value in result.items():
            print(f"{key:>20}: {value}")
    return 0
