"""The why and what-happened finders of a section's clauses: a reason told with
"because", "so" or a purpose, the event a feeling or a reaction follows (implicit), and
what happened when or because of something. Split from candidates.py, which calls them
with every clause."""

from __future__ import annotations

from qg_studio import lang
from qg_studio.generation.emotions import feeling_adjective
from qg_studio.generation.emotions import sets_off
from qg_studio.generation.items import found_item
from qg_studio.generation.reasons import reason_for
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import ANSWER_TAIL
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import finish
from qg_studio.reading.grammar import happened
from qg_studio.reading.grammar import state
from qg_studio.reading.grammar import words
from qg_studio.reading.lexicon import BODILY_STATES
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import NO_WHY
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import STATE_VERBS
from qg_studio.reading.lexicon import WEAK_VERBS
from qg_studio.reading.lexicon import feeling_word
from qg_studio.reading.lexicon import reaction_lemma
from qg_studio.reading.moments import across_paragraphs
from qg_studio.reading.moments import contrasted
from qg_studio.reading.moments import done_by_the_feeler_to
from qg_studio.reading.moments import event_before
from qg_studio.reading.moments import every_time
from qg_studio.reading.moments import mocks
from qg_studio.reading.moments import no_event
from qg_studio.reading.moments import purpose
from qg_studio.reading.moments import reacting_one
from qg_studio.reading.moments import the_scene
from qg_studio.reading.noun_phrases import for_to
from qg_studio.reading.noun_phrases import word_infinitive
from qg_studio.reading.phrases import span_of
from qg_studio.schema import Element

REASON = {"because", "since", "for"}
WHEN_AFTER = ("when", "after", "as", "once")
RESULT_VERBS = frozenset(lang.function_words("result_verbs"))
FINDING_VERBS = frozenset(lang.function_words("finding_verbs"))


def _not_a_purpose(verb, infinitive) -> bool:
    """ "woke to find the house empty", "ran to the gate, only to find it locked": what one
    met with after, not what one did it for; "took care to tell him": what one saw to."""
    return (
        word_infinitive(infinitive)
        or any(c.lower_ == "only" for c in infinitive.children)
        or (verb.lemma_.lower() in RESULT_VERBS and infinitive.lemma_.lower() in FINDING_VERBS)
    )


def feels(clause: Clause) -> bool:
    return any(feeling_word(t.lemma_.lower(), t.text) for t in [clause.head] + clause.tail)


def when_phrase(context: Clause) -> str:
    return {"as": "when", "once": "after", "whenever": "when", "till": "until"}.get(
        context.marker, context.marker or "when"
    )


def _host(clause_list: list[Clause], clause: Clause) -> Clause | None:
    for other in clause_list:
        if other.head.i == clause.head.head.i and other is not clause:
            return other
    return None


def _a_state(clause) -> bool:
    """Whether a clause tells a state ("as he was tired", "as she could not swim", "as they
    knew the way"), which a trailing "as" gives as the reason; an action after "as" is the
    time of the other ("she sang as she climbed"), not why."""
    head = clause.head
    return head.lemma_.lower() in STATE_VERBS or any(
        c.dep_ in ("neg", "aux") and c.lower_ in lang.function_words("unable")
        for c in head.children
    )


def _likewise(clause) -> bool:
    """ "went on his way, exactly as he had meant to", "as he always did": how, not why."""
    head = clause.head
    exact = any(
        c.dep_ == "advmod" and c.lower_ in ("exactly", "just", "precisely") for c in head.children
    )
    left_out = head.lemma_ == "do" or any(
        c.lower_ == "to" and not list(c.children) for c in head.children
    )
    done = [c for c in head.children if c.dep_ in ("dobj", "xcomp") and c.lower_ != "to"]
    return exact or (left_out and not done)


INDEFINITE = frozenset(lang.function_words("indefinite_subjects"))
TIMELY_VERBS = frozenset(lang.function_words("timely_verbs"))


