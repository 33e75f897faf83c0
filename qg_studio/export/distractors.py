"""Wrong options for multiple-choice platforms: the answer's own type, from the story first.

A character answer gets other characters of the story, a place other places, a time
other times, a feeling other feelings (never a synonym), a number other numbers, and a
phrase answer ("because the wolf was hungry", "ran into the forest") other clauses of
the story in the same grammatical shape. The story comes first; small lexicons fill in
when it has too few. A candidate that is the right answer in disguise — the same words
after normalising, one inside the other, most content words shared, or a synonym of
the answer's feeling — is never offered.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable
from typing import Sequence

from qg_studio import lang
from qg_studio.export.distractor_pool import Phrase
from qg_studio.export.distractor_pool import StoryPool
from qg_studio.export.distractor_pool import parse
from qg_studio.export.distractor_pool import story_pool
from qg_studio.export.distractor_words import CHARACTER_NOUNS
from qg_studio.export.distractor_words import CLAUSE_LEADS
from qg_studio.export.distractor_words import DETERMINERS
from qg_studio.export.distractor_words import FALLBACK_CHARACTERS
from qg_studio.export.distractor_words import FALLBACK_FEELINGS
from qg_studio.export.distractor_words import FALLBACK_PLACES
from qg_studio.export.distractor_words import FALLBACK_TIMES
from qg_studio.export.distractor_words import FEELING_WORDS
from qg_studio.export.distractor_words import NUMBER_WORDS
from qg_studio.export.distractor_words import PLACE_NOUNS
from qg_studio.export.distractor_words import PLACE_PREPS
from qg_studio.export.distractor_words import PRONOUNS
from qg_studio.export.distractor_words import TIME_NOUNS
from qg_studio.export.distractor_words import TIME_PREPS
from qg_studio.export.distractor_words import answer_words
from qg_studio.export.distractor_words import normalise
from qg_studio.export.distractor_words import same_answer
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.text.words import words as word_list

# -- the answer's type ----------------------------------------------------------------


@dataclass
class Distractors:
    answer: str
    kind: str  # character, place, time, feeling, number, yesno, phrase
    options: list[str]
    from_story: int  # how many of ``options`` came from the story


def answer_type(item: QAItem, pool: StoryPool) -> tuple[str, str]:
    """(kind, lead) — ``lead`` is a preposition or conjunction the options should share."""
    answer = item.answer.strip()
    low = normalise(answer)
    words = low.split()
    if item.answer_kind == AnswerKind.YESNO or low in ("yes", "no"):
        return "yesno", ""
    if words and (words[0].isdigit() or words[0] in NUMBER_WORDS) and len(words) <= 3:
        return "number", ""
    lead = ""
    if len(words) > 1 and words[0] in PLACE_PREPS | TIME_PREPS:
        lead = answer.split()[0]
    core = normalise(answer[len(lead) :]) if lead else low
    core_words = core.split()
    # "Elsa walked into the forest" ends in a place but is an event: a phrase answer.
    short = len(core_words) <= 5 and not _has_verb(answer)
    if (
        len(core_words) <= 5
        and any(w in FEELING_WORDS for w in core_words)
        and (item.element == Element.FEELING or len(core_words) <= 2)
    ):
        return "feeling", ""
    if short and (
        any(normalise(c) == core for c in pool.characters)
        or (core_words and core_words[-1] in CHARACTER_NOUNS and not lead)
    ):
        return "character", ""
    question = item.question.lower()
    # A time, then a place: asked "When/Where ...", ending in such a noun, or one the story names.
    for kind, wh, nouns, named in (
        ("time", "when", TIME_NOUNS, pool.times),
        ("place", "where", PLACE_NOUNS, pool.places),
    ):
        if short and (
            question.startswith(wh)
            or core_words
            and core_words[-1] in nouns
            or any(normalise(n) == core for n in named)
        ):
            return kind, lead
    if short and item.element == Element.CHARACTER and not lead:
        return "character", ""
    return "phrase", ""


@lru_cache(maxsize=4096)
def _has_verb(text: str) -> bool:
    return any(t.pos_ in ("VERB", "AUX") for t in parse()(text))


def _number_options(answer: str, pool: StoryPool) -> list[str]:
    found = [n for n in pool.numbers]
    match = re.match(r"\d+", answer.strip())
    words = answer.split()
    rest = " ".join(words[1:])
    if match:
        value = int(match.group())
        for other in (value + 1, value - 1, value * 2, value + 2, value + 10):
            if other >= 0 and other != value:
                found.append(f"{other} {rest}".strip())
    else:
        names = lang.function_words("counting")
        head = words[0].lower() if words else ""
        if head in names:
            i = names.index(head)
            for j in (i + 1, i - 1, i + 2, i + 3, i - 2):
                if 0 <= j < len(names):
                    found.append(f"{names[j]} {rest}".strip())
    return found


# -- choosing ---------------------------------------------------------------------------


class DistractorFinder:
    """Distractors for every item of one story (the story is parsed once)."""

    def __init__(self, sections: Sequence[Section], answerer=None):
        self.sections = list(sections)
        self.pool = story_pool(tuple(s.text for s in self.sections))
        # With an answerer, an option it also gives for the question is true too: a
        # question with two right answers must not offer the second as "wrong".
        self.answerer = answerer

    def _also_right(self, item: QAItem) -> list[str]:
        if self.answerer is None:
            return []
        try:
            reply = self.answerer.answer([item.question], self.sections, [item.sections or None])[0]
        except Exception:  # no answerer here: the gold answers still rule options out
            return []
        return [a for a in reply.answers if a.strip()]

    def find(self, item: QAItem, n: int = 3) -> Distractors:
        answer = item.answer.strip()
        kind, lead = answer_type(item, self.pool)
        rights = [a for a in [*item.answers, *item.second_answers] if a.strip()]
        if kind == "yesno":
            other = "No" if normalise(answer) == "yes" else "Yes"
            return Distractors(answer, kind, [_shape_like(other, answer)], 1)
        story, fallback = self._candidates(item, kind, lead, answer)
        also_right = self._also_right(item)
        chosen: list[str] = []
        from_story = 0
        for source, candidates in ((True, story), (False, fallback)):
            for candidate in candidates:
                if len(chosen) >= n:
                    break
                candidate = _shape_like(candidate, answer)
                if any(same_answer(candidate, right) for right in rights) or any(
                    is_true(candidate, reply) for reply in also_right
                ):
                    continue
                if any(same_answer(candidate, other) for other in chosen):
                    continue
                if _echoes(candidate, item.question):
                    continue
                chosen.append(candidate)
                from_story += int(source)
        return Distractors(answer, kind, chosen, from_story)

    def _candidates(
        self, item: QAItem, kind: str, lead: str, answer: str
    ) -> tuple[list[str], list[str]]:
        pool = self.pool
        if kind == "character":
            return _by_item_sections(pool.characters, item, self.sections), FALLBACK_CHARACTERS
        if kind in ("place", "time"):
            story = pool.places if kind == "place" else pool.times
            fallback = FALLBACK_PLACES if kind == "place" else FALLBACK_TIMES
            if lead and kind == "place":
                story = [_with_lead(lead, c) for c in story]
                fallback = [_with_lead(lead, c) for c in fallback]
            return _by_item_sections(story, item, self.sections), fallback
        if kind == "feeling":
            return _feeling_swaps(answer, pool.feelings), _feeling_swaps(answer, FALLBACK_FEELINGS)
        if kind == "number":
            return _number_options(answer, pool), []
        return self._phrase_candidates(item, answer), list(pool.sentences)

    def _phrase_candidates(self, item: QAItem, answer: str) -> list[str]:
        doc = parse()(answer)
        tokens = [t for t in doc if not t.is_punct]
        if not tokens:
            return []
        first = tokens[0]
        prefix = ""
        body = tokens
        if first.lower_ in CLAUSE_LEADS and len(tokens) > 1:
            prefix, body = first.text, tokens[1:]
        elif first.lower_ == "to" and len(tokens) > 1:
            prefix, body = first.text, tokens[1:]
        head = body[0]
        if prefix.lower() == "to":
            want = "base"
        elif head.pos_ in ("VERB", "AUX") and head.dep_ in ("ROOT", "aux", "auxpass", "neg"):
            want = "base" if head.tag_ == "VB" else "predicate"
        else:
            want = "clause"
        size = len(body)
        evidence_words = answer_words(" ".join(e.text for e in item.evidence))
        phrases = [p for p in self.pool.phrases if p.kind == want]
        if not phrases:
            phrases = [p for p in self.pool.phrases if p.kind in ("clause", "predicate")]
        seed = _seed(item.question)

        def rank(p: Phrase) -> tuple:
            n = len(p.text.split())
            overlap = len(answer_words(p.text) & evidence_words)
            return (
                abs(n - size) > max(3, size),
                overlap,
                abs(n - size),
                (p.sentence * 7919 + seed) % 101,
            )

        out: list[str] = []
        used_sentences: set[int] = set()
        for phrase in sorted(phrases, key=rank):
            if phrase.sentence in used_sentences:
                continue
            used_sentences.add(phrase.sentence)
            out.append(f"{prefix} {phrase.text}".strip() if prefix else phrase.text)
        return out


# An option whose content words overlap the answerer's reply this much (F1) says what the
# reply says. Content words only: "the king" and "the Traveler" share "the", which made
# half of all character options "true" when whole tokens were compared.
TRUE_AGREEMENT = 0.5


def is_true(candidate: str, reply: str) -> bool:
    """Whether ``candidate`` says what the answerer's reply says (so it is no wrong option)."""
    if same_answer(candidate, reply):
        return True
    mine, theirs = answer_words(candidate), answer_words(reply)
    shared = len(mine & theirs)
    return bool(shared) and 2 * shared / (len(mine) + len(theirs)) >= TRUE_AGREEMENT


