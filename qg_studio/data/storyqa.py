"""StoryQA-style JSONL: one QA pair a line, with the answer kind the unified QA model
is prefixed with (``extractive``, ``yesno``, ``abstractive``) and whether the answer is
in the story.

A pair's kind: ``yesno`` when the answer is yes or no; ``extractive`` when it is marked
explicit and really is a span of the story; otherwise ``abstractive`` (free-form), so a
span-trained head never learns a paraphrase as a span.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from typing import Sequence

from qg_studio.answer_kind import answer_kind
from qg_studio.answer_kind import in_text
from qg_studio.data.fairytaleqa import FtqaStory
from qg_studio.data.question_rows import parse_sections
from qg_studio.schema import Explicitness


def cited_text(story: FtqaStory, cor_section: str) -> str:
    """The text of the sections a row cites, in story order."""
    labels = story.section_labels or [str(s.id) for s in story.sections]
    try:
        wanted = {str(n) for n in parse_sections(cor_section)}
    except ValueError:
        wanted = set()
    return "\n".join(s.text for s, label in zip(story.sections, labels) if label in wanted)


def storyqa_records(
    story: FtqaStory, provenance: Sequence[dict[str, str]] | None = None
) -> list[dict[str, Any]]:
    full = "\n".join(s.text for s in story.sections)
    records = []
    for index, question in enumerate(story.questions):
        row = question.row
        answers = question.answers
        answer = answers[0] if answers else ""
        explicit = row.get("ex-or-im1", "").strip().lower() == "explicit"
        record: dict[str, Any] = {
            "story": story.name,
            "split": story.split,
            "question_id": row.get("question_id", ""),
            "question": row.get("question", ""),
            "answer": answer,
            "answer_kind": answer_kind(
                answer=answer,
                explicitness=Explicitness.EXPLICIT if explicit else Explicitness.IMPLICIT,
                text=full,
            ).value,
            "in_story": in_text(answer, full),
            "answers": answers,
            "second_answers": question.second_answers,
            "context": cited_text(story, row.get("cor_section", "")),
            "sections": row.get("cor_section", ""),
            "element": row.get("attribute1", ""),
            "explicitness": row.get("ex-or-im1", ""),
            "scope": row.get("local-or-sum", ""),
        }
        if provenance is not None and index < len(provenance):
            record["provenance"] = dict(provenance[index])
        records.append(record)
    return records


def write_storyqa(
    path: str | Path,
    stories: Sequence[FtqaStory],
    provenance: Sequence[Sequence[dict[str, str]]] | None = None,
) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        for index, story in enumerate(stories):
            prov = provenance[index] if provenance is not None else None
            for record in storyqa_records(story, prov):
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path
