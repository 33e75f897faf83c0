"""``qg-studio answer``, ``eval qa`` and ``train qa-extractive``."""

from __future__ import annotations

from pathlib import Path

from qg_studio.cli.common import UserError
from qg_studio.cli.common import add_options
from qg_studio.cli.common import dataset_options
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.cli.common import positive_int

# What `train qa-extractive` passes to the recipe: (train() keyword, type, default, help).
QA_TRAIN_OPTIONS = (
    ("epochs", float, 1.0, None),
    ("max_steps", int, None, None),
    ("max_minutes", float, None, "stop (and save) after this long; the rate decays to fit"),
    ("batch_size", int, 16, None),
    ("lr", float, 1e-4, None),
    ("max_length", int, 192, "tokens per training window (question + context)"),
    ("stride", int, 64, "window overlap with --windows"),
    ("freeze_layers", int, 1, "bottom encoder layers kept frozen (cheaper CPU steps)"),
    ("base", str, None, "encoder folder (default: the MiniLM package)"),
    ("seed", int, 0, None),
)


def register(commands) -> None:
    ans = commands.top.add_parser("answer", help="answer a question about a story file")
    ans.add_argument("file", help="a .txt or .docx story ('-' reads stdin)")
    ans.add_argument("--question", "-q", required=True, help="the question to answer")
    _answerer_args(ans)
    json_and_run(ans, cmd_answer, "print the result as JSON last line")

    qa = commands.eval.add_parser(
        "qa", help="answer expert questions; ROUGE-L F1 as the FairytaleQA paper scores it"
    )
    dataset_options(qa, split="val")
    _answerer_args(qa)
    qa.add_argument(
        "--given-sections",
        action="store_true",
        help="answer from each question's cor_section (else retrieve first)",
    )
    qa.add_argument("--limit", type=positive_int, default=None, help="only the first N stories")
    json_and_run(qa, cmd_eval_qa)

    tr = commands.train.add_parser("qa-extractive", help="train the CPU span answerer")
    dataset_options(tr)
    tr.add_argument("--out", default="models/qa-extractive")
    add_options(tr, QA_TRAIN_OPTIONS)
    tr.add_argument(
        "--windows",
        action="store_true",
        help="train on the stride windows of whole sections, as the answerer "
        "reads them (a share of answer-free windows teaches 'not here'), "
        "not one crop around each answer: about 3x slower",
    )
    json_and_run(tr, cmd_train)


def _answerer_args(parser) -> None:
    # --engine is the name the question commands use for the same choice.
    parser.add_argument(
        "--answerer",
        "--engine",
        dest="answerer",
        default="extractive",
        help="answerer name (extractive, smollm, seq2seq)",
    )
    parser.add_argument("--model", default=None, help="model folder (or hub id) for it")


def _answerer(args):
    from qg_studio.services.answers import load_answerer

    return load_answerer(args.answerer, args.model)


# ----------------------------------------------------------------------- answer


def cmd_answer(args) -> int:
    from qg_studio.services.answers import answer_and_label
    from qg_studio.services.answers import check_question
    from qg_studio.services.stories import ingest
    from qg_studio.services.stories import read_story

    if not args.question.strip():
        raise UserError('the question is empty: pass --question "..."')
    check_question(args.question)  # before the story is read or a model loaded
    title, text = read_story(args.file)
    sections = ingest(text, title=title).sections
    result = answer_and_label(args.question, sections, answerer=_answerer(args), title=title or "")
    if result.answerer_failed:
        raise UserError(result.notes[0])
    element, explicitness = result.element, result.explicitness
    print(f"Q: {result.question}")
    print(f"A: {result.answer or '(no answer)'}")
    print(
        f"   kind {result.answer_kind}, {'in the text' if result.explicit else 'not stated'}"
        f", confidence {result.confidence or 0.0:.2f}, section(s) "
        f"{', '.join(map(str, result.sections))}"
    )
    for ev in result.evidence:
        print(f"   evidence (section {ev.section}, {ev.start}-{ev.end}): {ev.text}")
    if result.labels is not None:
        print(f"   element {element.value}, {explicitness.value}")
    if result.note:
        print(f"   note: {result.note}")
    return exit_with(args, result.to_dict())


# ----------------------------------------------------------------------- eval qa


def cmd_eval_qa(args) -> int:
    from qg_studio.services.evaluation import eval_qa
    from qg_studio.services.evaluation import load_split

    stories = load_split(args.data, args.split, args.limit)
    result = eval_qa(stories, _answerer(args), args.given_sections)
    result.update(answerer=args.answerer, split=args.split)
    counts = result.pop("counts")
    print(
        f"ROUGE-L F1 {result['rougeL_f']:.4f} over {result['n']} expert questions "
        f"({args.split}, answerer {args.answerer}, "
        f"{'given sections' if args.given_sections else 'retrieved sections'})"
    )
    print(
        f"  explicit {result['explicit']:.4f} (n={counts.get('explicit', 0)})"
        f"   implicit {result['implicit']:.4f} (n={counts.get('implicit', 0)})"
    )
    for name, value in result["per_element"].items():
        print(f"  {name:<22} {value:.4f}  (n={counts[name]})")
    print(
        f"  explicit/implicit flag agrees with the experts for "
        f"{result['explicit_flag_accuracy']:.1%}"
    )
    if "retrieval_accuracy" in result:
        print(f"  retrieval: top section in cor_section for {result['retrieval_accuracy']:.1%}")
    if "note" in result:
        print(f"  note: {result['note']}")
    return exit_with(args, result)


# ----------------------------------------------------------------------- train


def cmd_train(args) -> int:
    from qg_studio.train.qa_extractive import train

    if not (Path(args.data) / "questions" / "train").is_dir():
        raise UserError(f"no FairytaleQA train split under {args.data}")
    try:
        info = train(
            args.data,
            args.out,
            crop=not args.windows,
            log=lambda line: print(line, flush=True),
            **{name: getattr(args, name) for name, *_ in QA_TRAIN_OPTIONS},
        )
    except (OSError, ValueError) as exc:
        raise UserError(str(exc)) from None
    return exit_with(args, info)
