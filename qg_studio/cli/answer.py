"""``qg-studio answer``, ``eval qa`` and ``train qa-extractive``."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

from qg_studio.cli.common import UserError, emit_json, load_split


def register(commands) -> None:
    ans = commands.top.add_parser("answer", help="answer a question about a story file")
    ans.add_argument("file", help="a .txt or .docx story ('-' reads stdin)")
    ans.add_argument("--question", "-q", required=True, help="the question to answer")
    _answerer_args(ans)
    ans.add_argument("--json", action="store_true", help="print the result as JSON last line")
    ans.set_defaults(func=cmd_answer)

    qa = commands.eval.add_parser("qa", help="answer expert questions; ROUGE-L F1 as the "
                                  "FairytaleQA paper scores it")
    qa.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    qa.add_argument("--split", default="val")
    _answerer_args(qa)
    qa.add_argument("--given-sections", action="store_true",
                    help="answer from each question's cor_section (else retrieve first)")
    qa.add_argument("--limit", type=int, default=None, help="only the first N stories")
    qa.add_argument("--json", action="store_true")
    qa.set_defaults(func=cmd_eval_qa)

    tr = commands.train.add_parser("qa-extractive", help="train the CPU span answerer")
    tr.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    tr.add_argument("--out", default="models/qa-extractive")
    tr.add_argument("--epochs", type=float, default=1.0)
    tr.add_argument("--max-steps", type=int, default=None)
    tr.add_argument("--max-minutes", type=float, default=None,
                    help="stop (and save) after this long; the rate decays to fit")
    tr.add_argument("--batch-size", type=int, default=16)
    tr.add_argument("--lr", type=float, default=1e-4)
    tr.add_argument("--max-length", type=int, default=192,
                    help="tokens per training window (question + context)")
    tr.add_argument("--windows", action="store_true",
                    help="train on the stride windows of whole sections, as the answerer "
                         "reads them (a share of answer-free windows teaches 'not here'), "
                         "not one crop around each answer: about 3x slower")
    tr.add_argument("--stride", type=int, default=64, help="window overlap with --windows")
    tr.add_argument("--freeze-layers", type=int, default=1,
                    help="bottom encoder layers kept frozen (cheaper CPU steps)")
    tr.add_argument("--base", default=None, help="encoder folder (default: the MiniLM package)")
    tr.add_argument("--seed", type=int, default=0)
    tr.add_argument("--json", action="store_true")
    tr.set_defaults(func=cmd_train)


def _answerer_args(parser) -> None:
    # --engine is the name the question commands use for the same choice.
    parser.add_argument("--answerer", "--engine", dest="answerer", default="extractive",
                        help="answerer name (extractive, seq2seq)")
    parser.add_argument("--model", default=None, help="model folder (or hub id) for it")


def _answerer(args):
    from qg_studio.answering import get_answerer

    options = {}
    if args.model:
        options["model_dir" if args.answerer == "extractive" else "model"] = args.model
    try:
        return get_answerer(args.answerer, **options)
    except KeyError as exc:
        raise UserError(str(exc).strip("'\"")) from None
    except (OSError, ValueError, ImportError) as exc:
        raise UserError(f"cannot load answerer {args.answerer!r}: {exc}") from None


def _story_sections(path: str):
    from qg_studio.story import StoryInputError, decode_text, load_story_file, section_story

    try:
        if path == "-":
            text = decode_text(sys.stdin.buffer.read(), "stdin")
        else:
            if not Path(path).is_file():
                raise UserError(f"no such file: {path}")
            text = load_story_file(path)
        return section_story(text)
    except StoryInputError as exc:
        raise UserError(str(exc)) from None


# ----------------------------------------------------------------------- answer

def cmd_answer(args) -> int:
    from qg_studio.answering.extractive import QuestionError

    question = args.question.strip()
    if not question:
        raise UserError("the question is empty: pass --question \"...\"")
    sections = _story_sections(args.file)
    answerer = _answerer(args)
    try:
        reply = answerer.answer([question], sections)[0]
    except QuestionError as exc:
        raise UserError(str(exc)) from None
    element = explicitness = None
    try:
        from qg_studio.tagging import tag

        by_id = {s.id: s for s in sections}
        labels = tag(question, reply.answers[0] if reply.answers else None,
                     [by_id[i] for i in reply.sections if i in by_id])
        element, explicitness = labels.element.value, labels.explicitness.value
    except ImportError:
        pass  # the tagger is optional: the answer stands without its labels
    print(f"Q: {question}")
    print(f"A: {reply.answers[0] if reply.answers else '(no answer)'}")
    print(f"   kind {reply.answer_kind}, {'in the text' if reply.explicit else 'not stated'}"
          f", confidence {reply.confidence:.2f}, section(s) "
          f"{', '.join(map(str, reply.sections))}")
    for ev in reply.evidence:
        print(f"   evidence (section {ev.section}, {ev.start}-{ev.end}): {ev.text}")
    if element:
        print(f"   element {element}, {explicitness}")
    if reply.note:
        print(f"   note: {reply.note}")
    if args.json:
        payload = reply.to_dict()
        payload.update(element=element, explicitness=explicitness)
        emit_json(payload)
    return 0


# ----------------------------------------------------------------------- eval qa

def cmd_eval_qa(args) -> int:
    from qg_studio.evaluate import best_rouge_l, mean

    stories = load_split(args.data, args.split, args.limit)
    answerer = _answerer(args)

    scores: list[float] = []
    by_explicitness: dict[str, list[float]] = defaultdict(list)
    by_element: dict[str, list[float]] = defaultdict(list)
    hits: list[float] = []
    flag_right: list[float] = []
    started = time.time()
    for story in stories:
        questions = [q for q in story.questions if q.row.get("question", "").strip()]
        if not questions:
            continue
        given = [q.sections for q in questions] if args.given_sections else None
        replies = answerer.answer([q.row["question"] for q in questions], story.sections,
                                  given)
        for q, reply in zip(questions, replies):
            refs = [q.row.get("answer1", ""), q.row.get("answer4", "")]
            score = best_rouge_l(reply.answers[0] if reply.answers else "", refs)
            scores.append(score)
            by_explicitness[q.row.get("ex-or-im1", "").strip() or "explicit"].append(score)
            by_element[q.row.get("attribute1", "").strip()].append(score)
            flag_right.append(float(reply.explicit == (q.row.get("ex-or-im1", "").strip()
                                                        != "implicit")))
            if not args.given_sections and reply.sections:
                hits.append(float(reply.sections[0] in q.sections))
    result = {
        "rougeL_f": round(mean(scores), 4),
        "explicit": round(mean(by_explicitness.get("explicit", [])), 4),
        "implicit": round(mean(by_explicitness.get("implicit", [])), 4),
        "per_element": {k: round(mean(v), 4) for k, v in sorted(by_element.items())},
        "explicit_flag_accuracy": round(mean(flag_right), 4),
        "n": len(scores), "answerer": args.answerer, "split": args.split,
        "given_sections": bool(args.given_sections),
        "seconds": round(time.time() - started, 1),
    }
    if hits:
        result["retrieval_accuracy"] = round(mean(hits), 4)
    note = getattr(answerer, "load_error", "") if getattr(answerer, "fallback", False) else ""
    if note:
        result["note"] = f"fallback answerer: {note}"
    print(f"ROUGE-L F1 {result['rougeL_f']:.4f} over {result['n']} expert questions "
          f"({args.split}, answerer {args.answerer}, "
          f"{'given sections' if args.given_sections else 'retrieved sections'})")
    print(f"  explicit {result['explicit']:.4f} (n={len(by_explicitness.get('explicit', []))})"
          f"   implicit {result['implicit']:.4f} (n={len(by_explicitness.get('implicit', []))})")
    for name, value in result["per_element"].items():
        print(f"  {name:<22} {value:.4f}  (n={len(by_element[name])})")
    print(f"  explicit/implicit flag agrees with the experts for "
          f"{result['explicit_flag_accuracy']:.1%}")
    if hits:
        print(f"  retrieval: top section in cor_section for {result['retrieval_accuracy']:.1%}")
    if note:
        print(f"  note: {result['note']}")
    if args.json:
        emit_json(result)
    return 0


# ----------------------------------------------------------------------- train

def cmd_train(args) -> int:
    from qg_studio.train.qa_extractive import train

    if not (Path(args.data) / "questions" / "train").is_dir():
        raise UserError(f"no FairytaleQA train split under {args.data}")
    try:
        info = train(args.data, args.out, base=args.base, epochs=args.epochs,
                     max_steps=args.max_steps, batch_size=args.batch_size, lr=args.lr,
                     max_length=args.max_length, freeze_layers=args.freeze_layers,
                     seed=args.seed, max_minutes=args.max_minutes,
                     crop=not args.windows, stride=args.stride,
                     log=lambda line: print(line, flush=True))
    except (OSError, ValueError) as exc:
        raise UserError(str(exc)) from None
    if args.json:
        emit_json(info)
    return 0
