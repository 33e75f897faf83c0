"""``qg-studio generate``, ``eval qg``, ``eval qag`` and ``bench``."""

from __future__ import annotations

import argparse
import sys
import time

from qg_studio.cli.common import UserError
from qg_studio.cli.common import dataset_options
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.cli.common import positive_int
from qg_studio.schema import GenerationRequest
from qg_studio.schema import parse_element_mix


def register(commands) -> None:
    gen = commands.top.add_parser("generate", help="write questions for a story file")
    gen.add_argument("file", help="a .txt or .docx story ('-' reads stdin)")
    _engine_args(gen)
    how_many = gen.add_mutually_exclusive_group()
    how_many.add_argument(
        "--count", type=positive_int, default=None, help="total questions (default 10)"
    )
    how_many.add_argument(
        "--per-section", type=positive_int, default=None, help="questions per section"
    )
    gen.add_argument(
        "--elements", default="balanced", help="'balanced' or a mix such as character=2,feeling=1"
    )
    gen.add_argument(
        "--implicit-share",
        type=float,
        default=0.3,
        help="share of implicit questions, 0 to 1 (default 0.3)",
    )
    gen.add_argument("--grade", default=None, help="the class's grade band, e.g. 3-5")
    _answerer_arg(gen)
    json_and_run(gen, cmd_generate, "print the result as JSON last line")

    qg = commands.eval.add_parser("qg", help="answer-aware question generation vs expert questions")
    _data_args(qg)
    _engine_args(qg)
    _answerer_arg(qg)
    json_and_run(qg, cmd_eval_qg)

    qag = commands.eval.add_parser("qag", help="question generation without gold answers")
    _data_args(qag)
    _engine_args(qag)
    qag.add_argument("--k", type=positive_int, default=2, help="questions proposed per section")
    json_and_run(qag, cmd_eval_qag)

    mine = commands.train.add_parser(
        "wordings", help="order the embedded engine's wordings by expert questions"
    )
    _data_args(mine)
    mine.set_defaults(split="train")
    mine.add_argument(
        "--out", default=None, help="output file (default: the shipped models/embedded-qg choices)"
    )
    mine.set_defaults(func=cmd_mine)

    bench = commands.top.add_parser("bench", help="time sectioning and generation on one story")
    bench.add_argument("--story", default=None, help="a story file (default: a 2,000-word one)")
    _engine_args(bench)
    bench.add_argument("--repeat", type=positive_int, default=5, help="timed runs after warm-up")
    json_and_run(bench, cmd_bench)


def _engine_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--engine",
        default="embedded",
        help="question engine: embedded (default), smollm, seq2seq, or auto (the best "
        "model available here, else embedded)",
    )
    parser.add_argument("--model", default=None, help="model folder or hub id for the engine")


def _answerer_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--answerer",
        default="auto",
        help="check each question by answering it with this answerer (default auto: the "
        "best one here, as Generate does; 'none' writes without the check)",
    )


def _data_args(parser: argparse.ArgumentParser) -> None:
    dataset_options(parser, split="val")
    parser.add_argument(
        "--limit", type=positive_int, default=None, help="only the first N stories (quick checks)"
    )


def _options(args) -> dict:
    return {"model": args.model} if args.model else {}


def _note(line: str) -> None:
    print(f"note: {line}", file=sys.stderr)


# --------------------------------------------------------------------------- eval qg


def cmd_eval_qg(args) -> int:
    from qg_studio.services.evaluation import eval_qg
    from qg_studio.services.evaluation import load_split

    show = print if getattr(args, "show", False) else None
    result = eval_qg(
        load_split(args.data, args.split, args.limit),
        args.engine,
        _options(args),
        show=show,
        notice=_note,
        answerer=args.answerer,
    )
    counts = result.pop("counts")
    print(
        f"ROUGE-L F1 {result['rougeL_f']:.4f} over {result['n']} expert questions "
        f"({args.split}, engine {args.engine})"
    )
    for name, value in {**result["per_element"], **result["per_explicitness"]}.items():
        print(f"  {name:<22} {value:.4f}  (n={counts[name]})")
    return exit_with(args, result)


def cmd_eval_qag(args) -> int:
    from qg_studio.services.evaluation import eval_qag
    from qg_studio.services.evaluation import load_split

    result = eval_qag(
        load_split(args.data, args.split, args.limit),
        args.k,
        args.engine,
        _options(args),
        notice=_note,
    )
    print(
        f"QAG ROUGE-L F1 {result['rougeL_f']:.4f} (best of top {args.k} per section) over "
        f"{result['n']} expert questions; element KL {result['element_kl']:.4f}"
    )
    return exit_with(args, result)


# --------------------------------------------------------------------------- generate


def _request(args) -> GenerationRequest:
    try:
        elements = parse_element_mix(args.elements)
        count = args.count
        if count is None and args.per_section is None and not isinstance(elements, dict):
            count = 10
        if count is not None and count < 1 or args.per_section is not None and args.per_section < 1:
            raise ValueError("ask for at least one question")
        return GenerationRequest(
            count=count,
            per_section=args.per_section,
            elements=elements,
            implicit_share=args.implicit_share,
        )
    except ValueError as exc:
        raise UserError(str(exc)) from None