def answers_why(clause: Clause) -> bool:
    """A reason clause whose subject no question stands on but an answer reads whole
    ("because no one had cleaned the stone", "since there was no water")."""
    return clause.marker in REASON and clause.subject_text.lower() in INDEFINITE


def so_that(clause: Clause, clause_list: list[Clause]):
    """For the "that" clause of "so … that" ("was so pleased that she sang", "blew so
    hard that the tree fell"): the clause that tells the degree, and the "that"."""
    mark = next((t for t in clause.head.children if t.dep_ == "mark"), None)
    if mark is None or mark.lower_ != "that" or clause.head.dep_ not in ("ccomp", "advcl"):
        return None
    up = clause.head.head
    for _ in range(3):
        if any(
            c.dep_ == "advmod" and c.lower_ in ("so", "such") and c.i < mark.i for c in up.children
        ):
            break
        if up.head.i == up.i:
            return None
        up = up.head
    else:
        return None
    told = next((c for c in clause_list if c is not clause and up in (c.head, *c.tail)), None)
    if told is not None and any(t.text == "," and told.head.i < t.i < mark.i for t in told.tail):
        return None  # "gave them extra water, so much that …": the degree is an afterthought
    return (told, mark) if told is not None and told.subject_text else None


def gives_reason(clause: Clause) -> bool:
    """ "because he was cold", "…, as she was tired": a clause that tells why."""
    return clause.marker in REASON or (
        clause.marker == "as"
        and clause.head.dep_ == "advcl"
        and clause.head.i > clause.head.head.i
        and _a_state(clause)
        and not _likewise(clause)
    )


