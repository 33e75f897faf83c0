"""``qg-studio generate``, ``eval qg``, ``eval qag`` and ``bench``."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from qg_studio.cli.common import UserError, emit_json, load_split
from qg_studio.schema import Element, GenerationRequest, parse_element_mix


def register(commands) -> None:
    gen = commands.top.add_parser("generate", help="write questions for a story file")
    gen.add_argument("file", help="a .txt or .docx story ('-' reads stdin)")
    _engine_args(gen)
    how_many = gen.add_mutually_exclusive_group()
    how_many.add_argument("--count", type=int, default=None, help="total questions (default 10)")
    how_many.add_argument("--per-section", type=int, default=None, help="questions per section")
    gen.add_argument("--elements", default="balanced",
                     help="'balanced' or a mix such as character=2,feeling=1")
    gen.add_argument("--implicit-share", type=float, default=0.3,
                     help="share of implicit questions, 0 to 1 (default 0.3)")
    gen.add_argument("--grade", default=None, help="the class's grade band, e.g. 3-5")
    gen.add_argument("--answerer", default=None,
                     help="check each question by answering it with this answerer")
    gen.add_argument("--json", action="store_true", help="print the result as JSON last line")
    gen.set_defaults(func=cmd_generate)

    qg = commands.eval.add_parser("qg", help="answer-aware question generation vs expert questions")
    _data_args(qg)
    _engine_args(qg)
    qg.add_argument("--json", action="store_true")
    qg.set_defaults(func=cmd_eval_qg)

    qag = commands.eval.add_parser("qag", help="question generation without gold answers")
    _data_args(qag)
    _engine_args(qag)
    qag.add_argument("--k", type=int, default=2, help="questions proposed per section")
    qag.add_argument("--json", action="store_true")
    qag.set_defaults(func=cmd_eval_qag)

    bench = commands.top.add_parser("bench", help="time sectioning and generation on one story")
    bench.add_argument("--story", default=None, help="a story file (default: a 2,000-word one)")
    _engine_args(bench)
    bench.add_argument("--repeat", type=int, default=5, help="timed runs after warm-up")
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(func=cmd_bench)


def _engine_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default="embedded",
                        help="question engine: embedded (default), seq2seq, or auto (the best "
                             "model available here, else embedded)")
    parser.add_argument("--model", default=None, help="model folder or hub id for the engine")


def _data_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    parser.add_argument("--split", default="val")
    parser.add_argument("--limit", type=int, default=None,
                        help="only the first N stories (quick checks)")


def _generator(args):
    from qg_studio.generation import get_generator
    from qg_studio.pipeline import resolve_engine

    engine, options, notice = resolve_engine(args.engine,
                                             {"model": args.model} if args.model else {})
    if notice:
        print(f"note: {notice}", file=sys.stderr)
    try:
        return get_generator(engine, **options)
    except KeyError as exc:
        raise UserError(str(exc).strip("'\"")) from None
    except (OSError, ValueError) as exc:
        raise UserError(f"cannot load engine {args.engine!r}: {exc}") from None


def _stories(args):
    return load_split(args.data, args.split, args.limit)


# --------------------------------------------------------------------------- eval qg

def cmd_eval_qg(args) -> int:
    from qg_studio.evaluate import mean, rouge_l

    generator = _generator(args)
    scores: list[float] = []
    per_element: dict[str, list[float]] = defaultdict(list)
    per_explicitness: dict[str, list[float]] = defaultdict(list)
    for story in _stories(args):
        by_id = {s.id: s for s in story.sections}
        for question in story.questions:
            sections = [by_id[i] for i in question.sections if i in by_id]
            answer = question.row.get("answer1", "")
            if not sections or not answer:
                continue
            element = Element.parse(question.row["attribute1"])
            explicitness = question.row["ex-or-im1"] or "explicit"
            item = generator.write_question(sections, answer, element, explicitness)
            score = rouge_l(item.question, question.row["question"])
            scores.append(score)
            per_element[element.value].append(score)
            per_explicitness[explicitness].append(score)
            if getattr(args, "show", False):
                print(f"{score:.2f}\t{element.value}\t{item.question}\t|| {question.row['question']}")
    result = {
        "rougeL_f": round(mean(scores), 4), "n": len(scores),
        "per_element": {k: round(mean(v), 4) for k, v in sorted(per_element.items())},
        "per_explicitness": {k: round(mean(v), 4) for k, v in sorted(per_explicitness.items())},
        "engine": args.engine,
    }
    print(f"ROUGE-L F1 {result['rougeL_f']:.4f} over {result['n']} expert questions "
          f"({args.split}, engine {args.engine})")
    for name, value in result["per_element"].items():
        print(f"  {name:<22} {value:.4f}  (n={len(per_element[name])})")
    for name, value in result["per_explicitness"].items():
        print(f"  {name:<22} {value:.4f}  (n={len(per_explicitness[name])})")
    if args.json:
        emit_json(result)
    return 0


def cmd_eval_qag(args) -> int:
    """Each expert question scores its best ROUGE-L against the engine's top k for its
    section; the element mix is compared with the experts' by KL divergence."""
    from qg_studio.evaluate import best_rouge_l, kl_divergence, mean

    if args.k < 1:
        raise UserError("--k must be at least 1")
    options = {"model": args.model} if args.model else {}
    scores: list[float] = []
    engine_mix: Counter = Counter()
    expert_mix: Counter = Counter()
    request = GenerationRequest(count=None, per_section=args.k, implicit_share=0.3)
    for story in _stories(args):
        # Sections are generated one at a time, as the experts wrote per section.
        proposed: dict[int, list[str]] = {}
        items = _run_pipeline(story.sections, request, args.engine, options)
        for item in items:
            engine_mix[item.element.value] += 1
            for section_id in item.sections[:1]:
                proposed.setdefault(section_id, []).append(item.question)
        for question in story.questions:
            expert_mix[question.row["attribute1"]] += 1
            candidates = [q for sid in question.sections for q in proposed.get(sid, [])]
            scores.append(best_rouge_l(question.row["question"], candidates)
                          if candidates else 0.0)
    result = {"rougeL_f": round(mean(scores), 4), "k": args.k,
              "element_kl": round(kl_divergence(expert_mix, engine_mix), 4), "n": len(scores),
              "engine_mix": dict(engine_mix), "expert_mix": dict(expert_mix)}
    print(f"QAG ROUGE-L F1 {result['rougeL_f']:.4f} (best of top {args.k} per section) over "
          f"{result['n']} expert questions; element KL {result['element_kl']:.4f}")
    if args.json:
        emit_json(result)
    return 0