def cmd_generate(args) -> int:
    from qg_studio.ranking.repeats import warm_encoder
    from qg_studio.services.answers import answerer_named
    from qg_studio.services.generation import generate
    from qg_studio.services.stories import ingest
    from qg_studio.services.stories import read_story

    request = _request(args)
    title, text = read_story(args.file)
    warm_encoder()  # loads while the story is sectioned and parsed
    story = ingest(text, args.grade, title)
    answerer = answerer_named(args.answerer)
    # A named engine that fails is an error here (the user asked for it); "auto" still
    # falls back, as it does in the app.
    run = generate(
        story.sections,
        request,
        args.engine,
        _options(args),
        answerer=answerer,
        fallback=args.engine == "auto",
        title=title or "",
    )
    for notice in run.notices:
        _note(notice)
    if not args.json:
        for item in run.items:
            where = ",".join(str(s) for s in item.sections)
            print(f"[{where}] ({item.element.value}, {item.explicitness.value}) {item.question}")
            print(f"        answer: {item.answer}")
    for warning in story.report.warnings:
        _note(warning)
    return exit_with(
        args,
        {
            "story": story.report.to_dict(),
            "sections": [s.to_dict() for s in story.sections],
            "items": [i.to_dict() for i in run.items],
        },
    )


def cmd_mine(args) -> int:
    import json
    from pathlib import Path

    from qg_studio.generation.mine import mine
    from qg_studio.generation.variants import CHOICES_FILE
    from qg_studio.services.evaluation import load_split

    if args.split != "train":
        _note("mining from a split other than train; keep val for measuring")
    result = mine(load_split(args.data, args.split, args.limit), args.split)
    out = Path(args.out or CHOICES_FILE)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1, sort_keys=True), encoding="utf-8")
    print(f"wrote {out} ({len(result['by_signature'])} situations)")
    return 0


# --------------------------------------------------------------------------- bench


def cmd_bench(args) -> int:
    import statistics

    from qg_studio.services.generation import generate
    from qg_studio.services.stories import read_story
    from qg_studio.story import section_story

    text = read_story(args.story)[1] if args.story else default_bench_story()
    options = _options(args)
    request = GenerationRequest(count=10)
    start = time.perf_counter()
    from qg_studio.ranking.repeats import warm_encoder

    warm_encoder()  # as `generate` does: the encoder loads while the story is sectioned
    sections = section_story(text)
    generate(sections, request, args.engine, options, fallback=False)
    cold = time.perf_counter() - start
    section_times, generate_times, totals = [], [], []
    items = []
    for run in range(max(1, args.repeat)):
        # Every run parses afresh: the engine's per-section parse cache is emptied.
        variant = text + "\n\n" + f"The end ({run})."
        _clear_parse_cache()
        t0 = time.perf_counter()
        sections = section_story(variant)
        t1 = time.perf_counter()
        items = generate(sections, request, args.engine, options, fallback=False).items
        t2 = time.perf_counter()
        section_times.append(t1 - t0)
        generate_times.append(t2 - t1)
        totals.append(t2 - t0)
    result = {
        "section_s": round(statistics.median(section_times), 3),
        "generate_s": round(statistics.median(generate_times), 3),
        "total_s": round(statistics.median(totals), 3),
        "cold_s": round(cold, 3),
        "peak_rss_mb": round(_peak_rss_mb(), 1),
        "words": len(text.split()),
        "items": len(items),
        "engine": args.engine,
    }
    print(f"{result['words']} words, {len(sections)} sections, {result['items']} items")
    print(
        f"sectioning {result['section_s']:.3f} s, generation {result['generate_s']:.3f} s, "
        f"whole run {result['total_s']:.3f} s (median of {len(totals)} after warm-up); "
        f"cold {result['cold_s']:.3f} s; peak memory {result['peak_rss_mb']:.0f} MB"
    )
    return exit_with(args, result)


def _clear_parse_cache() -> None:
    from qg_studio.reading import analysis

    analysis.clear_cache()


def _peak_rss_mb() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / (1024 * 1024)


def default_bench_story() -> str:
    """A 2,000-word story: the project's own short story, retold four times with new names."""
    from qg_studio import lang

    base = lang.text("bench_story.txt")
    body = base.split("\n", 1)[1] if base.startswith("The Lantern") else base
    parts = [
        body.replace("Mira", name).replace("fox", friend)
        for name, friend in (
            ("Mira", "fox"),
            ("Tomas", "badger"),
            ("Lena", "hare"),
            ("Oskar", "crow"),
        )
    ]
    paragraphs, words = [], 0
    for paragraph in "\n\n".join(parts).split("\n\n"):
        if words + len(paragraph.split()) > 2000:
            break
        paragraphs.append(paragraph)
        words += len(paragraph.split())
    return "\n\n".join(paragraphs)
