"""Why someone did what another told them to: a deed that follows a bidding.

'"Jump down and taste it," said the Fox. … The Goat jumped into the well' gives "Why did
the Goat jump into the well? – the Fox told her to jump down": the story never says
"because", so the child must join the speech to the deed (implicit). It is the fable's
turn as often as not: a flatterer's "Spread your tail wide" and the tail spread.

Only a bidding the narration then tells done, by someone other than the speaker, in the
next few sentences, and by the same verb: "Come with us" followed by "she followed them"
is left alone, as the verbs do not say they are one deed.
"""

from __future__ import annotations

from qg_studio.generation.items import found_item
from qg_studio.generation.speech import Speech
from qg_studio.generation.speech import speeches
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import words
from qg_studio.reading.lexicon import OBJECT_FORM
from qg_studio.reading.lexicon import POSSESSIVE_FORM
from qg_studio.reading.lexicon import REFLEXIVE_FORM
from qg_studio.reading.noun_phrases import SUBJECT_ROLES
from qg_studio.reading.subjects import possessive
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section

# How far a deed may follow the speech that bade it (sentences).
REACH = 3
# Inferred, but from two sentences the text gives: as high as a feeling read from a deed.
CONFIDENCE = 0.65
# What hangs from a bidden verb but is not the deed bidden: "jump down [and taste it]",
# "spread it wide[, so I can see]".
_NOT_BIDDEN = {"conj", "cc", "advcl", "punct", "parataxis", "npadvmod", "intj", "mark"}
_ASKING = ("please", "pray")


def bidding_items(section: Section, analysis: Analysis) -> list[QAItem]:
    out = []
    for speech in speeches(analysis):
        for bidden in _biddings(speech):
            at = analysis.sentence_index(bidden.idx)
            later = [
                c
                for cl in analysis.sentence_clauses[at + 1 : at + 1 + REACH]
                for c in cl
                if c.head.i not in analysis.quoted
            ]
            done = next((c for c in later if _does(c, bidden, speech)), None)
            if done is not None:
                out.append(_item(section, analysis, speech, bidden, done))
                break
    return [i for i in out if i is not None]


def _biddings(speech: Speech) -> list:
    """The verbs of a speech said as orders: a verb in its bare form with no subject, at
    the head of its sentence or of what is said, or joined to one that is ("Jump down and
    taste it")."""
    said = {t.i for t in speech.tokens}
    return [
        t
        for t in speech.tokens
        if t.tag_ == "VB"
        and t.pos_ == "VERB"
        and t.dep_ in ("ROOT", "conj", "ccomp")
        and not any(c.dep_ in ("nsubj", "aux") for c in t.children)
        and (
            t.dep_ == "ROOT"
            # '"Mark your path," said the Tortoise': the saying verb is the head
            or (t.dep_ == "ccomp" and t.head.i == speech.verb.i)
            or (t.dep_ == "conj" and t.head.i in said and t.head.tag_ == "VB")
        )
    ]


def _does(clause: Clause, bidden, speech: Speech) -> bool:
    return (
        clause.head.lemma_ == bidden.lemma_
        and usable(clause)
        and not clause.negated
        and clause.subject_text not in ("", speech.who)
    )


def _item(
    section: Section, analysis: Analysis, speech: Speech, bidden, done: Clause
) -> QAItem | None:
    question = ask(done, "Why")
    if not question:
        return None
    pronoun = analysis.resolver.pronoun_for(done.subject_text)
    whom = OBJECT_FORM.get(pronoun or "", done.subject_text)
    phrase = _bidden_phrase(
        bidden,
        (analysis.resolver.pronoun_for(speech.who), speech.who),
        (pronoun, done.subject_text),
    )
    if phrase is None:
        return None
    asks = speech.verb.lemma_ in ("ask", "beg", "plead") or any(
        t.lower_ in _ASKING for t in speech.tokens
    )
    answer = f"{speech.who} {'asked' if asks else 'told'} {whom} to {phrase}"
    start = min(speech.tokens[0].idx, done.start_char)
    return found_item(
        question,
        answer,
        Element.CAUSAL,
        False,
        section,
        start,
        done.end_char,
        CONFIDENCE,
        rule="causal.bidden",
    )


def _bidden_phrase(
    verb, speaker: tuple[str | None, str], bidden: tuple[str | None, str]
) -> str | None:
    """The bidding as the narrator retells it, each (pronoun, mention) in the third person:
    "sing me one song" said by the Weasel is "sing him one song" ("sing the Weasel one song"
    where the story never says he), "say it to yourself" to the Squirrel "say it to
    himself"."""
    kept = [verb]
    for child in verb.children:
        if child.dep_ not in _NOT_BIDDEN:
            kept += list(child.subtree)
    if any(t.lower_ in ("i", "you", "we") and t.dep_ in SUBJECT_ROLES for t in kept):
        return None  # "tell him you are sorry": its verb would have to change too
    (mine, me), (yours, you) = speaker, bidden
    retold = {
        "me": OBJECT_FORM.get(mine or "", me),
        "us": "them",
        "my": POSSESSIVE_FORM.get(mine or "", possessive(me)),
        "our": "their",
        "you": OBJECT_FORM.get(yours or "", you),
        "your": POSSESSIVE_FORM.get(yours or "", possessive(you)),
        "yourself": REFLEXIVE_FORM.get(yours or "", you),
        "yourselves": "themselves",
    }
    said = words(sorted(kept, key=lambda t: t.i)).lower().split()
    return " ".join(retold.get(w, w) for w in said)
