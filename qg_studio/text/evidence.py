"""The sentence that best answers a query: BM25 over the sentences' content words.

Every answerer falls back to it when it has no span of its own (the SmolLM2 and seq2seq
answerers' evidence, the extractive answerer's last resort, a prediction's moment).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Sequence

from qg_studio.schema import Evidence
from qg_studio.schema import Section
from qg_studio.text.sentences import sentences
from qg_studio.text.words import content_words


def bm25_scores(
    query: Sequence[str], docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75
) -> list[float]:
    """Okapi BM25 of each of ``docs`` (word lists) for ``query`` (a word list)."""
    n = len(docs)
    if not n:
        return []
    avg = sum(len(d) for d in docs) / n or 1.0
    df = Counter(w for d in docs for w in set(d))
    counts = [Counter(d) for d in docs]
    out = []
    for doc, tf in zip(docs, counts):
        score = 0.0
        for w in set(query):
            if not tf[w]:
                continue
            idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
            score += idf * tf[w] * (k1 + 1) / (tf[w] + k1 * (1 - b + b * len(doc) / avg))
        out.append(score)
    return out


def best_sentence_span(query: str, text: str) -> tuple[int, int, float] | None:
    """(start, end, BM25 score) of the sentence of ``text`` sharing the most (rare) words
    with ``query``; None for a text without sentences."""
    spans = sentences(text)
    if not spans:
        return None
    scores = bm25_scores(content_words(query), [content_words(text[a:b]) for a, b in spans])
    j = max(range(len(spans)), key=lambda i: scores[i])
    return spans[j][0], spans[j][1], scores[j]


def ranked_sentences(query: str, sections: Sequence[Section]) -> list[tuple[Section, int, int]]:
    """The sentences of ``sections`` as (section, start, end), the best match for
    ``query`` first (ties in story order)."""
    spans = [(s, a, b) for s in sections for a, b in sentences(s.text)]
    scores = bm25_scores(content_words(query), [content_words(s.text[a:b]) for s, a, b in spans])
    order = sorted(range(len(spans)), key=lambda j: -scores[j])
    return [spans[j] for j in order]


def best_sentence(query: str, sections: Sequence[Section]) -> Evidence | None:
    """The sentence of ``sections`` sharing the most (rare) words with ``query``."""
    ranked = ranked_sentences(query, sections)
    if not ranked:
        return None
    s, a, b = ranked[0]
    return Evidence(s.id, a, b, s.text[a:b])