def _echoes(candidate: str, question: str) -> bool:
    """An option made of the question's own words gives itself away as wrong."""
    words = answer_words(candidate)
    return bool(words) and len(words & answer_words(question)) / len(words) >= 0.6


def _by_item_sections(
    candidates: list[str], item: QAItem, sections: Sequence[Section]
) -> list[str]:
    """Candidates named in the item's own sections first: the most plausible confusions."""
    own = " ".join(s.text.lower() for s in sections if s.id in item.sections)
    return sorted(candidates, key=lambda c: (c.lower() not in own,))


def _with_lead(lead: str, candidate: str) -> str:
    first = candidate.split()[0].lower() if candidate.split() else ""
    if first in PLACE_PREPS | TIME_PREPS:
        return candidate
    return f"{lead} {candidate}"


def _feeling_swaps(answer: str, feelings: Iterable[str]) -> list[str]:
    """The answer with its feeling word replaced by feelings of other groups."""
    words = word_list(answer)
    own = {FEELING_WORDS[w] for w in words if w in FEELING_WORDS}
    target = next((w for w in words if w in FEELING_WORDS), None)
    out: list[str] = []
    taken: set[str] = set(own)
    for feeling in feelings:
        group = FEELING_WORDS.get(feeling.lower())
        if group is None or group in taken:
            continue
        taken.add(group)
        if target is None:
            out.append(feeling)
        else:
            out.append(re.sub(rf"\b{re.escape(target)}\b", feeling, answer, count=1, flags=re.I))
    return out


