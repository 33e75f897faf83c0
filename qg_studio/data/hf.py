"""The flat layout of FairytaleQA on the Hugging Face hub, for ``datasets.load_dataset``.

One row per question: ``story_name, story_section`` (the text of the cited sections),
``question, answer1, answer2`` (the first and the second annotator's first answers),
``local-or-sum, attribute, ex-or-im, ex-or-im2``. Written as ``<split>.jsonl`` and
``<split>.csv``; provenance columns trail the fixed ones when asked for (teacher sets).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Sequence

from qg_studio.data.cells import guard
from qg_studio.data.fairytaleqa import FtqaStory
from qg_studio.data.storyqa import cited_text
from qg_studio.paths import inside

HF_COLUMNS = [
    "story_name",
    "story_section",
    "question",
    "answer1",
    "answer2",
    "local-or-sum",
    "attribute",
    "ex-or-im",
    "ex-or-im2",
]
PROVENANCE_FIELDS = ["origin", "created_by", "edited"]


def hf_rows(
    story: FtqaStory, provenance: Sequence[dict[str, str]] | None = None
) -> list[dict[str, str]]:
    rows = []
    for index, question in enumerate(story.questions):
        row = question.row
        second = question.second_answers
        out = {
            "story_name": story.name,
            "story_section": cited_text(story, row.get("cor_section", "")),
            "question": row.get("question", ""),
            "answer1": row.get("answer1", ""),
            "answer2": second[0] if second else "",
            "local-or-sum": row.get("local-or-sum", ""),
            "attribute": row.get("attribute1", ""),
            "ex-or-im": row.get("ex-or-im1", ""),
            "ex-or-im2": row.get("ex-or-im2", ""),
        }
        if provenance is not None:
            prov = provenance[index] if index < len(provenance) else {}
            out.update({f: prov.get(f, "") for f in PROVENANCE_FIELDS})
        rows.append(out)
    return rows


def write_hf(
    out: str | Path,
    split: str,
    stories: Sequence[FtqaStory],
    provenance: Sequence[Sequence[dict[str, str]]] | None = None,
) -> list[Path]:
    """Write ``<split>.jsonl`` and ``<split>.csv`` under ``out`` (never outside it)."""
    out = Path(out)
    jsonl, table = inside(out, f"{split}.jsonl"), inside(out, f"{split}.csv")
    jsonl.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for index, story in enumerate(stories):
        rows += hf_rows(story, provenance[index] if provenance is not None else None)
    columns = HF_COLUMNS + (PROVENANCE_FIELDS if provenance is not None else [])
    with open(jsonl, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    with open(table, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([guard(str(row.get(c, ""))) for c in columns] for row in rows)
    return [jsonl, table]
