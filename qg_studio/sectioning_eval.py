"""Agreement of the sectioner with expert sections (``qg-studio eval sections``).

Each story goes in as plain text, every expert paragraph (a line of a section) separated
by a blank line and the expert breaks unmarked. Boundaries are compared as word offsets,
so a cut counts only when it falls at the same paragraph break.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from qg_studio.data.fairytaleqa import FtqaStory
from qg_studio.data.fairytaleqa import read_split
from qg_studio.evaluate import boundary_prf
from qg_studio.evaluate import mean
from qg_studio.evaluate import pk
from qg_studio.evaluate import windowdiff
from qg_studio.story import MAX_WORDS
from qg_studio.story import MIN_WORDS
from qg_studio.story import SectionerWeights
from qg_studio.story import section_story


@dataclass
class StoryAgreement:
    name: str
    precision: float
    recall: float
    f1: float
    pk: float
    windowdiff: float
    sections: list[int]  # word counts of the predicted sections


def _starts(word_counts: list[int]) -> set[int]:
    starts, total = set(), 0
    for count in word_counts[:-1]:
        total += count
        starts.add(total)
    return starts


def story_agreement(story: FtqaStory, weights: SectionerWeights | None = None) -> StoryAgreement:
    paragraphs = [line for s in story.sections for line in s.text.split("\n") if line.strip()]
    gold = _starts([len(s.text.split()) for s in story.sections])
    predicted_sections = section_story("\n\n".join(paragraphs), weights)
    counts = [len(s.text.split()) for s in predicted_sections]
    predicted = _starts(counts)
    n = sum(counts)
    p, r, f = boundary_prf(predicted, gold)
    return StoryAgreement(
        story.name, p, r, f, pk(predicted, gold, n), windowdiff(predicted, gold, n), counts
    )


def evaluate_sections(
    root: str | Path, split: str, weights: SectionerWeights | None = None
) -> dict:
    results = [story_agreement(story, weights) for story in read_split(root, split)]
    counts = [c for r in results for c in r.sections]
    return {
        "boundary_precision": round(mean(r.precision for r in results), 4),
        "boundary_recall": round(mean(r.recall for r in results), 4),
        "boundary_f1": round(mean(r.f1 for r in results), 4),
        "pk": round(mean(r.pk for r in results), 4),
        "windowdiff": round(mean(r.windowdiff for r in results), 4),
        "in_range": round(
            sum(MIN_WORDS <= c <= MAX_WORDS for c in counts) / max(len(counts), 1), 4
        ),
        "stories": len(results),
        "sections": len(counts),
    }
