"""Score candidate questions, drop near-duplicates and weak ones, and fill the request.

Any engine's candidates go through here: the score mixes the engine's confidence,
surface checks a child's worksheet needs (length, no repeated words, answer not
given away) and, when the pipeline ran the round trip, answerability. Selection then
fills the teacher's request: a total or a number per section, an element mix (or
balanced), and a share of implicit questions, spreading picks across sections.
"""

from __future__ import annotations

from collections import Counter
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable
from typing import Sequence

from qg_studio.ranking.learned import LearnedRanker
from qg_studio.ranking.repeats import repeat_groups
from qg_studio.ranking.share import swap_for_share
from qg_studio.ranking.targets import element_targets
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.schema import section_texts
from qg_studio.scores import ANSWERABILITY_FLOOR
from qg_studio.text.words import words as word_list

QUALITY_FLOOR = 0.3  # under it a question reads badly: no "?", too short, no answer
PLACE_TWICE = frozenset({"on", "in", "at", "into", "onto", "inside", "upon"})


@dataclass(frozen=True)
class RankWeights:
    """How a candidate's rank is made and spent (:func:`score_items`, :func:`select`).

    The rank orders the candidates a set is filled from: mostly what the engine believes
    of its own question, tempered by how the question reads on a worksheet; once the
    round trip has run, by whether the answerer finds the answer too."""

    confidence: float = 0.55  # the engine's confidence: it knows what it meant to ask
    quality: float = 0.45  # surface quality (:func:`quality`): what a child reads
    answerability: float = 0.3  # the round trip's share once it ran; the rank keeps the rest
    unknown_confidence: float = 0.5  # an engine that states none: neither sure nor unsure
    # Rank given up for each question already picked from the same section(s), so that a
    # set covers the whole story rather than its richest section.
    section_spread: float = 0.08
    # Rank given up for each question already picked whose answer holds this one's (or the
    # other way round): four questions answered "built a new nest beside the oak tree"
    # ask about one event, and a set should ask about the story's many.
    same_answer: float = 0.3
    # What an explicit question keeps of its rank when the answerer cannot find its answer:
    # flagged, not dropped (a one-word answer the span answerer misses is often right).
    unanswerable: float = 0.5


@dataclass(frozen=True)
class QualityPenalties:
    """What :func:`quality` takes off a question's 1.0 for a child's worksheet."""

    min_words: int = 3  # fewer words, or no question mark: not a question (0.0)
    long_words: int = 16  # past this, each word costs per_long_word ...
    per_long_word: float = 0.04
    max_long: float = 0.5  # ... up to this much
    short_words: int = 5  # a question under this many words says too little
    short: float = 0.15
    repeat: float = 0.1  # each extra use of a word of more than 3 letters: "the king's king"
    long_answer_words: int = 20  # an answer past this is a passage, not an answer
    long_answer: float = 0.2
    no_evidence: float = 0.3  # nothing in the story shows where the answer is
    # "Where did the Pigeon shiver on?" asks its place twice: garbled ("come from" is not).
    place_twice: float = 0.4


RANK_WEIGHTS = RankWeights()
QUALITY_PENALTIES = QualityPenalties()


def quality(item: QAItem, penalties: QualityPenalties = QUALITY_PENALTIES) -> float:
    """Surface fitness of a question for a child's worksheet, in [0, 1]."""
    p = penalties
    q = item.question
    words = word_list(q)
    n = len(words)
    if not q.endswith("?") or n < p.min_words:
        return 0.0
    score = 1.0
    if n > p.long_words:
        score -= min(p.max_long, p.per_long_word * (n - p.long_words))
    if n < p.short_words:
        score -= p.short
    repeats = sum(c - 1 for w, c in Counter(words).items() if c > 1 and len(w) > 3)
    score -= p.repeat * repeats
    if not item.answers or not item.answer.strip():
        return 0.0
    if len(item.answer.split()) > p.long_answer_words:
        score -= p.long_answer
    if not item.evidence:
        score -= p.no_evidence
    if words[0] == "where" and words[-1] in PLACE_TWICE:
        score -= p.place_twice
    return max(0.0, min(1.0, score))


def rank_of(item: QAItem) -> float:
    """The item's rank; 0.0 before :func:`score_items` has set it."""
    return item.scores.rank or 0.0


