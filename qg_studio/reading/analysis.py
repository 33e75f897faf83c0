"""One parse per section: sentences, clauses, pronoun resolution, and answer location.

A section is read after the one before it: its pronouns go on from the characters the
section before ended with (:class:`~qg_studio.reading.mentions.Stage`), so one
section's text can have different analyses, one per stage it follows."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import clauses
from qg_studio.reading.clauses import usable
from qg_studio.reading.dialogue import quoted_tokens
from qg_studio.reading.mentions import Resolver
from qg_studio.reading.mentions import Stage
from qg_studio.text.parse import get_nlp
from qg_studio.text.sentences import unwrapped
from qg_studio.text.words import stop_words
from qg_studio.text.words import words

# The writer's own measured list (a data file that says why it is not spaCy's).
STOP = stop_words("generation")


@dataclass
class Analysis:
    """A parsed section: spaCy doc, its sentences and their clauses."""

    text: str
    doc: object
    resolver: Resolver
    sentences: list  # spaCy Spans
    sentence_clauses: list[list[Clause]]
    quoted: set[int]  # tokens inside quotation marks (someone's speech)
    before: Stage | None = None  # who held the stage where the text before ended
    after: Stage | None = None  # who holds it where this text ends, for the text after

    def sentence_index(self, char: int) -> int:
        for i, sent in enumerate(self.sentences):
            if sent.start_char <= char < sent.end_char:
                return i
        return len(self.sentences) - 1

    def tokens_in(self, start: int, end: int) -> set[int]:
        return {t.i for t in self.doc if t.idx >= start and t.idx + len(t.text) <= end}


_DOCS: "OrderedDict[str, object]" = OrderedDict()  # the spaCy parse, the costly part
_CACHE: "OrderedDict[tuple[str, Stage | None], Analysis]" = OrderedDict()
_CACHE_SIZE = 512


def _remember(cache: OrderedDict, key, value) -> None:
    cache[key] = value
    while len(cache) > _CACHE_SIZE:
        cache.popitem(last=False)


def _build(text: str, doc, before: Stage | None) -> Analysis:
    quoted = quoted_tokens(doc)
    resolver = Resolver(doc, quoted, before)
    sents = [s for s in doc.sents if s.text.strip()]
    analysis = Analysis(
        doc.text,  # as parsed: a hard-wrapped section's answers are found across its wraps
        doc,
        resolver,
        sents,
        [clauses(s, resolver) for s in sents],
        quoted,
        before,
        resolver.stage(),
    )
    _remember(_CACHE, (text, before), analysis)
    return analysis


def clear_cache() -> None:
    """Forget every parse (benchmarks time parsing; long-lived apps may free memory)."""
    _CACHE.clear()
    _DOCS.clear()


def analyse(text: str, before: Stage | None = None) -> Analysis:
    """The parse of one section, read after a section that ended on ``before`` (None: the
    story's first, or a text read alone); cached, as sections repeat across calls."""
    key = (text, before)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    doc = _DOCS.get(text)
    if doc is None:
        doc = get_nlp()(unwrapped(text))
        _remember(_DOCS, text, doc)
    return _build(text, doc, before)


def analyse_each(texts: list[str]) -> list[Analysis]:
    """Parse short texts each read alone (questions, answers) in one spaCy batch, kept
    out of the caches: hundreds of them would push out the story's own parses."""
    docs = get_nlp().pipe(texts, batch_size=64)
    return [_build(text, doc, None) for text, doc in zip(texts, docs)]


def analyse_many(texts: list[str], before: Stage | None = None) -> list[Analysis]:
    """Parse a story's sections (or a section's paragraphs), in order, in one spaCy batch
    (faster than one call each); each is read after the one before it, the first after
    ``before``."""
    missing = [t for t in dict.fromkeys(texts) if t not in _DOCS]
    parsed = get_nlp().pipe([unwrapped(t) for t in missing], batch_size=16)
    for text, doc in zip(missing, parsed):
        _remember(_DOCS, text, doc)
    out: list[Analysis] = []
    for text in texts:
        out.append(analyse(text, before))
        before = out[-1].after
    return out


def content(text: str) -> list[str]:
    """The words of ``text`` that carry meaning, unstemmed (the generator's stop words)."""
    return [w for w in words(text) if w not in STOP]


@dataclass
class Location:
    """Where an answer sits: the sentence, the clause and the tokens that say it."""

    sentence: int
    clause: Clause | None
    tokens: set[int]
    start: int
    end: int
    exact: bool
    score: float = 1.0  # share of the answer's words found there


def locate(analysis: Analysis, answer: str) -> Location | None:
    """Find ``answer`` in the section: verbatim if it is there, else the best sentence."""
    if not analysis.sentences:
        return None
    text = analysis.text
    probe = answer.strip().rstrip(".!?").strip()
    start = text.lower().find(probe.lower()) if probe else -1
    if start >= 0 and probe:
        end = start + len(probe)
        index = analysis.sentence_index(start)
        tokens = analysis.tokens_in(start, end)
        return Location(index, _best_clause(analysis, index, tokens), tokens, start, end, True)
    want = set(content(answer))
    if not want:
        return None
    best, best_score = 0, -1.0
    for i, sent in enumerate(analysis.sentences):
        have = set(content(sent.text))
        score = len(want & have) / len(want) - 0.002 * len(have)
        if score > best_score:
            best, best_score = i, score
    sent = analysis.sentences[best]
    # The answer's words in that sentence, spanned from first to last: a paraphrased
    # answer still points at the part of the sentence it rewords.
    hits = [t for t in sent if t.lower_ in want or t.lemma_.lower() in want]
    if hits:
        span_start, span_end = hits[0].idx, hits[-1].idx + len(hits[-1].text)
    else:
        span_start, span_end = sent.start_char, sent.end_char
    tokens = {t.i for t in sent if span_start <= t.idx < span_end}
    return Location(
        best,
        _best_clause(analysis, best, tokens),
        tokens,
        span_start,
        span_end,
        False,
        max(best_score, 0.0),
    )


def _best_clause(analysis: Analysis, index: int, tokens: set[int]) -> Clause | None:
    """The clause that holds most of the answer, preferring ones a question can be
    built on (a subject a reader can identify: not "you", not "it")."""
    options = analysis.sentence_clauses[index]
    if not options:
        return None

    def overlap(c: Clause) -> tuple[bool, int, int]:
        ids = {t.i for t in c.tokens}
        return (usable(c), len(ids & tokens), -len(ids))

    best = max(options, key=overlap)
    if not usable(best):
        # Dialogue ("I will go") and "it" clauses: the speaker's frame or a nearby
        # sentence says who acts.
        for step in (-1, 1, -2):
            j = index + step
            if 0 <= j < len(analysis.sentence_clauses):
                good = [c for c in analysis.sentence_clauses[j] if usable(c)]
                if good:
                    return good[-1] if step < 0 else good[0]
    return best