def _run_pipeline(sections, request, engine, options, answerer=None, progress=None):
    from qg_studio.pipeline import generate_items, resolve_engine

    engine, options, notice = resolve_engine(engine, options)
    if notice:
        print(f"note: {notice}", file=sys.stderr)
    try:
        return generate_items(sections, request, engine=engine, engine_options=options,
                              answerer=answerer, progress=progress)
    except KeyError as exc:
        raise UserError(str(exc).strip("'\"")) from None
    except OSError as exc:  # a missing or broken checkpoint (models.ModelError)
        raise UserError(f"cannot load the question model: {exc}") from None


# --------------------------------------------------------------------------- generate

def _read_story(path: str) -> str:
    from qg_studio.story import StoryInputError, load_story_file

    if path == "-":
        return sys.stdin.read()
    if not Path(path).exists():
        raise UserError(f"no such file: {path}")
    try:
        return load_story_file(path)
    except StoryInputError as exc:
        raise UserError(str(exc)) from None


def _request(args) -> GenerationRequest:
    try:
        elements = parse_element_mix(args.elements)
        count = args.count
        if count is None and args.per_section is None and not isinstance(elements, dict):
            count = 10
        if count is not None and count < 1 or args.per_section is not None and args.per_section < 1:
            raise ValueError("ask for at least one question")
        return GenerationRequest(count=count, per_section=args.per_section, elements=elements,
                                 implicit_share=args.implicit_share)
    except ValueError as exc:
        raise UserError(str(exc)) from None