def score_items(
    items: Sequence[QAItem],
    weights: RankWeights = RANK_WEIGHTS,
    ranker: LearnedRanker | None = None,
    story_text: str = "",
) -> None:
    """Set ``scores.rank`` (and ``scores.quality``) on every item: the learned ranker's
    probability when one is given (it reads the story's words), else the hand-set mix."""
    w = weights
    if ranker is not None:
        for item in items:
            item.scores.quality = round(quality(item), 3)
        for item, p in zip(items, ranker.score(items, story_text)):
            item.scores.rank = round(p, 4)
        return
    for item in items:
        q = quality(item)
        confidence = item.scores.confidence
        if confidence is None:
            confidence = w.unknown_confidence
        rank = w.confidence * confidence + w.quality * q
        answerability = item.scores.answerability
        if answerability is not None:
            rank = (1 - w.answerability) * rank + w.answerability * answerability
        item.scores.quality = round(q, 3)
        item.scores.rank = round(rank, 4)


def select(
    items: Sequence[QAItem],
    request: GenerationRequest,
    sections: Sequence[Section],
    twins: dict[int, int] | None = None,
) -> list[QAItem]:
    """Fill the request from ranked, deduplicated candidates, in story order. ``twins``
    maps ``id(item)`` to its group of items asking the same thing
    (:func:`~qg_studio.ranking.repeats.repeat_groups`): a set takes one of a group, the
    one its mix needs; by default every item is its own group."""
    group = _group_of(twins)
    if request.per_section is not None:
        out: list[QAItem] = []
        by_section: dict[int, list[QAItem]] = defaultdict(list)
        for item in items:
            by_section[item.sections[0] if item.sections else 0].append(item)
        for offset, section in enumerate(sections):
            pool = by_section.get(section.id, [])
            out.extend(_fill(pool, request, request.per_section, offset, group))
        return _story_order(out)
    total = request.total(len(sections))
    return _story_order(_fill(list(items), request, total, 0, group))


def _group_of(twins: dict[int, int] | None) -> Callable[[QAItem], int]:
    if twins is None:
        return id
    return lambda item: twins.get(id(item), id(item))


