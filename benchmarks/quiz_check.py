"""Quizzes against their key, over a panel round's fables: every wrong option checked, every
kept question looked for in every format's file, read back.

    .venv/bin/python benchmarks/quiz_check.py --round r1 [--engine auto] [--json out.json]

For each fable of ``benchmarks/panel/<round>/fables.json`` it writes the default set (as
``panel.py generate`` does), keeps every question, and exports it in every format. Then:

- **wrong options**: each choice question's wrong options (as the quiz files give them,
  chosen with the answerer as ``qg-studio export`` does) are compared with the key (every answer the item accepts) and with what the answerer
  replies to the question read against the story; an option either accepts is a
  contradiction;
- **presence**: each format's file is read back (the Moodle files by the strict readers
  the tests use, the spreadsheets and CSVs cell by cell, QTI item by item) and every kept
  question is looked for; a question that is missing must be one the export's report lists
  as skipped, with its reason.

Prints a JSON summary; exits 1 on any contradiction or unlisted missing question. It
reads the fables at run time and writes no fable text anywhere.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import sys
import zipfile
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree as ET

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))

import panel  # noqa: E402
from moodle_readers import read_aiken  # noqa: E402
from moodle_readers import read_gift  # noqa: E402
from moodle_readers import read_moodle_xml  # noqa: E402


def _cells_xlsx(data: bytes) -> list[str]:
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    return [str(c) for sheet in book for row in sheet.iter_rows(values_only=True) for c in row if c]


def _cells_csv(data: bytes) -> list[str]:
    return [c for row in csv.reader(io.StringIO(data.decode("utf-8-sig"))) for c in row if c]


def _texts_qti(data: bytes) -> list[str]:
    archive = zipfile.ZipFile(io.BytesIO(data))
    out = []
    for name in archive.namelist():
        if name not in ("imsmanifest.xml", "test.xml"):
            out.append(" ".join(ET.fromstring(archive.read(name)).itertext()))
    return out


def _texts_moodle(fmt: str, data: bytes) -> list[str]:
    text = data.decode("utf-8")
    questions = {
        "gift": lambda: read_gift(text),
        "aiken": lambda: read_aiken(text),
        "moodle-xml": lambda: read_moodle_xml(data),
    }[fmt]()
    return [json.dumps(q, ensure_ascii=False) for q in questions]


def read_back(fmt: str, data: bytes) -> str:
    """Every text of an exported file, as its importer would see them, in one string."""
    if fmt in ("xlsx", "kahoot", "quizizz"):
        parts = _cells_xlsx(data)
    elif fmt in ("blooket", "gimkit"):
        parts = _cells_csv(data)
    elif fmt == "qti":
        parts = _texts_qti(data)
    else:
        parts = _texts_moodle(fmt, data)
    return _flat(" ".join(parts))


def _flat(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _opening(question: str, words: int = 6) -> str:
    """The first words of a question: what survives a platform's shortening."""
    return " ".join(_flat(question).split()[:words])


def check_fable(fable: dict, engine: str, answerer, bare: bool = False) -> dict:
    from qg_studio.export import FORMATS
    from qg_studio.export import export_story
    from qg_studio.export.distractor_words import same_answer
    from qg_studio.export.distractors import is_true
    from qg_studio.export.quizset import prepare
    from qg_studio.schema import GenerationRequest
    from qg_studio.schema import ReviewStatus
    from qg_studio.services.generation import generate
    from qg_studio.services.stories import ingest

    story = ingest(fable["text"], title=fable["title"])
    run = generate(
        story.sections, GenerationRequest(), engine, answerer=answerer, title=fable["title"]
    )
    items = run.items
    for item in items:
        item.status = ReviewStatus.KEPT
    contradictions = []
    quiz = prepare(items, story.sections, answerer=None if bare else answerer)
    choice = [q for q in quiz if q.options and q.kind != "yesno"]
    replies = answerer.answer(
        [q.item.question for q in choice], story.sections, [q.item.sections or None for q in choice]
    )
    for q, reply in zip(choice, replies):
        rights = [a for a in [*q.item.answers, *q.item.second_answers] if a.strip()]
        for n, option in enumerate(q.options):
            if n == q.correct:
                continue
            by_key = [r for r in rights if same_answer(option, r)]
            by_answerer = [a for a in reply.answers if a.strip() and is_true(option, a)]
            if by_key or by_answerer:
                contradictions.append(
                    {
                        "question": q.item.question,
                        "key": q.answer,
                        "option": option,
                        "accepted_by": "key" if by_key else "answerer",
                        "answerer_said": reply.answers[:1],
                    }
                )
    formats = {}
    for fmt in FORMATS:
        result = export_story(
            fmt,
            fable["title"],
            story.sections,
            items,
            kept_only=True,
            answerer=None if bare else answerer,
        )
        text = read_back(fmt, result.data)
        missing = [i.question for i in items if _opening(i.question) not in text]
        listed = " ".join(result.report.skipped)
        unlisted = [m for m in missing if _opening(m, 4) not in _flat(listed)]
        formats[fmt] = {
            "kept": len(items),
            "present": len(items) - len(missing),
            "skipped": result.report.skipped,
            "unlisted_missing": unlisted,
        }
    return {
        "questions": len(items),
        "choice_questions": len(choice),
        "wrong_options": sum(len(q.options) - 1 for q in choice),
        "contradictions": contradictions,
        "formats": formats,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--round", required=True)
    parser.add_argument("--engine", default="auto")
    parser.add_argument("--json", help="also write the per-fable details here")
    parser.add_argument(
        "--bare",
        action="store_true",
        help="export as before the answerer checked options (the key alone), to compare",
    )
    args = parser.parse_args()
    from qg_studio.services.answers import best_answerer

    answerer = best_answerer()
    book = panel.fables()
    details = {}
    for fable_id in panel._round_fables(args.round):
        details[fable_id] = check_fable(book[fable_id], args.engine, answerer, args.bare)
        d = details[fable_id]
        print(
            f"{fable_id}: {d['questions']} kept, {len(d['contradictions'])} contradictions",
            file=sys.stderr,
            flush=True,
        )
    present, skipped, unlisted = Counter(), Counter(), Counter()
    for d in details.values():
        for fmt, f in d["formats"].items():
            present[fmt] += f["present"]
            skipped[fmt] += len(f["skipped"])
            unlisted[fmt] += len(f["unlisted_missing"])
    reasons = Counter(
        re.sub(r"^Q\d+ “.*?”: ", "", s)
        for d in details.values()
        for f in d["formats"].values()
        for s in f["skipped"]
    )
    summary = {
        "fables": len(details),
        "kept_questions": sum(d["questions"] for d in details.values()),
        "choice_questions": sum(d["choice_questions"] for d in details.values()),
        "wrong_options": sum(d["wrong_options"] for d in details.values()),
        "contradictions": sum(len(d["contradictions"]) for d in details.values()),
        "present_by_format": dict(present),
        "skipped_by_format": dict(skipped),
        "missing_and_not_listed_by_format": dict(unlisted),
        "skip_reasons": dict(reasons.most_common()),
    }
    print(json.dumps(summary, indent=1, ensure_ascii=False))
    if args.json:
        Path(args.json).write_text(
            json.dumps(details, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    if summary["contradictions"] or sum(unlisted.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
