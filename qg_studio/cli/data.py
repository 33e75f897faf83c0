"""``qg-studio data import|export|stats``: FairytaleQA-layout data in and out of the store."""

from __future__ import annotations

import argparse
from pathlib import Path

from qg_studio.cli.common import UserError
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.cli.common import positive_int


def register(commands) -> None:
    data = commands.top.add_parser(
        "data", help="import, export and count FairytaleQA-layout training data"
    )
    sub = data.add_subparsers(dest="data_command", required=True, metavar="ACTION")

    imp = sub.add_parser("import", help="one project per story of a FairytaleQA split")
    imp.add_argument("dir", type=Path, help="a folder in the FairytaleQA layout")
    imp.add_argument("--split", required=True, help="train, val, test, …")
    json_and_run(imp, cmd_import, "end with a JSON summary line")

    exp = sub.add_parser("export", help="write projects as FairytaleQA, StoryQA or HF data")
    exp.add_argument(
        "projects",
        nargs="+",
        metavar="PROJECT",
        help="project name or id; 'all' for every project; 'imported:SPLIT' "
        "for every project imported from that split",
    )
    exp.add_argument("--format", required=True, choices=("fairytaleqa", "storyqa", "hf"))
    exp.add_argument("--out", required=True, type=Path, help="output folder")
    exp.add_argument(
        "--split",
        default=None,
        help="split to write under (default: the imported split, else train)",
    )
    exp.add_argument(
        "--include-dropped", action="store_true", help="also export items the teacher dropped"
    )
    json_and_run(exp, cmd_export, "end with a JSON summary line")

    check = sub.add_parser("validate", help="check every row's labels, sections and answers")
    check.add_argument("dir", type=Path, help="a folder in the FairytaleQA layout")
    check.add_argument("--split", required=True)
    check.add_argument("--show", type=positive_int, default=20, help="print at most N issues")
    json_and_run(check, cmd_validate, "end with a JSON summary line")

    stats = sub.add_parser("stats", help="stories, QA pairs, element and explicitness shares")
    stats.add_argument("dir", type=Path, help="a folder in the FairytaleQA layout")
    stats.add_argument("--split", required=True)
    stats.add_argument("--per-story", action="store_true", help="also print a line per story")
    json_and_run(stats, cmd_stats, "end with a JSON summary line")


def _read(directory: Path, split: str):
    from qg_studio.data.fairytaleqa import FtqaFormatError
    from qg_studio.data.fairytaleqa import read_split

    try:
        stories = read_split(directory, split)
    except FileNotFoundError as exc:
        raise UserError(f"{exc} (expected {directory}/section-stories/{split}/*-story.csv)")
    except FtqaFormatError as exc:
        raise UserError(str(exc))
    if not stories:
        raise UserError(f"no stories in {directory}/section-stories/{split}")
    return stories


def cmd_import(args: argparse.Namespace) -> int:
    from qg_studio.data.projects import StoryImportError
    from qg_studio.data.projects import import_stories
    from qg_studio.store import Store

    stories = _read(args.dir, args.split)
    store = Store()
    try:
        done = import_stories(store, stories)
    except StoryImportError as exc:
        raise UserError(f"{exc} (nothing imported)")
    for story, result in zip(stories, done):
        print(
            f"{result.name}: project {result.project_id}, {len(story.sections)} "
            f"sections, {result.items} QA pairs"
            + (" (imported before, left as it is)" if result.existing else "")
        )
    print(f"imported {len(done)} stories, {sum(r.items for r in done)} QA pairs into {store.path}")
    return exit_with(
        args,
        {
            "stories": len(done),
            "qa_pairs": sum(r.items for r in done),
            "projects": [r.project_id for r in done],
        },
    )