def _fill(
    pool: list[QAItem],
    request: GenerationRequest,
    total: int,
    offset: int,
    group: Callable[[QAItem], int] = id,
) -> list[QAItem]:
    if total <= 0 or not pool:
        return []
    pool = sorted(pool, key=lambda i: -rank_of(i))
    available = Counter(i.element for i in pool)
    targets = element_targets(request, total, available, offset)
    total = min(total, sum(targets.values())) if isinstance(request.elements, dict) else total
    want_implicit = round(total * request.implicit_share)
    picked: list[QAItem] = []
    taken: set[int] = set()
    taken_groups: set[int] = set()
    per_element: Counter = Counter()
    per_section: Counter = Counter()
    # Each answer's content words, read once: best() compares them with every pick.
    words = {id(item): _answer_words(item) for item in pool}

    def best(predicate) -> QAItem | None:
        # Prefer sections with fewer picks so questions cover the whole story.
        candidates = [
            (i, item)
            for i, item in enumerate(pool)
            if i not in taken and group(item) not in taken_groups and predicate(item)
        ]
        # A question whose answer the round trip could not find comes only when no
        # other one will do: a right key outweighs any rank.
        candidates = [c for c in candidates if not c[1].scores.unanswerable] or candidates
        if not candidates:
            return None
        index, item = max(
            candidates,
            key=lambda c: (
                rank_of(c[1])
                - RANK_WEIGHTS.section_spread * per_section[tuple(c[1].sections)]
                - RANK_WEIGHTS.same_answer
                * sum(_same_event(words[id(c[1])], words[id(p)]) for p in picked)
            ),
        )
        taken.add(index)
        taken_groups.add(group(item))
        return item

    def room(item: QAItem, slack: int = 0) -> bool:
        return per_element[item.element] < targets.get(item.element, 0) + slack

    def take(item: QAItem) -> None:
        picked.append(item)
        per_element[item.element] += 1
        per_section[tuple(item.sections)] += 1

    def implicit_count() -> int:
        return sum(i.explicitness == Explicitness.IMPLICIT for i in picked)

    whole_story = request.per_section is None
    if whole_story:
        # A set about a story asks at least one question about the story as a whole.
        # A share of 0 or 1 is a hard request: no question of the other kind gets in.
        either = 0 < want_implicit < total
        only = Explicitness.IMPLICIT if want_implicit >= total else Explicitness.EXPLICIT

        def allowed(it: QAItem) -> bool:
            return either or it.explicitness == only

        item = best(
            lambda it: it.scores.story_level and targets.get(it.element, 0) > 0 and allowed(it)
        )
        if item is not None:
            take(item)
        # Every element asked for gets its first question before any gets a second,
        # the scarcest first: a set of six action questions is not a mix.
        for element in sorted(
            (e for e, n in targets.items() if n > 0 and not per_element[e]),
            key=lambda e: available.get(e, 0),
        ):
            wanted = (
                Explicitness.IMPLICIT if implicit_count() < want_implicit else Explicitness.EXPLICIT
            )
            item = best(lambda it: it.element == element and it.explicitness == wanted) or best(
                lambda it: it.element == element and allowed(it)
            )
            if item is not None:
                take(item)
    # Implicit questions are the scarcer kind: fill their share first, letting an
    # element of a balanced set go one over its even share to reach it.
    slack = 1 if request.elements == "balanced" else 0
    while implicit_count() < want_implicit and len(picked) < total:
        item = best(lambda it: room(it, slack) and it.explicitness == Explicitness.IMPLICIT)
        if item is None:
            break
        take(item)
    while len(picked) < total:
        item = best(lambda it: room(it) and it.explicitness == Explicitness.EXPLICIT)
        if item is None:
            break
        take(item)
    # Short of the mix: any element with room (the explicitness the share still
    # needs first), then, for a balanced set or a mix of several elements, anything left:
    # a teacher asking for ten questions gets ten, told which element fell short. Asked
    # for one element alone, they get only that element.
    fill_any = request.elements == "balanced" or len(targets) > 1

    def asked_for(item: QAItem) -> bool:
        # Filling a mix, an element the teacher asked for comes before one they did not,
        # and before the implicit share.
        return targets.get(item.element, 0) > 0

    while len(picked) < total:
        wanted = (
            Explicitness.IMPLICIT if implicit_count() < want_implicit else Explicitness.EXPLICIT
        )
        item = (
            best(lambda it: room(it) and it.explicitness == wanted)
            or (best(lambda it: asked_for(it) and it.explicitness == wanted) if fill_any else None)
            or best(room)
            or (best(asked_for) if fill_any else None)
            or (best(lambda it: it.explicitness == wanted) if fill_any else None)
            or (best(lambda it: True) if fill_any else None)
        )
        if item is None:
            break
        take(item)
    if whole_story:
        rest = [it for i, it in enumerate(pool) if i not in taken]
        give = _balance_give(targets) if slack else None
        swap_for_share(picked, rest, want_implicit, group, rank_of, give)
    return picked


def _balance_give(targets: dict) -> Callable[[list[QAItem], QAItem, QAItem], bool]:
    """A balanced set's give: ``new`` may take the place of ``out``, of another element,
    where its element stays within one of its even share. An implicit question may leave
    its element without one: a fable's lesson and three elements asked only implicitly
    make four implicit questions where three were asked, and the weakest of them gives
    way to an explicit question; an explicit one leaves only an element it shares."""

    def give(picked: list[QAItem], out: QAItem, new: QAItem) -> bool:
        counts = Counter(p.element for p in picked if p is not out)
        keeps = out.explicitness == Explicitness.IMPLICIT or counts[out.element] > 0
        return keeps and counts[new.element] < targets.get(new.element, 0) + 1

    return give


def _answer_words(item: QAItem) -> frozenset[str]:
    from qg_studio.reading.analysis import content

    return frozenset(content(item.answer))


def _same_event(x: frozenset[str], y: frozenset[str]) -> bool:
    """Whether two answers tell one event: the content words of one hold the other's."""
    return bool(x and y) and (x <= y or y <= x)


def _story_order(items: list[QAItem]) -> list[QAItem]:
    return sorted(
        items, key=lambda i: (i.sections[:1] or [0], i.evidence[0].start if i.evidence else 0)
    )


