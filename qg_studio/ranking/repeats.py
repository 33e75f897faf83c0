"""Questions that ask the same thing: near-duplicates within a set, repeats of the
project's saved questions.

Two questions ask the same thing when they read the same after normalising, or, with the
sentence encoder (MiniLM, :mod:`qg_studio.models.embeddings`), when they embed nearly alike, or
close and expecting the same answer (:func:`same_question`). Without the encoder the
surface checks still hold.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache
from typing import Sequence

from qg_studio.schema import QAItem
from qg_studio.text.words import words as word_list

DUPLICATE_COSINE = 0.8
SAME_WORDING = 0.95
SAME_ANSWER_COSINE = 0.55


_encoder_loading: list[threading.Thread] = []


def warm_encoder() -> None:
    """Start loading the sentence encoder in the background.

    Loading it takes seconds on a small CPU; a caller that will rank questions soon
    (the CLI, the pipeline) starts it before sectioning and parsing, so the two
    overlap. :func:`dedupe` waits for it.
    """
    if _encoder_loading:
        return

    def load() -> None:
        try:
            from qg_studio.models.embeddings import _load

            _load()
        except Exception:  # dedupe reports nothing and falls back to surface checks
            pass

    thread = threading.Thread(target=load, name="qg-encoder-warmup", daemon=True)
    _encoder_loading.append(thread)
    thread.start()


def wait_for_encoder() -> None:
    for thread in _encoder_loading:
        thread.join()


def _norm(text: str) -> str:
    return " ".join(word_list(text))


def dedupe(
    items: Sequence[QAItem], threshold: float = DUPLICATE_COSINE, use_embeddings: bool = True
) -> list[QAItem]:
    """Keep the best-ranked item of each group asking the same thing (:func:`repeat_groups`)."""
    return [group[0] for group in repeat_groups(items, threshold, use_embeddings)]


def repeat_groups(
    items: Sequence[QAItem], threshold: float = DUPLICATE_COSINE, use_embeddings: bool = True
) -> list[list[QAItem]]:
    """The items grouped by what they ask, best-ranked first within and across groups.

    Two items ask the same thing when their questions read the same (after normalising;
    the second is dropped, it offers nothing), when their questions embed nearly alike,
    when they embed within ``threshold`` cosine and expect the same answer, or when they
    share element and answer and their questions are close. A set takes one item of a
    group; which one can depend on the mix ("How did the giant feel when he threw the
    stone?" and "Why did the giant throw the stone?" ask one fact as two elements).
    """
    ordered = sorted(items, key=lambda i: -(i.scores.rank or 0.0))
    groups: list[list[QAItem]] = []
    seen_q: set[str] = set()
    by_answer: dict[tuple[str, str], list[QAItem]] = {}
    for item in ordered:
        key = _norm(item.question)
        answer_key = (item.element.value, _norm(item.answer))
        if key in seen_q:
            continue
        seen_q.add(key)
        # A name can answer many questions ("Who ...? Mira"); a longer answer
        # given twice under one element means the same thing was asked twice.
        if len(answer_key[1].split()) >= 3 and answer_key in by_answer:
            by_answer[answer_key].append(item)
            continue
        # Against every member: "Why did Pip sniff the air?" mirrors a group's second
        # member, not the "What important thing happened?" that leads it.
        twin = next(
            (
                g
                for g in groups
                if any(mirrored(m, item) or same_moment(m, item) or same_fact(m, item) for m in g)
            ),
            None,
        )
        if twin is not None:
            twin.append(item)
            continue
        group = [item]
        by_answer.setdefault(answer_key, group)
        groups.append(group)
    if not use_embeddings or len(groups) < 2:
        return groups
    wait_for_encoder()
    try:
        from qg_studio.models.embeddings import embed

        vectors = embed([g[0].question for g in groups])
    except Exception:  # no encoder installed: the surface checks above still hold
        return groups
    out: list[list[QAItem]] = []
    chosen: list[int] = []
    for index, group in enumerate(groups):
        if chosen:
            sims = vectors[chosen] @ vectors[index]
            same = next(
                (
                    n
                    for n, (other, sim) in enumerate(zip(chosen, sims))
                    if same_question(groups[other][0], group[0], float(sim), threshold)
                ),
                None,
            )
            if same is not None:
                out[same].extend(group)
                continue
        chosen.append(index)
        out.append(group)
    return out


def mirrored(a: QAItem, b: QAItem) -> bool:
    """Two sides of one fact, each question holding the other's answer: "Who worked from
    dawn to dusk? – the Beaver" and "What did the Beaver do? – worked from dawn to dusk"."""
    a_answer, b_answer = _fact_words(a.answer), _fact_words(b.answer)
    return bool(
        a_answer
        and b_answer
        and a_answer <= _fact_words(b.question)
        and b_answer <= _fact_words(a.question)
    )


@lru_cache(maxsize=4096)
def _fact_words(text: str) -> frozenset[str]:
    # Read once a text: a story's candidates are compared with every group so far.
    from qg_studio.reading.analysis import content
    from qg_studio.reading.inflect import lemma_of
    from qg_studio.text.words import stem

    # "the bell rang" answers "Why did the bell ring?": verbs compared by their lemma;
    # "shared" strips to "shar", so a stem's last "e" goes too ("share").
    return frozenset(stem(lemma_of(w)).removesuffix("e") for w in content(text))


# Evidence this close is one sentence or the next: "the fish" and "went down into the
# water" are two spans of one fact; characters a sentence long or more apart are two.
NEAR = 40
ANSWER_TOLD = 0.5  # share of an answer's words the other item must tell
SAME_FACT = 0.75  # share of the smaller fact's words the other holds: one in four may differ


def same_fact(a: QAItem, b: QAItem) -> bool:
    """One fact asked twice, whatever the elements: "Who walked along the bank? – the
    hungry Heron" beside "What happened when the sky grew dark? – the hungry Heron walked
    along the bank", or "What did the Owl do? – kept a store of acorns in an oak" beside
    "What did the Owl keep in an oak? – a store of acorns". The two come from one place
    in the story (evidence at most ``NEAR`` characters apart), and one holds nearly all
    the words of the other's question and answer (or of its answer, when that is a whole
    event)."""
    if not (a.evidence and b.evidence):
        return False
    x, y = a.evidence[0], b.evidence[0]
    gap = max(x.start, y.start) - min(x.end, y.end)
    if x.section != y.section or gap > NEAR:
        return False
    frame = _frame()
    # An answer of four words or more is an event; a shorter one may be a name that
    # answers two questions ("the three Hares" live in the meadow and are its characters).
    answers = _fact_words(a.answer), _fact_words(b.answer)
    if _holds(*answers, least=4):
        return True
    told = _told(a) - frame, _told(b) - frame
    # Each answer must be told by the other item too: "What did the Beaver do after he
    # pushed a branch toward her? – carried her to his dam" tells the push again but asks
    # what came next.
    return (
        _holds(*told, least=3)
        and len(answers[0] & told[1]) >= ANSWER_TOLD * len(answers[0])
        and len(answers[1] & told[0]) >= ANSWER_TOLD * len(answers[1])
    )


def _holds(one: frozenset[str], other: frozenset[str], least: int) -> bool:
    """Whether the larger set holds nearly all of the smaller, of ``least`` words or more."""
    small, large = sorted((one, other), key=len)
    return len(small) >= least and len(small & large) >= SAME_FACT * len(small)


def _told(item: QAItem) -> frozenset[str]:
    return _fact_words(item.question) | _fact_words(item.answer)


@lru_cache(maxsize=1)
def _frame() -> frozenset[str]:
    from qg_studio import lang

    return frozenset(lang.function_words("question_frame"))


_MOMENT = re.compile(r"\b(?:when|after|while)\b(.+)$")


@lru_cache(maxsize=4096)
def _moment(question: str) -> str:
    found = _MOMENT.search(_norm(question))
    return found.group(1) if found else ""


def same_moment(a: QAItem, b: QAItem) -> bool:
    """Two questions about one sentence asked from one moment ask one thing: "How did the
    Mole feel when the sun came out again? – grateful" and "What happened when the sun came
    out again? – the Mole thanked her"."""
    moment = _moment(a.question)
    if len(moment.split()) < 3 or moment != _moment(b.question):
        return False
    if not (a.evidence and b.evidence):
        return False
    x, y = a.evidence[0], b.evidence[0]
    return x.section == y.section and x.start < y.end and y.start < x.end


def same_question(
    a: QAItem, b: QAItem, sim: float, threshold: float = DUPLICATE_COSINE, name_answers: bool = True
) -> bool:
    """Whether two items ask the same thing, given their questions' cosine ``sim``.

    Near-identical wording asks the same thing; close wording asks the same thing only
    when it also expects the same answer ("Why did Mira cry?" and "Why did Mira laugh?"
    are two questions)."""
    from qg_studio.evaluate import token_f1

    if _norm(a.question) == _norm(b.question) or sim >= SAME_WORDING:
        return True
    if sim >= threshold and token_f1(a.answer, b.answer) >= 0.5:
        return True
    # Within a set, two close questions with one answer ask the same thing; against the
    # project's saved questions (``name_answers=False``) a name is no proof of a repeat:
    # it answers many questions ("Who ...? the giant").
    answer = _norm(a.answer)
    return (
        a.element == b.element
        and answer == _norm(b.answer)
        and (name_answers or len(answer.split()) >= 3)
        and sim >= SAME_ANSWER_COSINE
    )


def drop_repeats(
    new_items: Sequence[QAItem], existing_items: Sequence[QAItem], use_embeddings: bool = True
) -> list[QAItem]:
    """The new items that ask nothing the project already asks.

    A repeat reads the same after normalising, or (with the sentence encoder) asks the
    same thing as :func:`same_question` judges it. Generate and regenerate pass the
    story's saved questions here, so a second run never saves a question twice."""
    existing = [i for i in existing_items if i.question.strip()]
    if not existing:
        return list(new_items)
    seen = {_norm(i.question) for i in existing}
    fresh = [i for i in new_items if _norm(i.question) not in seen]
    if not use_embeddings or not fresh:
        return fresh
    wait_for_encoder()
    try:
        from qg_studio.models.embeddings import embed

        old = embed([i.question for i in existing])
        new = embed([i.question for i in fresh])
    except Exception:  # no encoder installed: the surface check above still holds
        return fresh
    sims = new @ old.T
    return [
        item
        for row, item in zip(sims, fresh)
        if not any(
            same_question(old_item, item, float(sim), name_answers=False)
            for old_item, sim in zip(existing, row)
        )
    ]
