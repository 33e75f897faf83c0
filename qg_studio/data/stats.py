"""Progress and agreement figures for annotated stories, per story and per split.

Questions per section is compared with the FairytaleQA annotation guideline (about 2–3
a section); the element and explicitness mix with the dataset's train split; and where
a second annotator answered (answer4), ROUGE-L F1 between the two first answers — the
agreement the paper reports as its human figure.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Sequence

from qg_studio.data.fairytaleqa import FtqaStory
from qg_studio.evaluate import mean
from qg_studio.evaluate import rouge_l
from qg_studio.schema import ELEMENTS
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Scope

GUIDELINE = (2.0, 3.0)  # questions per section the FairytaleQA annotators aimed for

# Element and explicitness shares of FairytaleQA's train split (8,548 QA pairs), as
# counted by `qg-studio data stats ../shared/data/fairytaleqa --split train`.
DATASET_ELEMENTS = {
    "character": 0.1127,
    "setting": 0.0612,
    "action": 0.3153,
    "feeling": 0.0964,
    "causal relationship": 0.2769,
    "outcome resolution": 0.0949,
    "prediction": 0.0427,
}
DATASET_EXPLICIT = 0.7501


@dataclass
class StoryStats:
    name: str
    sections: int
    qa_pairs: int
    elements: dict[str, int] = field(default_factory=dict)
    explicit: int = 0
    summary: int = 0
    per_section: dict[int, int] = field(default_factory=dict)  # section id → questions citing it
    agreement: list[float] = field(default_factory=list)  # ROUGE-L, answer1 vs answer4

    @property
    def questions_per_section(self) -> float:
        return self.qa_pairs / self.sections if self.sections else 0.0

    @property
    def within_guideline(self) -> bool:
        low, high = GUIDELINE
        return low <= self.questions_per_section <= high

    @property
    def uncovered_sections(self) -> list[int]:
        return [s for s, n in sorted(self.per_section.items()) if n == 0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "story": self.name,
            "sections": self.sections,
            "qa_pairs": self.qa_pairs,
            "questions_per_section": round(self.questions_per_section, 3),
            "within_guideline": self.within_guideline,
            "elements": shares(self.elements, self.qa_pairs),
            "explicit_share": round(self.explicit / self.qa_pairs, 4) if self.qa_pairs else 0.0,
            "uncovered_sections": self.uncovered_sections,
            "two_annotator_pairs": len(self.agreement),
            "agreement_rouge_l": round(mean(self.agreement), 4) if self.agreement else None,
        }


def shares(counts: dict[str, int], total: int) -> dict[str, float]:
    return {e.value: round(counts.get(e.value, 0) / total, 4) if total else 0.0 for e in ELEMENTS}


def story_stats(
    name: str, section_ids: Sequence[int], items: Sequence[QAItem], agreement: bool = True
) -> StoryStats:
    stats = StoryStats(
        name=name,
        sections=len(section_ids),
        qa_pairs=len(items),
        per_section={s: 0 for s in section_ids},
    )
    elements: Counter = Counter()
    for item in items:
        elements[item.element.value] += 1
        stats.explicit += item.explicitness is Explicitness.EXPLICIT
        stats.summary += item.scope is Scope.SUMMARY
        for s in set(item.sections):
            if s in stats.per_section:
                stats.per_section[s] += 1
        if agreement and item.answers and item.second_answers:
            stats.agreement.append(rouge_l(item.second_answers[0], item.answers[0]))
    stats.elements = dict(elements)
    return stats


def ftqa_story_stats(story: FtqaStory, agreement: bool = True) -> StoryStats:
    return story_stats(story.name, [s.id for s in story.sections], story.items(), agreement)


def summarise(stats: Sequence[StoryStats]) -> dict[str, Any]:
    """Totals over stories; the first five keys are the ``data stats --json`` contract."""
    qa = sum(s.qa_pairs for s in stats)
    sections = sum(s.sections for s in stats)
    elements: Counter = Counter()
    for s in stats:
        elements.update(s.elements)
    agreement = [a for s in stats for a in s.agreement]
    return {
        "stories": len(stats),
        "qa_pairs": qa,
        "sections_per_story": round(sections / len(stats), 2) if stats else 0.0,
        "elements": shares(dict(elements), qa),
        "explicit_share": round(sum(s.explicit for s in stats) / qa, 4) if qa else 0.0,
        "summary_share": round(sum(s.summary for s in stats) / qa, 4) if qa else 0.0,
        "qa_per_story": round(qa / len(stats), 2) if stats else 0.0,
        "questions_per_section": round(qa / sections, 3) if sections else 0.0,
        "stories_within_guideline": sum(s.within_guideline for s in stats),
        "two_annotator_pairs": len(agreement),
        "agreement_rouge_l": round(mean(agreement), 4) if agreement else None,
    }


def split_stats(stories: Sequence[FtqaStory], agreement: bool = True) -> dict[str, Any]:
    return summarise([ftqa_story_stats(s, agreement) for s in stories])