def _shape_like(candidate: str, answer: str) -> str:
    """Match the answer's capital letter and final full stop, so no option stands out."""
    candidate = candidate.strip().rstrip(".!?;,")
    # a phrase cut inside a quotation loses its stray quote marks
    if candidate.count('"') % 2:
        candidate = candidate.replace('"', "")
    if candidate.count("“") != candidate.count("”"):
        candidate = candidate.replace("“", "").replace("”", "")
    candidate = " ".join(candidate.split())
    if not candidate:
        return candidate
    first = candidate.split()[0]
    if (
        first.lower() in DETERMINERS
        or first.lower() in CLAUSE_LEADS
        or first.lower() in (PLACE_PREPS | TIME_PREPS)
        or first.lower() in PRONOUNS
    ):
        if answer[:1].isupper():
            candidate = candidate[0].upper() + candidate[1:]
        elif answer[:1].islower() and first.lower() != "i":
            candidate = candidate[0].lower() + candidate[1:]
    elif answer[:1].isupper() and candidate[:1].islower():
        candidate = candidate[0].upper() + candidate[1:]
    if answer.rstrip().endswith("."):
        candidate += "."
    return candidate


def _seed(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16)


def answer_position(question: str, n_options: int) -> int:
    """Where the right answer goes among the options: fixed per question, spread over all."""
    return _seed(question) % max(n_options, 1)