def _project_ids(store, names: list[str]) -> list[int]:
    from qg_studio.store import StoreError

    ids: list[int] = []
    for name in names:
        if name == "all":
            found = [p.id for p in store.list_projects()]
        elif name.startswith("imported:"):
            split = name.split(":", 1)[1]
            found = [
                p.id
                for p in store.list_projects()
                if p.settings.get("source") == "fairytaleqa" and p.settings.get("split") == split
            ]
        else:
            try:
                found = [store.find_project(name).id]
            except StoreError as exc:
                raise UserError(str(exc))
        if not found:
            raise UserError(f"no projects match {name!r}")
        ids += [i for i in sorted(found) if i not in ids]
    return ids


def cmd_export(args: argparse.Namespace) -> int:
    from qg_studio.services.exports import write_training_data
    from qg_studio.store import Store

    store = Store()
    result = write_training_data(
        store,
        _project_ids(store, args.projects),
        args.out,
        args.format,
        args.split,
        args.include_dropped,
    )
    print(
        f"wrote {result['stories']} stories, {result['qa_pairs']} QA pairs as {args.format} "
        f"({result['files']} files) to {args.out}"
    )
    return exit_with(args, result)


def cmd_stats(args: argparse.Namespace) -> int:
    from qg_studio.data.stats import ftqa_story_stats
    from qg_studio.data.stats import summarise

    stories = _read(args.dir, args.split)
    per_story = []
    for story in stories:
        try:
            per_story.append(ftqa_story_stats(story))
        except ValueError as exc:
            raise UserError(f"{story.name}: {exc} (qg-studio data validate lists every row)")
    if args.per_story:
        for s in per_story:
            agreement = f", agreement {s.to_dict()['agreement_rouge_l']:.3f}" if s.agreement else ""
            print(
                f"{s.name}: {s.sections} sections, {s.qa_pairs} QA, "
                f"{s.questions_per_section:.2f}/section{agreement}"
            )
    summary = summarise(per_story)
    print(
        f"{args.split}: {summary['stories']} stories, {summary['qa_pairs']} QA pairs, "
        f"{summary['sections_per_story']:.2f} sections per story, "
        f"{summary['questions_per_section']:.2f} questions per section "
        f"(guideline 2–3; {summary['stories_within_guideline']} stories within)"
    )
    print("elements: " + ", ".join(f"{k} {v:.1%}" for k, v in summary["elements"].items()))
    print(f"explicit {summary['explicit_share']:.1%}, summary {summary['summary_share']:.1%}")
    if summary["agreement_rouge_l"] is not None:
        print(
            f"annotator agreement (ROUGE-L F1, answer1 vs answer4): "
            f"{summary['agreement_rouge_l']:.3f} over {summary['two_annotator_pairs']} pairs"
        )
    return exit_with(args, summary)


def cmd_validate(args: argparse.Namespace) -> int:
    """Exit 1 when any row has an error; warnings (explicit answers that are not spans of
    the cited sections) are counted and shown but do not fail."""
    from collections import Counter

    from qg_studio.data.validation import ERROR
    from qg_studio.data.validation import validate_story

    stories = _read(args.dir, args.split)
    counts: Counter = Counter()
    shown = 0
    rows = 0
    for story in stories:
        rows += len(story.questions)
        for number, issue in validate_story(story):
            counts[(issue.level, issue.field)] += 1
            if shown < args.show:
                print(f"{story.name}-questions.csv row {number}: {issue.level}: {issue}")
                shown += 1
    errors = sum(n for (level, _), n in counts.items() if level == ERROR)
    warnings = sum(counts.values()) - errors
    print(
        f"{args.split}: {rows} rows in {len(stories)} stories, {errors} errors, {warnings} warnings"
    )
    for (level, field), n in sorted(counts.items()):
        print(f"  {level} {field}: {n}")
    return exit_with(
        args,
        {
            "stories": len(stories),
            "rows": rows,
            "errors": errors,
            "warnings": warnings,
            "by_field": {f"{level}:{field}": n for (level, field), n in sorted(counts.items())},
        },
        1 if errors else 0,
    )
