"""Feelings a story tells around a deed, and the deeds they lead to.

Stories often tell a feeling without a feeling sentence: a phrase on the deed ("the boy
ran home, full of fear", "walked to the pond in a rage") or a verb whose object feels it
("This angered the fox"). Each gives a feeling question ("How did the fox feel when the
boy laughed at him?"), and a deed that follows a feeling gives an implicit why: "Why did
the goose hide her goslings? – she grew afraid" (the text says "and", not "because").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qg_studio.generation.items import found_item
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import ANIMATE
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import finish
from qg_studio.reading.grammar import state
from qg_studio.reading.grammar import words
from qg_studio.reading.lexicon import BECOMING_VERBS
from qg_studio.reading.lexicon import CAUSING_VERBS
from qg_studio.reading.lexicon import FEELING_NOUNS
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import LINKING_VERBS
from qg_studio.reading.lexicon import OBJECT_FORM
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import POSSESSIVE_FORM
from qg_studio.reading.lexicon import REACTIONS
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import SHOWN_BY_WORD
from qg_studio.reading.lexicon import SPEECH_VERBS
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.lexicon import WEAK_VERBS
from qg_studio.reading.moments import awaited
from qg_studio.reading.moments import contrasted
from qg_studio.reading.moments import event_before
from qg_studio.reading.moments import mocks
from qg_studio.reading.moments import no_event
from qg_studio.reading.moments import passed
from qg_studio.reading.moments import shifts_time
from qg_studio.reading.phrases import of_oneself
from qg_studio.reading.phrases import span_of
from qg_studio.reading.subjects import possessive
from qg_studio.reading.subjects import subject_phrase
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section


@dataclass
class Felt:
    """A feeling the text tells: who feels it, the words that tell it (``said``), where
    (``span``), and the tokens to leave out when the deed itself is restated."""

    who: str
    said: str
    span: tuple[int, int]
    tokens: frozenset[int] = frozenset()
    adjective: bool = False  # "very sad", not "in a rage"


def can_feel(analysis: Analysis, clause: Clause) -> bool:
    """Whether the clause's subject is someone who can feel."""
    head = clause.subject_head
    if head is None:
        return True
    r = resolver = analysis.resolver
    if not (is_someone(head) or r.is_character(head) or r.name_of(head) or r.resolve(head)):
        return False  # only someone feels, not "the Princess' commands"; "the Bell" does
    # "How did Upstairs feel?": a capital is not a name.
    return not (
        head.pos_ == "PROPN"
        and not head.ent_type_
        and not resolver.name_of(head)
        and head.lemma_.lower() not in ANIMATE
    )


def emotion_items(section: Section, analysis: Analysis) -> list[QAItem]:
    """Feeling questions from feeling phrases and feeling verbs; implicit whys from the
    deeds feelings lead to."""
    out: list[QAItem | None] = []
    for clause_list in analysis.sentence_clauses:
        for clause in clause_list:
            if clause.head.i in analysis.quoted:
                continue
            out.append(_caused_feeling(section, analysis, clause_list, clause))
            if not usable(clause) or not can_feel(analysis, clause):
                continue
            out.append(_feeling_on_deed(section, analysis, clause))
            out.append(_why_deed(section, analysis, clause_list, clause))
    return [i for i in out if i is not None]


def feeling_phrase(clause: Clause) -> Felt | None:
    """ "ran home, full of fear", "walked off in a rage", "wept with joy": a feeling
    phrase on the clause's own verb (``said`` is the phrase, as the text says it)."""
    for t in clause.tail:
        if t.head.i != clause.head.i:
            continue
        lead = []
        if t.lemma_.lower() == "full":
            lead = [t] + [p for p in t.children if p.lower_ == "of"][:1]
        elif t.dep_ == "prep" and t.lower_ in ("in", "with"):
            lead = [t]
        objects = [o for o in lead[-1].children if o.dep_ == "pobj"] if len(lead) else []
        if objects and objects[0].lemma_.lower() in FEELING_NOUNS:
            noun = objects[0]
            # "with fear in his face": the feeling, not what follows it.
            phrase = lead + [c for c in noun.children if c.dep_ in ("det", "amod", "poss")]
            phrase = sorted(phrase + [noun], key=lambda x: x.i)
            if phrase[-1].i - phrase[0].i + 1 != len(phrase):
                continue
            return Felt(
                clause.subject_text, words(phrase), span_of(phrase), frozenset(x.i for x in phrase)
            )
    return feeling_adjective(clause)