def causal_item(section, analysis, clause, context, clause_list):
    # "X because Y": Y answers why X.
    if gives_reason(clause):
        host = _host(clause_list, clause)
        if (
            host is None
            or not usable(host)
            or any(t.i in analysis.quoted for t in [*host.subject, *host.aux, host.head])
            # "Why did the Giant say?": what was said is elsewhere, in quotes
            or (host.head.lemma_ in SAYING_VERBS and not host.tail)
        ):
            return None  # speech run into the narration after it: "May I stay? Bramble frowned"
        question = ask(host, "Why")
        answer = state(clause, limit=ANSWER_TAIL)
        start, end = span_of(clause.tokens)
        return found_item(
            question, answer, Element.CAUSAL, True, section, start, end, 0.8, rule="causal.because"
        )
    # "X was so tired that Y": being so tired answers why Y.
    degree = so_that(clause, clause_list)
    if degree is not None:
        told, mark = degree
        if told.head.i in analysis.quoted:
            return None
        cause = [t for t in told.tokens if t.i < mark.i]
        start, end = span_of(cause)
        return found_item(
            ask(clause, "Why"),
            state(told, skip={t.i for t in told.tail if t.i >= mark.i}),
            Element.CAUSAL,
            True,
            section,
            start,
            end,
            0.8,
            rule="causal.so_that",
        )
    # "X, so Y": X answers why Y; "X so that Y could": Y, the hope, answers why X.
    cause = _so_cause(analysis, clause, clause_list)
    if cause is not None and (usable(cause) or not purpose(clause)):
        hoped = purpose(clause)
        question = ask(cause if hoped else clause, "Why")
        start, end = span_of(cause.tokens + (clause.tokens if hoped else []))
        return found_item(
            question,
            f"so that {state(clause)}" if hoped else state(cause, limit=ANSWER_TAIL),
            Element.CAUSAL,
            True,
            section,
            start,
            end,
            0.75,
            rule="causal.so",
        )
    # "He went to the wood to fetch water": the purpose answers why; what one would not
    # do has none ("he would not pay anyone to mend them"). The infinitive is a clause of
    # its own, so it is found among the verb's words, not in its tail.
    for t in [] if clause.negated else clause.head.children:
        if (
            t.dep_ == "advcl"
            and t.pos_ == "VERB"
            and not _not_a_purpose(clause.head, t)
            and any(c.lower_ == "to" and c.dep_ == "aux" for c in t.children)
            and t.i > clause.head.i + 1
            and not for_to(t)  # "waited for her father to come": what she waited for
            and clause.head.lemma_ not in WEAK_VERBS | frozenset(lang.function_words("not_aims"))
        ):
            phrase = list(t.subtree)
            question = ask(clause, "Why", gap={x.i for x in phrase})
            start, end = span_of(phrase)
            aim = [x for x in phrase if not (x.lower_ == "to" and x.head.i == t.i)]
            answer = "to " + words(aim, clause=clause, names_only=True)
            return found_item(
                question,
                answer,
                Element.CAUSAL,
                True,
                section,
                start,
                end,
                0.7,
                rule="causal.purpose",
            )
    # A feeling or a reaction and the event before it: why the character felt or
    # acted so (implicit: the text does not say "because").
    feel = [t for t in clause.tail if t.dep_ == "acomp" and t.lower_ in FEELINGS]
    lemma = reaction_lemma(clause.head)
    # "but he did not complain": no reaction to ask why of; "whenever the Fox boasted": a
    # habit, set off by no one moment.
    reacts = (
        bool(lemma)
        and lemma not in NO_WHY
        and not mocks(clause.head)
        and not clause.negated
        and clause.marker != "whenever"
    )
    on_deed = feeling_adjective(clause)  # "trudged home very sad"
    if reason_for(clause.head) is not None:
        return None  # "scolded him for being sleepy": its reason is told; the finder asks it
    if (clause.head.lemma_ == "be" and feel) or reacts or on_deed:
        if any(
            c.marker in REASON or so_that(c, clause_list) for c in clause_list if c is not clause
        ):
            return None  # the reason is explicit; the finder above asks it
        if any(t.lower_ in ("too", "also") for t in clause.aux + clause.tail):
            return None  # "The smaller frog was tired too": as the other was, not for it
        # "snarled back at him until he was hoarse": a time that comes after is no cause.
        if context is not None and context.marker in ("until", "till", "before"):
            context = None
        # Else the event that set off the feeling or the reaction is the one told just before.
        cause = (
            context
            if context is not None
            else event_before(analysis, clause_list, clause, setting_off=True)
        )
        if context is None and (
            cause is None
            or not sets_off(cause, clause)
            or across_paragraphs(analysis, cause, clause)
            or contrasted(cause, clause)
            or done_by_the_feeler_to(cause, clause)
        ):
            return None
        if cause is not None and cause.head.lemma_ == "be" and not _about_someone(cause):
            return None  # "When the bowl was half empty, she smiled": a time, not why
        felt = on_deed.said if on_deed is not None else (feel[0].lower_ if feel else "")
        if BODILY_STATES & set(felt.split()) and cause.subject_text != clause.subject_text:
            return None  # tired from what one did, not from what another did just before
        # A feeling answers why someone acted ("She was proud, and she laughed at them"),
        # not why someone felt.
        if (
            cause is None
            or ((feel or on_deed) and feels(cause))
            # "The girl ran home in a rage. The boy danced with joy": another's feeling is
            # not why one rejoices.
            or (reacts and feels(cause) and cause.subject_text != clause.subject_text)
            or cause.subject_text == ""
            or any(t.lower_ in ("had", "'d") for t in clause.aux)
        ):
            return None
        if clause.head.dep_ in ("ccomp", "xcomp") and cause.head in clause.head.ancestors:
            return None  # "he saw how her paws trembled": seeing it is not why they did
        if (
            cause.subject_text == reacting_one(clause)
            and cause.head.lemma_ != "be"
            and not (cause.head.lemma_ in PERCEIVING and sets_off(cause, clause))
        ):
            # "Pip knocked at the door. Pip was shivering": her own deed before is not
            # why she shivers; what happened to her, a state of hers, or what she found
            # out ("Pip saw the wolf. She was afraid") can be.
            return None
        question = ask(clause, "Why")
        if on_deed is not None:
            was = "were" if clause.plural else "was"
            question = finish(f"Why {was} {clause.subject_text} {on_deed.said}")
        start, end = span_of(cause.tokens)
        return found_item(
            question,
            state(cause, limit=ANSWER_TAIL),
            Element.CAUSAL,
            False,
            section,
            start,
            end,
            0.7,
            rule="causal.event_before",
        )
    return None