def cmd_generate(args) -> int:
    from qg_studio.pipeline import shortfall
    from qg_studio.ranking import warm_encoder
    from qg_studio.story import StoryInputError, grade_sections, section_story

    request = _request(args)
    text = _read_story(args.file)
    warm_encoder()  # loads while the story is sectioned and parsed
    try:
        sections = section_story(text)
        report = grade_sections(sections, args.grade, story_text=text)
    except StoryInputError as exc:
        raise UserError(str(exc)) from None
    options = {"model": args.model} if args.model else {}
    answerer = None
    if args.answerer:
        from qg_studio.answering import get_answerer

        try:
            answerer = get_answerer(args.answerer)
        except (KeyError, ImportError, OSError) as exc:
            raise UserError(f"cannot load answerer {args.answerer!r}: {exc}") from None
    items = _run_pipeline(sections, request, args.engine, options, answerer=answerer)
    short = shortfall(items, request, sections, args.engine)
    if short:
        print(f"note: {short}", file=sys.stderr)
    if not args.json:
        for item in items:
            where = ",".join(str(s) for s in item.sections)
            print(f"[{where}] ({item.element.value}, {item.explicitness.value}) {item.question}")
            print(f"        answer: {item.answer}")
    for warning in getattr(report, "warnings", []):
        print(f"note: {warning}", file=sys.stderr)
    if args.json:
        emit_json({"story": report.to_dict(), "sections": [s.to_dict() for s in sections],
                   "items": [i.to_dict() for i in items]})
    return 0


# --------------------------------------------------------------------------- bench

def cmd_bench(args) -> int:
    import statistics

    from qg_studio.story import section_story

    text = _read_story(args.story) if args.story else default_bench_story()
    options = {"model": args.model} if args.model else {}
    request = GenerationRequest(count=10)
    start = time.perf_counter()
    from qg_studio.ranking import warm_encoder

    warm_encoder()  # as `generate` does: the encoder loads while the story is sectioned
    sections = section_story(text)
    _run_pipeline(sections, request, args.engine, options)
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
        items = _run_pipeline(sections, request, args.engine, options)
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
    print(f"sectioning {result['section_s']:.3f} s, generation {result['generate_s']:.3f} s, "
          f"whole run {result['total_s']:.3f} s (median of {len(totals)} after warm-up); "
          f"cold {result['cold_s']:.3f} s; peak memory {result['peak_rss_mb']:.0f} MB")
    if args.json:
        emit_json(result)
    return 0


def _clear_parse_cache() -> None:
    from qg_studio.generation import analysis

    analysis.clear_cache()


def _peak_rss_mb() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / (1024 * 1024)


def default_bench_story() -> str:
    """A 2,000-word story: the project's own test story, retold four times with new names."""
    here = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "lantern_keeper.txt"
    base = here.read_text(encoding="utf-8") if here.exists() else _FALLBACK_STORY
    parts = []
    for name, friend in (("Mira", "fox"), ("Tomas", "badger"), ("Lena", "hare"),
                         ("Oskar", "crow")):
        body = base.split("\n", 1)[1] if base.startswith("The Lantern") else base
        parts.append(body.replace("Mira", name).replace("fox", friend))
    paragraphs, words = [], 0
    for paragraph in "\n\n".join(parts).split("\n\n"):
        if words + len(paragraph.split()) > 2000:
            break
        paragraphs.append(paragraph)
        words += len(paragraph.split())
    return "\n\n".join(paragraphs)


_FALLBACK_STORY = (
    "Once upon a time a girl named Mira lived near a dark forest. Every evening her "
    "grandfather lit the lantern on the bridge, so that travellers could find their way. "
) * 20