def feeling_adjective(clause: Clause) -> Felt | None:
    """ "trudged home very sad", "came home angry": a feeling word on a deed."""
    if clause.head.pos_ != "VERB" or clause.head.lemma_ in BECOMING_VERBS | LINKING_VERBS:
        return None
    # "crawled onto the bank, tired": set off by a comma, though parsed as the bank's.
    detached = [
        t
        for t in clause.tail
        if t.dep_ == "amod" and t.i > 0 and t.nbor(-1).text == "," and not is_animate(t.head)
    ]
    for t in [*clause.head.children, *detached]:
        if (
            t.dep_ in ("acomp", "advcl", "oprd", "amod")
            and t.pos_ == "ADJ"
            and t.lower_ in FEELINGS
        ):
            # "very pleased with himself" is a feeling, of oneself; not "afraid of the dark"
            own = [c for c in t.children if c.dep_ == "prep" and of_oneself(c)]
            if any(c.dep_ in ("xcomp", "prep", "ccomp") and c not in own for c in t.children):
                return None  # "glad to see him", "afraid of the dark": more than a feeling
            # "climbed onto the bank, tired and ashamed": both feelings, or the question
            # keeps "and ashamed".
            also = [c for c in t.children if c.dep_ == "conj" and c.lower_ in FEELINGS]
            joins = [c for c in t.children if c.dep_ == "cc"] if also else []
            kept = [c for c in t.children if c.dep_ == "advmod"] + also + joins
            kept += [w for c in own for w in c.subtree]
            phrase = sorted([t, *kept], key=lambda x: x.i)
            if phrase[-1].i - phrase[0].i + 1 != len(phrase):
                return None
            return Felt(
                clause.subject_text,
                words(phrase),
                span_of(phrase),
                frozenset(x.i for x in phrase),
                adjective=True,
            )
    return None


def _feeling_state(clause: Clause) -> str:
    """ "she grew afraid": the feeling a state clause names, else "" (and for one that
    passed: "He was cross for a moment, and then he laughed" laughed in spite of it)."""
    if clause.head.lemma_ not in BECOMING_VERBS or passed(clause):
        return ""
    for t in clause.tail:
        if t.dep_ == "acomp" and t.head.i == clause.head.i and t.lower_ in FEELINGS:
            # "content to lie down", "anxious to see them": a wish, not what led to a deed.
            return "" if any(c.dep_ == "xcomp" for c in t.children) else t.lower_
    return ""


def _experiencer(clause: Clause) -> str:
    """Whom a feeling verb acts on ("This angered the fox": the fox), as a mention."""
    if clause.head.lemma_.lower() not in CAUSING_VERBS or clause.passive:
        return ""
    for t in clause.tail:
        if t.dep_ == "dobj" and t.head.i == clause.head.i:
            return named_someone(t, clause.resolver)
    return ""


def named_someone(token, resolver) -> str:
    """The character a word stands for, as a mention ("the fox", "Pip"; "him" resolved;
    "the miller's" as "the miller"), else "" (a thing, or a pronoun not resolved)."""
    if token.lower_ in PRONOUNS:
        return (resolver.resolve(token) if resolver else None) or ""
    if not (is_animate(token) or token.pos_ == "PROPN"):
        return ""
    name = resolver.name_of(token) if resolver is not None else None
    if name:
        return name  # "a hen called Pip" is Pip
    tokens = [x for x in token.subtree if x.i <= token.i and x.dep_ != "case"]
    if not (words(tokens)[:1].isupper() or tokens[0].dep_ in ("det", "poss")):
        return ""  # "chased hares": no one in particular
    return subject_phrase(tokens, resolver)


def feel_when(analysis: Analysis, who: str, moment: Clause, written: str = "") -> str:
    """The moment of "How did X feel when ...?", told with X as a pronoun where X is in
    it: "when the wolf chased her", "when the princess stole his cap". ``written`` is X as
    the moment says it, where that differs ("his youngest son" for the king's)."""
    when = state(moment, tense_past=True, resolver=analysis.resolver, same_as=who)
    pronoun = analysis.resolver.pronoun_for(who)
    if pronoun is None:
        return when  # "it" would do for the hare, not for the doctor: the name it is
    # The subject, if it is who feels, is a pronoun already (``same_as``).
    first, rest = when[:1], when[1:]
    rest = rest.replace(possessive(who) + " ", POSSESSIVE_FORM[pronoun] + " ")
    # A name stays a name: a pronoun learned wrong would make "forgave Denis" "forgave her".
    for said in {who, written} - {""} if who[:1].islower() else ():
        rest = re.sub(rf"\b{re.escape(said)}\b", OBJECT_FORM[pronoun], rest)
    # A pronoun comes before its verb's particle: "carried her off", not "carried off her".
    rest = re.sub(r"\b(off|away|up|out|down) (him|her|it|them)\b", r"\2 \1", rest)
    return first + rest


