"""``qg-studio section`` and ``qg-studio eval sections``."""

from __future__ import annotations

import argparse
from pathlib import Path

from qg_studio.cli.common import UserError, emit_json


def register(commands) -> None:
    p = commands.top.add_parser("section", help="cut a story into graded sections")
    p.add_argument("file", help="a .txt (UTF-8, UTF-16 or cp1252) or .docx story; - for stdin")
    p.add_argument("--grade", default="K-8", help="target grade band within K-8, e.g. 3-5")
    p.add_argument("--json", action="store_true", help="one JSON object on the last line")
    p.set_defaults(func=run_section)

    e = commands.eval.add_parser("sections", help="agreement with expert sections")
    e.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    e.add_argument("--split", default="val")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=run_eval_sections)


def read_story_arg(path: str) -> tuple[str, str]:
    """(title, text) of a story named on the command line; UserError on bad input."""
    import sys

    from qg_studio.story import StoryInputError, decode_text, load_story_file, parse_story

    try:
        if path == "-":
            text = decode_text(sys.stdin.buffer.read(), "standard input")
        else:
            if not Path(path).is_file():
                raise UserError(f"no such file: {path}")
            text = load_story_file(path)
        title = parse_story(text).title or (Path(path).stem if path != "-" else "")
    except StoryInputError as exc:
        raise UserError(str(exc)) from None
    return title, text


def section_and_grade(text: str, grade: str):
    """Sections with figures and the story's report; UserError on bad input."""
    from qg_studio.story import StoryInputError, grade_sections, parse_story, section_story

    try:
        sections = section_story(text)
        report = grade_sections(sections, grade, story_text=parse_story(text).text)
    except StoryInputError as exc:
        raise UserError(str(exc)) from None
    return sections, report


def run_section(args: argparse.Namespace) -> int:
    _, text = read_story_arg(args.file)
    sections, report = section_and_grade(text, args.grade)
    if args.json:
        emit_json({"story": report.to_dict(),
                   "sections": [{"id": s.id, "text": s.text, "words": s.words,
                                 "grade": s.readability.grade, "verdict": s.verdict,
                                 "readability": s.readability.to_dict()} for s in sections]})
        return 0
    figures = report.story
    print(f"Story: {figures.words} words, {figures.sentences} sentences, grade {figures.grade:g} "
          f"(Flesch-Kincaid {figures.fk_grade:g}, Dale-Chall {figures.dale_chall:g}) — "
          f"{report.verdict} band {report.band}")
    for s in sections:
        r = s.readability
        print(f"  {s.id:>3}  {s.words:>4} words  grade {r.grade:>4g}  FK {r.fk_grade:>4g}  "
              f"DC {r.dale_chall:>5g}  {s.verdict:<5}  {s.text[:60]!r}")
    for warning in report.warnings:
        print(f"warning: {warning}")
    return 0


def run_eval_sections(args: argparse.Namespace) -> int:
    from qg_studio.sectioning_eval import evaluate_sections

    try:
        result = evaluate_sections(args.data, args.split)
    except FileNotFoundError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        emit_json(result)
    else:
        for key, value in result.items():
            print(f"{key:>20}: {value}")
    return 0
