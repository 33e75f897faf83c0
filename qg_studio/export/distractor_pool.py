"""What a story offers as wrong options: its characters, places, times, feelings, numbers
and phrases, read off one parse of its sections (:func:`story_pool`).

A phrase is a clause (with its subject), a verb phrase, or a verb phrase in its base form
("ran into the forest", "run into the forest"), so a phrase answer can be matched by
phrases of its own shape (:mod:`qg_studio.export.distractors`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache

from qg_studio import lang
from qg_studio.export.distractor_words import CHARACTER_NOUNS
from qg_studio.export.distractor_words import FEELING_WORDS
from qg_studio.export.distractor_words import PLACE_NOUNS
from qg_studio.export.distractor_words import PLACE_PREPS
from qg_studio.export.distractor_words import PRONOUNS
from qg_studio.export.distractor_words import TIME_NOUNS
from qg_studio.export.distractor_words import TIME_PREPS
from qg_studio.export.distractor_words import normalise
from qg_studio.text.parse import gap


@dataclass
class Phrase:
    text: str
    sentence: int  # index of the sentence in the story, to keep options apart
    kind: str  # "clause" (with its subject) or "predicate" (verb phrase) or "base"


@dataclass
class StoryPool:
    characters: list[str] = field(default_factory=list)
    places: list[str] = field(default_factory=list)
    times: list[str] = field(default_factory=list)
    feelings: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)
    phrases: list[Phrase] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)


def parse():
    """The text layer's spaCy pipeline (loaded on first use)."""
    from qg_studio.text.parse import get_nlp

    return get_nlp()


def _add(bucket: list[str], text: str, by_head: bool = False) -> None:
    """Add once; ``by_head``: "a poor miller" and "the miller" are one character."""
    text = text.strip(" \t\n,.;:!?\"'“”‘’")
    if not text:
        return
    key = normalise(text).split()[-1:] if by_head else [normalise(text)]
    for other in bucket:
        if (normalise(other).split()[-1:] if by_head else [normalise(other)]) == key:
            return
    bucket.append(text)


def _chunk_text(chunk) -> str:
    """A noun chunk without a leading possessive pronoun ("his wife" → "the wife")."""
    tokens = list(chunk)
    while tokens and tokens[-1].tag_ == "POS":
        tokens = tokens[:-1]
    if tokens and tokens[0].lower_ in lang.function_words("possessives"):
        return "the " + " ".join(t.text for t in tokens[1:])
    return " ".join(t.text for t in tokens).replace(" 's", "'s")


@lru_cache(maxsize=16)
def story_pool(texts: tuple[str, ...]) -> StoryPool:
    """What the story (its sections' texts) offers as wrong options; parsed once."""
    pool = StoryPool()
    nlp = parse()
    sentence_index = 0
    for doc in nlp.pipe(texts):
        for ent in doc.ents:
            if ent.label_ == "PERSON":
                _add(pool.characters, ent.text, by_head=True)
            elif ent.label_ in ("GPE", "LOC", "FAC"):
                _add(pool.places, ent.text)
            elif ent.label_ in ("DATE", "TIME"):
                _add(pool.times, ent.text)
            elif ent.label_ == "CARDINAL":
                _add(pool.numbers, ent.text)
        for chunk in doc.noun_chunks:
            root = chunk.root
            lemma = root.lemma_.lower()
            if root.lower_ in PRONOUNS:
                continue
            if lemma in CHARACTER_NOUNS or root.text.lower() in CHARACTER_NOUNS:
                _add(pool.characters, _lower_first(chunk, _chunk_text(chunk)), by_head=True)
            elif lemma in TIME_NOUNS:
                # with its preposition when it has one: "at midnight", "in the morning"
                head = chunk.root.head
                if chunk.root.dep_ == "pobj" and head.lower_ in TIME_PREPS:
                    _add(pool.times, head.lower_ + " " + _lower_first(chunk, _chunk_text(chunk)))
                else:
                    _add(pool.times, _lower_first(chunk, _chunk_text(chunk)))
            elif lemma in PLACE_NOUNS or (
                root.dep_ == "pobj"
                and root.head.lower_ in PLACE_PREPS
                and root.ent_type_ in ("GPE", "LOC", "FAC")
            ):
                _add(pool.places, _lower_first(chunk, _chunk_text(chunk)))
        for token in doc:
            if token.lower_ in FEELING_WORDS:
                _add(pool.feelings, token.lower_)
        for sent in doc.sents:
            _add(pool.sentences, sent.text)
            for phrase in _phrases(sent):
                pool.phrases.append(Phrase(phrase[0], sentence_index, phrase[1]))
            sentence_index += 1
    return pool


def _phrases(sent) -> list[tuple[str, str]]:
    """Clauses and verb phrases of one sentence: the raw material of phrase distractors."""
    out: list[tuple[str, str]] = []
    for verb in sent:
        if verb.pos_ not in ("VERB", "AUX") or verb.dep_ not in ("ROOT", "conj", "advcl", "ccomp"):
            continue
        subtree = [t for t in verb.subtree if t.i >= sent.start and t.i < sent.end]
        # cut at a coordinated verb so "ran home and hid" gives two phrases
        conj_starts = [
            t.left_edge.i for t in verb.children if t.dep_ == "conj" and t.pos_ in ("VERB", "AUX")
        ]
        cut = min(conj_starts) if conj_starts else None
        tokens = [t for t in subtree if cut is None or t.i < cut]
        tokens = [t for t in tokens if t.dep_ not in ("cc", "mark") or t.i > verb.i]
        while tokens and (
            tokens[-1].is_punct
            or tokens[-1].dep_ in ("cc", "nsubj")
            and tokens[-1].lower_ in PRONOUNS | {"and", "but", "or"}
        ):
            tokens.pop()
        while tokens and (tokens[0].is_punct or tokens[0].dep_ in ("cc", "mark")):
            tokens.pop(0)
        if not tokens:
            continue
        subject = [t for t in tokens if t.dep_ in ("nsubj", "nsubjpass") and t.head == verb]
        clause = _join(tokens)
        if subject and 3 <= len(tokens) <= 25:
            out.append((clause, "clause"))
        predicate = [
            t for t in tokens if t.i >= verb.i and not any(t in s.subtree for s in subject)
        ]
        aux_start = [t for t in tokens if t.head == verb and t.dep_ in ("aux", "neg", "auxpass")]
        if aux_start:
            predicate = [
                t
                for t in tokens
                if t.i >= aux_start[0].i and not any(t in s.subtree for s in subject)
            ]
        if 2 <= len(predicate) <= 20:
            out.append((_join(predicate), "predicate"))
            base = [verb.lemma_ if t == verb else t.text for t in predicate if t.i >= verb.i]
            if len(base) >= 2:
                out.append((" ".join(base), "base"))
    return out


def _join(tokens) -> str:
    text = "".join(t.text + gap(t) for t in tokens).strip()
    text = re.sub(r"\s+", " ", text)
    return _lower_first(tokens, text)


def _lower_first(tokens, text: str) -> str:
    """Sentence-initial "The miller" becomes "the miller"; names keep their capital."""
    first = tokens[0] if len(tokens) else None
    if first is not None and first.pos_ != "PROPN" and first.text != "I" and text[:1].isupper():
        return text[0].lower() + text[1:]
    return text