def outcome_item(section, analysis, clause, context, clause_list):
    if clause.head.lemma_ in SAYING_VERBS:
        return None  # "What happened? - the Giant said": what he said is the event
    # "When the bell rang, the miller was lying awake": the scene, not what happened.
    # "Every evening, when the sun went down, she lit the lamp": a habit, no happening.
    if (
        context is not None
        and context.marker in WHEN_AFTER
        and not the_scene(clause)
        and not every_time(clause)
    ):
        question = finish(
            f"{happened(context)} {when_phrase(context)} {state(context, tense_past=True)}"
        )
        answer = state(clause, limit=ANSWER_TAIL)
        start, end = span_of(clause.tokens)
        return found_item(
            question, answer, Element.OUTCOME, True, section, start, end, 0.75, rule="outcome.when"
        )
    cause = _so_cause(analysis, clause, clause_list)
    if cause is not None and not purpose(clause):
        question = finish(f"{happened(cause)} because {state(cause, tense_past=True)}")
        start, end = span_of(clause.tokens)
        return found_item(
            question,
            state(clause, limit=ANSWER_TAIL),
            Element.OUTCOME,
            True,
            section,
            start,
            end,
            0.75,
            rule="outcome.so",
        )
    return None


def _about_someone(clause: Clause) -> bool:
    head = clause.subject_head
    return head is None or is_someone(head)


def _so_cause(analysis: Analysis, clause: Clause, clause_list: list[Clause]) -> Clause | None:
    """In "X, so Y", the X that ``clause`` (Y) follows from: the last usable clause before
    it; a sentence that opens with "So" follows from the event the sentence before ends on
    ("The mare could not be stopped. So the archer came to the mountain")."""
    if clause.marker != "so" or (clause.head.lemma_ in SAYING_VERBS and not clause.tail):
        return None  # '"Why work so hard?" said Bolo': the "so" is the speech's, no event's
    if clause.head.dep_ == "advcl":
        # "strutted along the marsh, spreading his tail so that every eye in it shone":
        # what the "so that" hangs from is the cause, and a participle tells no event.
        # (Of "climbed the bridge and lit the lantern, so that …", the deed nearest it.)
        governing = [c for c in clause_list if c.head.i == clause.head.head.i]
        if not governing or not usable(governing[0]) or no_event(governing[0]):
            return None
    before = [c for c in clause_list if c.head.i < clause.head.i]
    # A participle is no event that something follows from ("the princess crawling out").
    # "It was already five o'clock, so he hid the wheel": the time or weather is why
    timely = [c for c in before if c.subject_text.lower() == "it" and c.head.lemma_ in TIMELY_VERBS]
    earlier = [c for c in before if usable(c) and not no_event(c)] or timely[-1:]
    if earlier:
        return earlier[-1]
    if before:
        return None
    index = analysis.sentence_clauses.index(clause_list)
    told = analysis.sentence_clauses[index - 1] if index > 0 else []
    # The sentence's own event, however long ("found a badger's den as wide as a cart,
    # in which ..."): the answer restates it short.
    return next(
        (
            c
            for c in reversed(told)
            if usable(c)
            and not no_event(c)
            and c.head.dep_ in ("ROOT", "conj")
            and c.head.i not in analysis.quoted
            and c.head.lemma_ not in SAYING_VERBS
        ),
        None,
    )