def _caused_feeling(section, analysis, clause_list, clause) -> QAItem | None:
    """ "The noise frightened the fox": How did the noise make the fox feel? "This
    angered the fox": How did the fox feel when (the event before)?"""
    who = _experiencer(clause)
    if not who:
        return None
    feeling = CAUSING_VERBS[clause.head.lemma_.lower()]
    heads = [t for t in clause.subject if t.dep_ in ("nsubj", "csubj")]
    sent = clause.head.sent
    explicit = feeling in sent.text.lower()
    # "The noise frightened the fox", "She pleased the prince": the one who made them
    # feel so is named; "This angered the fox": what angered him is the event before.
    cause = ""
    if heads and heads[0].pos_ in ("NOUN", "PROPN") and usable(clause):
        cause = clause.subject_text
    elif heads and heads[0].lower_ in PRONOUNS and clause.resolver is not None:
        cause = clause.resolver.resolve(heads[0]) or ""
    if cause == who:
        return None  # "it amused her": she is not what made her feel so
    if cause:
        question = finish(f"How did {cause} make {who} feel")
    else:
        before = event_before(analysis, clause_list, clause)
        if (
            before is None
            or before.subject_text == who  # "This" is what the one who feels did
            or before.negated
            or no_event(before)
        ):
            # What angered him is not told just before (speech, most often): the deed
            # it led him to is the moment ("How did the fox feel when he snapped ...?").
            before = next(
                (
                    c
                    for c in clause_list
                    if c.head.i > clause.head.i and c.subject_text == who and usable(c)
                ),
                None,
            )
            if before is None:
                return None
        question = finish(f"How did {who} feel when {feel_when(analysis, who, before)}")
    start, end = span_of(clause.tokens)
    return found_item(
        question,
        feeling,
        Element.FEELING,
        explicit,
        section,
        start,
        end,
        0.75,
        rule="feeling.caused",
    )


def _feeling_on_deed(section, analysis, clause) -> QAItem | None:
    """ "The boy ran home, full of fear": How did the boy feel when he ran home?"""
    felt = feeling_phrase(clause)
    if felt is None or not _deed_left(clause, felt):
        return None
    deed = state(
        clause,
        skip=set(felt.tokens),
        tense_past=True,
        resolver=analysis.resolver,
        same_as=clause.subject_text,
    )
    question = finish(f"How did {clause.subject_text} feel when {deed}")
    answer = (
        felt.said
        if felt.adjective
        else as_a_child_says(felt.said, clause.head.doc[max(felt.tokens)])
    )
    return found_item(
        question,
        answer,
        Element.FEELING,
        True,
        section,
        *felt.span,
        0.75,
        rule="feeling.on_deed",
    )


def as_a_child_says(said: str, noun) -> str:
    """ "in surprise", "in a great rage": as a child says it, "surprised", "angry"; "full
    of fear" reads well as it is (and is the text's own words)."""
    if said.startswith("full "):
        return said
    return SHOWN_BY_WORD.get(noun.lower_, said)


def _deed_left(clause: Clause, felt: Felt) -> bool:
    """A deed is left once the feeling is taken out: "he ran home", not "every one saw"
    (nor a state, "the country was in dread")."""
    rest = [t for t in clause.tail if t.i not in felt.tokens and not t.is_punct]
    return bool(rest) and clause.head.lemma_ not in SAYING_VERBS | BECOMING_VERBS


def _was(pronoun: str) -> str:
    return "were" if pronoun.lower() in ("they", "we", "you") else "was"


def _felt_before(analysis: Analysis, clause_list: list[Clause], clause: Clause) -> Felt | None:
    """The feeling a deed follows from, as the text tells it in the deed's own sentence:
    a phrase on the deed, a state just before it ("she grew afraid, and she hid ..."), or
    a feeling verb that acts on the doer ("This angered the fox, and he snapped ...")."""
    phrase = feeling_phrase(clause)
    if phrase is not None:
        # "trudged home very sad": how he went, not why (the why of the sadness is asked
        # instead, candidates._causal).
        if phrase.adjective or not _deed_left(clause, phrase):
            return None
        pronoun = analysis.resolver.pronoun_for(clause.subject_text) or clause.subject_text
        # "with great joy" reads as a state only as "full of joy".
        noun = clause.head.doc[max(phrase.tokens)]
        said = phrase.said if phrase.said.startswith(("in ", "full ")) else f"full of {noun.lower_}"
        said = as_a_child_says(said, noun)
        return Felt(phrase.who, f"{pronoun} {_was(pronoun)} {said}", phrase.span, phrase.tokens)
    earlier = [c for c in clause_list if c.head.i < clause.head.i]
    if not earlier:
        return _felt_just_before(analysis, clause_list, clause)
    prior = earlier[-1]
    # The deed goes on from the feeling: "she grew afraid, and she hid ...", "he was so
    # angry that he flung ..."; not a deed inside it ("sorry to say she believed").
    # "frightened, but she thanked the fox" is a deed despite the feeling.
    follows = (
        clause.head.head.i == prior.head.i
        and clause.head.dep_ == "conj"
        and clause.marker in ("and", "so")
    )
    result = clause.head.dep_ == "ccomp" and clause.head.head.head.i == prior.head.i
    if not (follows or result):
        return None
    if _feeling_state(prior) and prior.subject_text == clause.subject_text:
        deed = {t.i for t in clause.head.subtree} if result else set()
        return Felt(prior.subject_text, state(prior, skip=deed), span_of(prior.tokens))
    if follows and _experiencer(prior) == clause.subject_text:
        if usable(prior):
            # "The warning frightened the fox, and he hid in the reeds": the warning is why.
            return Felt(clause.subject_text, state(prior), span_of(prior.tokens))
        feeling = CAUSING_VERBS[prior.head.lemma_.lower()]
        pronoun = analysis.resolver.pronoun_for(clause.subject_text) or clause.subject_text
        return Felt(
            clause.subject_text, f"{pronoun} {_was(pronoun)} {feeling}", span_of(prior.tokens)
        )
    return None