def flag_unanswerable(items: Sequence[QAItem], floor: float = ANSWERABILITY_FLOOR) -> None:
    """Mark items whose round trip scored under ``floor`` and halve their rank.

    They are flagged rather than dropped: an extractive answerer's span sometimes
    disagrees with a one-word answer ("sad", "Mira") that is right, so a flagged item
    is still picked when its part of the mix has nothing better, and the teacher sees
    the flag (``scores.unanswerable``). Implicit items are held to the floor too: the
    round trip credits an answer read off the key's own sentence, so an inference
    whose reader looks elsewhere is most often keyed to the wrong event."""
    for item in items:
        answerability = item.scores.answerability
        if (1.0 if answerability is None else answerability) < floor:
            item.scores.unanswerable = True
            item.scores.rank = round(rank_of(item) * RANK_WEIGHTS.unanswerable, 4)


# The engines whose keys are written with their questions by a model (not found by reading
# rules): when the answerer cannot find such a key, the model most often made it up. On
# our 11 fables, 20 of the 26 the proposer's sets took so read wrong ("How did the Badger
# feel after the bees flew home? – thankful"); of the rules' 8, 1 did (a key a span
# answerer misses is mostly a said line or a one-word feeling).
MADE_UP_KEYS = frozenset({"proposer"})


def keep_found(items: Sequence[QAItem], need: int) -> list[QAItem]:
    """The items without the model-written keys the round trip did not find, unless fewer
    than ``need`` would be left: then the best of those come back, flagged as before."""
    found: list[QAItem] = []
    made_up: list[QAItem] = []
    for item in items:
        made = item.scores.unanswerable and item.engine in MADE_UP_KEYS
        (made_up if made else found).append(item)
    return found + sorted(made_up, key=lambda i: -rank_of(i))[: max(0, need - len(found))]


def keep_fit(items: Sequence[QAItem], need: int, floor: float = QUALITY_FLOOR) -> list[QAItem]:
    """The items fit for a worksheet; when fewer than ``need`` are, the best of the rest too,
    flagged ``scores.low_quality``.

    A weak engine (an untrained checkpoint, a model on an odd story) then still gives the
    teacher a set to see and edit, with the flag saying why it reads badly, rather than
    an empty page."""
    fit = [i for i in items if (i.scores.quality or 0.0) > floor]
    if len(fit) >= need:
        return fit
    weak = sorted(
        (i for i in items if (i.scores.quality or 0.0) <= floor), key=lambda i: -rank_of(i)
    )[: need - len(fit)]
    for item in weak:
        item.scores.low_quality = True
    return fit + weak


def rank_and_select(
    items: Sequence[QAItem],
    request: GenerationRequest,
    sections: Sequence[Section],
    use_embeddings: bool = True,
    ranker: LearnedRanker | None = None,
) -> list[QAItem]:
    items = [i for i in items if i.question.strip() and i.answers]
    score_items(items, ranker=ranker, story_text=section_texts(sections) if ranker else "")
    flag_unanswerable(items)
    need = request.total(len(sections))
    # Twice the set to choose from: repeats and the mix leave out some of any pool.
    items = keep_fit(keep_found(items, 2 * need), need)
    # Only the strongest few need the (slower) embedding check.
    items = sorted(items, key=lambda i: -i.scores.rank)
    strongest = shortlist(items, max(need * 3, 42))
    groups = repeat_groups(strongest, use_embeddings=use_embeddings)
    twins = {id(item): n for n, members in enumerate(groups) for item in members}
    return select([item for members in groups for item in members], request, sections, twins)


def shortlist(items: list[QAItem], size: int) -> list[QAItem]:
    """The best ``size`` items, keeping every element's best few of each explicitness in
    (implicit ones rank lower, and the implicit share needs some to choose from)."""
    if len(items) <= size:
        return items
    keep: list[QAItem] = []
    per_kind: Counter = Counter()
    floor = max(3, size // 14)
    for item in items:
        kind = (item.element, item.explicitness)
        if per_kind[kind] < floor:
            keep.append(item)
            per_kind[kind] += 1
    ids = {id(i) for i in keep}
    for item in items:
        if len(keep) >= size:
            break
        if id(item) not in ids:
            keep.append(item)
    return keep
