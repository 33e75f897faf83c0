"""Find the section(s) a question is about when the teacher does not say.

A section's score mixes three signals, each in [0, 1]:
- BM25 over the story's sections (content words, crude stems): names and rare words,
- the MiniLM similarity of the question to the whole section: the topic,
- the best MiniLM similarity of the question to one sentence of it: the exact place.
The weights were set on the FairytaleQA train split (top-1 hit rate against
``cor_section``); ``qg-studio eval qa`` reports the figure on val.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from qg_studio.schema import Section
from qg_studio.text.evidence import bm25_scores
from qg_studio.text.sentences import sentences
from qg_studio.text.words import content_words

WEIGHTS = {"bm25": 0.5, "section": 0.25, "sentence": 0.25}
# A second section joins the first when it scores nearly as well: questions that draw
# on two sections (FairytaleQA's "5,6") are common, and a span model ignores the rest.
SECOND_SECTION_MARGIN = 0.05


@dataclass
class StoryIndex:
    """What retrieval needs from a story, computed once per story text."""

    ids: list[int]
    words: list[list[str]]
    section_vectors: object  # numpy array, one row per section
    sentence_vectors: object  # numpy array, one row per sentence
    sentence_owner: list[int]  # index into ``ids`` of each sentence


@lru_cache(maxsize=16)
def _index(texts: tuple[str, ...], ids: tuple[int, ...]) -> StoryIndex:
    from qg_studio.models.embeddings import embed

    spans = [sentences(t) for t in texts]
    owner = [i for i, s in enumerate(spans) for _ in s]
    sent_texts = [texts[i][a:b] for i, s in enumerate(spans) for a, b in s]
    vectors = embed(list(texts) + sent_texts)
    return StoryIndex(
        list(ids),
        [content_words(t) for t in texts],
        vectors[: len(texts)],
        vectors[len(texts) :],
        owner,
    )


def index_story(sections: Sequence[Section]) -> StoryIndex:
    return _index(tuple(s.text for s in sections), tuple(s.id for s in sections))


def rank_sections(
    questions: Sequence[str], sections: Sequence[Section], weights: dict[str, float] | None = None
) -> list[list[tuple[int, float]]]:
    """For each question, every section id with its score, best first."""
    import numpy as np

    from qg_studio.models.embeddings import embed

    if not sections:
        return [[] for _ in questions]
    weights = weights or WEIGHTS
    index = index_story(sections)
    qvec = embed(list(questions)) if questions else np.zeros((0, 1))
    sec_sim = qvec @ index.section_vectors.T
    sent_best = np.full(sec_sim.shape, -1.0, dtype="float32")
    if len(index.sentence_owner):
        sent_sim = qvec @ index.sentence_vectors.T
        owner = np.asarray(index.sentence_owner)
        for j in range(len(index.ids)):
            cols = owner == j
            if cols.any():
                sent_best[:, j] = sent_sim[:, cols].max(axis=1)
    out = []
    for qi, question in enumerate(questions):
        lexical = bm25_scores(content_words(question), index.words)
        top = max(lexical) or 1.0
        scores = [
            weights["bm25"] * lexical[j] / top
            + weights["section"] * float(sec_sim[qi, j])
            + weights["sentence"] * float(sent_best[qi, j])
            for j in range(len(index.ids))
        ]
        out.append(sorted(zip(index.ids, scores), key=lambda p: -p[1]))
    return out


def choose_sections(
    ranking: list[tuple[int, float]], max_sections: int = 2, margin: float = SECOND_SECTION_MARGIN
) -> list[int]:
    """The best section, plus the next ones that score within ``margin`` of it, best first."""
    if not ranking:
        return []
    best = ranking[0][1]
    return [sid for sid, score in ranking[:max_sections] if best - score <= margin]


def retrieve(
    questions: Sequence[str], sections: Sequence[Section], max_sections: int = 2
) -> list[list[int]]:
    """The section ids to answer each question from, best first."""
    return [choose_sections(r, max_sections) for r in rank_sections(questions, sections)]
