"""Why a main character acts as they do once the story turns: the event told just before
their deed, when the text gives no reason itself ("Why did the Goat lower her horns?",
implicit), and only an event that can set a deed off: not their own deed before, what
stood around it, a habit, their age or what they wanted (causal.aim asks that)."""

from __future__ import annotations

from qg_studio import lang
from qg_studio.generation.cast import character_key
from qg_studio.generation.causes import gives_reason
from qg_studio.generation.items import found_item
from qg_studio.reading.clauses import usable
from qg_studio.reading.deeds import NOT_DEEDS
from qg_studio.reading.grammar import ANSWER_TAIL
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import STATE_VERBS
from qg_studio.reading.lexicon import WANTS
from qg_studio.reading.moments import done_long_before
from qg_studio.reading.moments import in_progress
from qg_studio.schema import Element
from qg_studio.schema import QAItem

# Seeing, saying, being and going: not acting on the story's turn.
NON_ACTION_VERBS = lang.words("non_action_verbs.txt")
NOBODY = lang.function_words("negative_quantifiers")


def _own_deed(cause, clause) -> bool:
    """Whether ``cause`` is what the actor of ``clause`` (alone or with others) did."""
    who = character_key(cause.subject_text)
    return (
        (
            who == character_key(clause.subject_text)
            or who.split()[:1] in (["they"], ["we"])
            or _group_of(cause.subject_head, clause.subject_head)
        )
        and cause.head.lemma_ not in NOT_DEEDS
        # What they could not do is a reason; what they did not do ("She did not knead
        # out the air. Then she slipped the bowl into the kiln") is their own choice.
        and not any(t.tag_ == "MD" for t in cause.aux)
    )


def _background(cause) -> bool:
    """What stands or goes on around a deed is no reason for it: "the strange woman lived
    with him there", "the Rabbit was waiting with a bowl of clover". A condition is ("the
    room was dark"). (Nor is what the paragraph before ends on: a new paragraph turns to
    the next thing, "Maren's seeds had rotted. ¶ Lotte planted her seeds".)"""
    return (
        (cause.head.lemma_ in STATE_VERBS and cause.head.lemma_ != "be")
        or in_progress(cause)
        or _as_always(cause)  # what is done every day sets no moment off
        # "A merchant had ordered a coat. The tailor lay in bed with a fever": before the
        # story's moment, not what set it off.
        or done_long_before(cause.head)
        # "She was only six": how old one is, no moment that sets a deed off.
        or (cause.head.lemma_ == "be" and any(t.like_num for t in cause.tail))
        # "The Oak said nothing for a long time": what was not done sets nothing off, nor
        # what only could be ("a lamb could fall into one and never come out").
        or any(t.dep_ == "dobj" and t.lower_ in NOBODY for t in cause.tail)
        or cause.negated
        or any(t.tag_ == "MD" for t in cause.aux)
        # a verb joined to a "could" with no helper of its own shares it ("could fall …
        # and never come out"); "could not dive, and soon he was thin" tells what was.
        or (
            cause.head.dep_ == "conj"
            and cause.head.tag_ == "VB"
            and any(t.tag_ == "MD" for t in cause.head.head.children)
        )
    )


def _group_of(group, one) -> bool:
    """Whether a plural subject names the one character among others of its kind: "the
    two goats" for "the white goat"."""
    return (
        group is not None
        and one is not None
        and group.tag_ in ("NNS", "NNPS")
        and group.lemma_.lower() == one.lemma_.lower()
    )


def _as_always(clause) -> bool:
    """ "drove the goats onto the bridge as usual": a habit has no reason in the moment."""
    return any(
        t.lower_ in ("usual", "always", "ever", "before") and t.nbor(-1).lower_ == "as"
        for t in clause.tail
        if t.i > 0
    )


def why_act(sections, analyses, cast, ids, found) -> QAItem | None:
    """Why a main character acts as they do once the story turns: "Why did the Goat lower
    her horns?" — the event told just before answers it (implicit: the text does not say
    "because")."""
    if found is None:
        return None
    at, turn, _ = found
    keys = {character_key(c) for c in cast[:3]}
    section, analysis = sections[at], analyses[at]
    for index in range(turn + 1, min(turn + 4, len(analysis.sentences))):
        for clause in analysis.sentence_clauses[index]:
            if (
                clause.head.dep_ != "ROOT"
                or clause.head.pos_ != "VERB"
                or clause.head.lemma_ in NON_ACTION_VERBS
                # "She wanted ten pounds for a feast": a wish, no act the moment set off
                or clause.head.lemma_ in WANTS
                # "On the other side sat a small boy": one brought on, not acting
                or any(t.i > clause.head.i for t in clause.subject)
                or clause.head.i in analysis.quoted
                or character_key(clause.subject_text) not in keys
                or not clause.tail
                or any(t.dep_ == "neg" for t in clause.aux)
                or _as_always(clause)
                # "But a gull was standing over it": what was going on when one came is
                # no deed the moment before set off.
                or in_progress(clause)
                # "Pip had chased a dragonfly": done before what was told just before it
                or done_long_before(clause.head)
                # "The goat stayed home, as she was tired": the text tells why itself.
                or any(gives_reason(c) for c in analysis.sentence_clauses[index])
            ):
                continue
            # The event just before: earlier in this sentence ("When a fox came sniffing,
            # Pip rolled into a ball") or, when the sentence opens with the act, the
            # sentence before. One that cannot be read is not replaced by a guess.
            same = [
                c
                for c in analysis.sentence_clauses[index]
                if c.head.i < clause.head.i and c.head.i not in analysis.quoted
            ]
            # Of the sentence before, the nearest event that can be a cause ("The flame
            # went out, and the room was dark"; "The cat saw the dogs and ran up the oak").
            before = (
                [c for c in same if usable(c)][-1:]
                if same
                else [
                    c
                    for c in reversed(analysis.sentence_clauses[index - 1])
                    if usable(c)
                    and c.head.dep_ in ("ROOT", "conj")
                    and c.head.i not in analysis.quoted
                ]
            )
            question = ask(clause, "Why")
            if not question or len(question.split()) > 14:
                continue
            # What the same character (or "they", with them) did just before is what came
            # first, not why: "They both set out again" does not answer "Why did the cat
            # turn back?". A cause happens to them ("When a fox came sniffing, Pip rolled"),
            # is what they saw, heard, thought or wanted ("the cat saw the dogs"), or what
            # they could not do ("the Otter could not dive").
            cause = next(
                (
                    c
                    for c in before
                    if not _own_deed(c, clause)
                    and not _background(c)
                    and "\n" not in analysis.text[c.end_char : clause.start_char]
                ),
                None,
            )
            # "She wanted to help. She climbed onto the wall": what she wanted is why, and
            # causal.aim asks it.
            if cause is None or any(
                c.head.lemma_ in WANTS
                and character_key(c.subject_text) == character_key(clause.subject_text)
                for c in before
            ):
                continue
            return found_item(
                question,
                state(cause, tense_past=True, limit=ANSWER_TAIL),
                Element.CAUSAL,
                False,
                section,
                cause.start_char,
                cause.end_char,
                0.65,
                ids,
                rule="story.why_act",
            )
    return None