def _felt_just_before(analysis: Analysis, clause_list: list[Clause], clause: Clause) -> Felt | None:
    """A feeling the sentence before ends on, the one who felt it acting first in this one:
    "The miller was very angry. He sent the boy away" (why he sent him: he was angry).
    Not across a move in time ("The Donkey was delighted. The next week he lay down …"),
    nor for a moment a time clause tells ("as soon as he reached the river"): the deed
    is what the sentence says he did then; nor for a deed set against it ("She was afraid.
    But she climbed the stairs")."""
    index = analysis.sentence_clauses.index(clause_list)
    if index == 0 or clause.head.dep_ == "advcl" or shifts_time(clause.head.sent):
        return None
    told = [c for c in analysis.sentence_clauses[index - 1] if c.head.i not in analysis.quoted]
    prior = told[-1] if told else None
    if prior is None or prior.negated or prior.subject_text != clause.subject_text:
        return None
    if not _feeling_state(prior) or contrasted(prior, clause):
        return None
    return Felt(prior.subject_text, state(prior), span_of(prior.tokens))


def _why_deed(section, analysis, clause_list, clause) -> QAItem | None:
    """Why did the goose hide her goslings? – she grew afraid (implicit)."""
    if (
        clause.head.pos_ != "VERB"
        or clause.head.lemma_ in WEAK_VERBS | SAYING_VERBS | BECOMING_VERBS
        # The reaction finder asks these already; mocking shows no feeling of its own.
        or (clause.head.lemma_ in REACTIONS and not mocks(clause.head))
        or clause.negated
        or not clause.tail
        # "For a moment she was delighted. She could see the river": what she could do,
        # or what met her eyes, is no deed the feeling drove.
        or any(t.tag_ == "MD" for t in clause.aux)
        or clause.head.lemma_ in PERCEIVING
        # '"Stay away from him," they told Pip': what they told him is in the quotes.
        or (
            clause.head.lemma_ in SPEECH_VERBS
            and any(t.i in analysis.quoted for t in clause.head.sent)
        )
    ):
        return None
    felt = _felt_before(analysis, clause_list, clause)
    if felt is None:
        return None
    question = ask(clause, "Why", gap=set(felt.tokens))
    if len(question.split()) < 4:
        return None
    return found_item(
        question,
        felt.said,
        Element.CAUSAL,
        False,
        section,
        *felt.span,
        0.7,
        rule="causal.feeling_before_deed",
    )


def sets_off(cause: Clause, felt: Clause) -> bool:
    """Whether an event told just before a feeling ("The goats ate the cabbages. The
    farmer was very angry") can be why it was felt: an event with something in it (not "the
    farmer saw", "she heard this"), not time passing ("night had fallen"), not a state
    ("she was cold as well", unless what followed was a deed: "she was sad. She wept") and
    not a guess ("would have been glad")."""
    head = cause.subject_head
    return (
        # "heard this" tells nothing a child can name; "his father did not come" does.
        (any(t.pos_ not in ("PRON", "PUNCT", "ADV", "DET") for t in cause.tail) or awaited(cause))
        and not (head is not None and head.lower_ in TIME_WORDS)
        # A state is why someone wept ("she was sad"), not why someone else was angry.
        and (cause.head.lemma_.lower() not in WEAK_VERBS or _a_state_before_a_deed(cause, felt))
        and not any(t.tag_ == "MD" for t in felt.aux + cause.aux)
        and not felt.subject_text.lower().startswith(("what ", "who ", "which "))
    )


def _a_state_before_a_deed(cause: Clause, felt: Clause) -> bool:
    return cause.head.lemma_ == "be" and felt.head.lemma_ != "be" and not passed(cause)
