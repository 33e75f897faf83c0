"""``qg-studio eval sets``: whole question sets measured as a teacher judges them."""

from __future__ import annotations

import argparse
import json
import sys
from functools import partial

from qg_studio.cli.common import UserError
from qg_studio.cli.common import dataset_options
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.services.evaluation import load_split


def register(commands) -> None:
    sets = commands.eval.add_parser(
        "sets",
        help="the default set and a custom mix per story: count, mix, repeats, "
        "answers in the text, answerable, story-level questions",
    )
    dataset_options(sets, split="val", limit=True)
    sets.add_argument("--engine", default="embedded", help="question engine (default embedded)")
    sets.add_argument("--model", default=None, help="model folder for the engine")
    sets.add_argument(
        "--check",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="generate with the answer check, as Generate does by default (--no-check: without)",
    )
    sets.add_argument(
        "--shard",
        default=None,
        help="K/N: only every N-th story from the K-th (0-based), to spread a "
        "long run over processes; the raw counts print for merging",
    )
    sets.add_argument(
        "--show",
        action="store_true",
        help="print every set, marking with x each question the answerer could not answer",
    )
    json_and_run(sets, cmd_eval_sets, "print the figures as JSON last line")


def cmd_eval_sets(args) -> int:
    from qg_studio.answering import get_answerer
    from qg_studio.pipeline import generate_items
    from qg_studio.ranking.repeats import warm_encoder
    from qg_studio.services.generation import resolve_engine
    from qg_studio.set_eval import SetFigures
    from qg_studio.set_eval import measure_story

    stories = load_split(args.data, args.split, args.limit)
    if args.shard:
        try:
            k, n = (int(v) for v in args.shard.split("/"))
        except ValueError:
            raise UserError("--shard takes K/N, e.g. 0/3") from None
        stories = stories[k::n]
    warm_encoder()
    engine, options, notice = resolve_engine(
        args.engine, {"model": args.model} if args.model else {}
    )
    if notice:
        print(f"note: {notice}", file=sys.stderr)
    try:
        answerer = get_answerer("extractive")
    except (KeyError, ImportError, OSError) as exc:
        raise UserError(f"cannot load the answerer: {exc}") from None
    if getattr(answerer, "fallback", False):
        # Every figure that answers (the check, answerable) would read sentences instead.
        raise UserError(f"the answerer's model did not load: {answerer.load_error}")

    def generate(sections, request, existing, title=""):
        try:
            return generate_items(
                sections,
                request,
                engine,
                options,
                answerer if args.check else None,
                existing=existing,
                title=title,
            )
        except KeyError as exc:
            raise UserError(str(exc).strip("'\"")) from None
        except OSError as exc:
            raise UserError(f"cannot load the question model: {exc}") from None

    figures = SetFigures()
    for story in stories:
        made = measure_story(
            story.name,
            story.sections,
            partial(generate, title=story.title),
            answerer,
            figures,
            story.title,
        )
        done = figures.stories
        # A long run says how far it is, with the figures so far.
        print(
            f"story {done}/{len(stories)} {story.name}: {figures.result(done)}",
            file=sys.stderr,
            flush=True,
        )
        if args.show:
            for label, items in zip(("default set", "custom mix", "custom mix again"), made):
                print(f"== {story.name}, {label}: {len(items)} questions")
                missed = set(figures.unanswered)
                for item in items:
                    mark = "x" if f"{story.name}: {item.question}" in missed else " "
                    print(
                        f" {mark}({item.element.value}, {item.explicitness.value}) "
                        f"{item.question} -> {item.answer}"
                    )
    result = figures.result(len(stories))
    if args.shard:
        from dataclasses import asdict

        print(f"raw: {json.dumps(asdict(figures))}", file=sys.stderr)
    print(
        f"{result['stories']} stories: {result['given']} of {result['asked']} questions; "
        f"element KL {result['element_kl']:.4f}; implicit share error "
        f"{result['implicit_share_error']:.4f}; duplicates {result['duplicate_share']:.4f}; "
        f"answerable {result['answerable']:.4f}; story-level {result['story_level']:.4f}"
    )
    second = result["second_run"]
    print(
        f"custom mix asked again after the default set: {second['given']} of "
        f"{second['asked']} questions, {second['repeats']} repeating the default set"
    )
    if figures.short_stories:
        print("short of the count (150+ words): " + ", ".join(figures.short_stories))
    return exit_with(args, result)
