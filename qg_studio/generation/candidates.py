"""Answer candidates of every narrative element in a section, each with its question.

Each finder reads the section's clauses (see :mod:`~qg_studio.generation.clauses`) and
returns items whose evidence is the exact span of the section that answers them
(explicit) or the sentence a best answer is inferred from (implicit).
"""

from __future__ import annotations

from qg_studio import resources
from qg_studio.generation.analysis import Analysis
from qg_studio.generation.clauses import Clause
from qg_studio.generation.clauses import event_before
from qg_studio.generation.clauses import in_progress
from qg_studio.generation.clauses import no_event
from qg_studio.generation.clauses import usable
from qg_studio.generation.emotions import PERCEIVING
from qg_studio.generation.emotions import can_feel
from qg_studio.generation.emotions import emotion_items
from qg_studio.generation.emotions import feeling_adjective
from qg_studio.generation.emotions import feeling_phrase
from qg_studio.generation.emotions import mocks
from qg_studio.generation.emotions import sets_off
from qg_studio.generation.grammar import ask
from qg_studio.generation.grammar import ask_do
from qg_studio.generation.grammar import ask_subject
from qg_studio.generation.grammar import finish
from qg_studio.generation.grammar import state
from qg_studio.generation.grammar import words
from qg_studio.generation.inferred_feelings import inferred_feeling_items
from qg_studio.generation.intentions import intention_items
from qg_studio.generation.items import found_item
from qg_studio.generation.items import span_item
from qg_studio.generation.items import span_of
from qg_studio.generation.lexicon import FEELINGS
from qg_studio.generation.lexicon import NO_WHY
from qg_studio.generation.lexicon import REACTIONS
from qg_studio.generation.lexicon import SAYING_VERBS
from qg_studio.generation.lexicon import TIME_WORDS
from qg_studio.generation.lexicon import WEAK_VERBS
from qg_studio.generation.lexicon import feeling_word
from qg_studio.generation.lexicon import not_felt
from qg_studio.generation.lexicon import reaction_lemma
from qg_studio.generation.mentions import is_animate
from qg_studio.generation.places import setting_item
from qg_studio.generation.predictions import predictions_between
from qg_studio.schema import Element
from qg_studio.schema import Explicitness
from qg_studio.schema import QAItem
from qg_studio.schema import Section

REASON = {"because", "since", "for"}
STATES = resources.words("state_verbs.txt")  # "as he was tired": a reason, not a time
WHEN_AFTER = ("when", "after", "as", "once")
WHEN = {"when", "after", "as", "once", "whenever", "before", "until", "till", "while"}


def find_candidates(
    section: Section,
    analysis: Analysis,
    following: Section | None = None,
    next_analysis: Analysis | None = None,
) -> list[QAItem]:
    out: list[QAItem] = []
    for index, clause_list in enumerate(analysis.sentence_clauses):
        for clause in clause_list:
            if not usable(clause) or clause.head.i in analysis.quoted:
                continue
            context = _context(clause_list, clause)
            for finder in (_character, setting_item, _action, _object, _feeling, _causal, _outcome):
                item = finder(section, analysis, clause, context, clause_list)
                if item is not None:
                    out.append(item)
    out.extend(emotion_items(section, analysis))
    out.extend(intention_items(section, analysis))
    out.extend(inferred_feeling_items(section, analysis))
    if following is not None and next_analysis is not None:
        out.extend(predictions_between(section, analysis, following, next_analysis))
    return [i for i in out if _well_formed(i)]


# --------------------------------------------------------------------------- helpers


def _context(clause_list: list[Clause], clause: Clause) -> Clause | None:
    for other in clause_list:
        if (
            other is not clause
            and other.marker in WHEN
            and usable(other)
            and other.head.head.i == clause.head.i
        ):
            return other
    return None


def _sentence_of(analysis: Analysis, clause: Clause):
    return clause.head.sent


# --------------------------------------------------------------------------- finders


def _character(section, analysis, clause, context, clause_list):
    who = clause.subject_head
    if clause.inherited or who is None or not is_animate(who):
        return None
    if clause.head.lemma_ in SAYING_VERBS or clause.tail_words < 2 or clause.tail_words > 14:
        return None
    question = ask_subject(clause, "Who")
    answer = clause.subject_text
    start, end = span_of(clause.subject)
    if who.lower_ in ("he", "she", "they"):
        # The text says "he": the answer names him, the evidence is the sentence.
        sent = _sentence_of(analysis, clause)
        start, end = sent.start_char, sent.end_char
    named = who.pos_ == "PROPN" or who.ent_type_ == "PERSON"
    return found_item(
        question,
        answer,
        Element.CHARACTER,
        True,
        section,
        start,
        end,
        0.6 + 0.15 * named,
        rule="character.subject",
    )


def _action(section, analysis, clause, context, clause_list):
    if clause.head.pos_ != "VERB" or clause.head.lemma_ in WEAK_VERBS | SAYING_VERBS:
        return None
    who = clause.subject_head
    if who is None or not (is_animate(who) or who.lower_ in ("he", "she", "they")):
        return None  # what characters do; "What did the mill do?" is not a question
    if not clause.tail or clause.tail_words > 16 or clause.negated:
        return None
    if context is None and any(t.lower_ in ("had", "'d") for t in clause.aux):
        return None  # "What had the travellers done?" says nothing about when
    extra = ""
    if context is not None:
        extra = f"{_when(context)} {state(context, resolver=analysis.resolver, same_as=clause.subject_text)}"
    elif not any(t.lower_ in ("had", "'d") for t in clause.aux):
        # "What did Mira do?" alone could mean anything she did: anchor it in time
        # (not for a past perfect, which tells of something earlier still).
        before = event_before(analysis, clause_list, clause)
        when = _time_phrase(clause)
        if when:
            extra = when  # "What did Bramble do every autumn?"
        elif before is not None and before.head.lemma_ not in ("be", "have") and not before.negated:
            # A state is no moment to count from: not "after he was slow and careful";
            # nor is what never happened: not "after he had never seen her like".
            extra = f"after {state(before, tense_past=True, resolver=analysis.resolver, same_as=clause.subject_text)}"
    question = ask_do(clause, extra=extra)
    vp = [clause.head] + clause.tail
    start, end = span_of(vp)
    return span_item(
        question,
        Element.ACTION,
        section,
        (start, end),
        0.65 + 0.1 * bool(context),
        rule="action.deed",
    )


def _object(section, analysis, clause, context, clause_list):
    """ "What did the fisherman catch?" — the direct object is the answer."""
    if clause.head.pos_ != "VERB" or clause.head.lemma_ in SAYING_VERBS | {"be"}:
        return None
    objs = [t for t in clause.tail if t.dep_ == "dobj" and t.head.i == clause.head.i]
    if not objs or objs[0].pos_ == "PRON" or is_animate(objs[0]):
        return None
    phrase = list(objs[0].subtree)
    if len(phrase) > 8:
        return None
    question = ask(clause, "What", gap={t.i for t in phrase})
    start, end = span_of(phrase)
    return span_item(question, Element.ACTION, section, (start, end), 0.55, rule="action.object")


def _feels(clause: Clause) -> bool:
    return any(feeling_word(t.lemma_.lower(), t.text) for t in [clause.head] + clause.tail)


def _time_phrase(clause: Clause) -> str:
    """A time the clause itself names ("every autumn he filled his den")."""
    for t in clause.head.children:
        if t.dep_ == "npadvmod" and t.lower_ in TIME_WORDS and t.i < clause.head.i:
            words = [w.text if w.pos_ == "PROPN" else w.lower_ for w in t.subtree]
            return " ".join(words)  # "Every morning she stood": "... do every morning?"
    return ""


def _when(context: Clause) -> str:
    return {"as": "when", "once": "after", "whenever": "when", "till": "until"}.get(
        context.marker, context.marker or "when"
    )


def _feeling(section, analysis, clause, context, clause_list):
    if feeling_phrase(clause) is not None:
        return None  # "ran home, full of fear": the deed is the moment (emotions.py)
    if not can_feel(analysis, clause):
        return None
    found = None
    started = reaction_lemma(clause.head)  # "began to cry": the reaction is its verb's
    for t in [clause.head] + clause.tail:
        word = None if mocks(t) or not_felt(t) else feeling_word(t.lemma_.lower(), t.text)
        if t.pos_ == "NOUN" and t.lemma_.lower() not in FEELINGS and t.lower_ not in FEELINGS:
            word = None  # a reaction is something done: "stormed out", not "the storm"
        if t.head.lower_ == "without" or any(c.lower_ in ("no", "not") for c in t.children):
            word = None  # "sang on without fear": a feeling she did not have
        if word and (
            t.i == clause.head.i
            or t.dep_ in ("acomp", "attr", "oprd", "dobj")
            or (t.head.i == clause.head.i and started == t.lemma_.lower())
            or (t.dep_ == "pobj" and t.pos_ == "NOUN")
        ):
            found = (t, word)
            break
    if found is None:
        return None
    token, word = found
    shown = token.lower_ in FEELINGS and token.pos_ == "ADJ"
    present = clause.head.tag_ in ("VBZ", "VBP")
    verb = ("do" if clause.plural else "does") if present else "did"  # "How do the people feel"
    if context is not None:
        extra = f"{_when(context)} {state(context, resolver=analysis.resolver, same_as=clause.subject_text)}"
    else:
        extra = _about(token, clause) if shown else ""
    if not extra:
        # "She sat on a stone and cried": asking "when she cried" gives the answer
        # away, so the question points at the moment before.
        prior = event_before(analysis, clause_list, clause)
        if prior is not None and not _feels(prior):
            extra = f"when {state(prior, tense_past=True, resolver=analysis.resolver, same_as=clause.subject_text)}"
        elif not shown:
            return None
    question = finish(f"How {verb} {clause.subject_text} feel {extra}")
    if shown:
        start, end = token.idx, token.idx + len(token.text)
        answer = token.text
    else:
        sent = _sentence_of(analysis, clause)
        start, end = sent.start_char, sent.end_char
        answer = REACTIONS.get(token.lemma_.lower(), word)
    return found_item(
        question,
        answer,
        Element.FEELING,
        shown,
        section,
        start,
        end,
        0.7 + 0.1 * bool(extra),
        rule="feeling.told",
    )


def _about(feeling, clause: Clause) -> str:
    """ "She was proud of her long beak": what the feeling is about, as the question's
    anchor ("How did the heron feel about her long beak?")."""
    for prep in feeling.children:
        objects = [c for c in prep.children if c.dep_ == "pobj"]
        if prep.dep_ == "prep" and prep.lower_ in ("of", "about", "at", "with") and objects:
            return "about " + words(list(objects[0].subtree), clause=clause)
    return ""


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
    return head.lemma_.lower() in STATES or any(
        c.dep_ in ("neg", "aux") and c.lower_ in ("not", "n't", "never", "could", "can", "must")
        for c in head.children
    )


def _causal(section, analysis, clause, context, clause_list):
    # "X because Y": Y answers why X.
    if clause.marker in REASON or (
        clause.marker == "as"
        and clause.head.dep_ == "advcl"
        and clause.head.i > clause.head.head.i
        and _a_state(clause)
    ):
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
        answer = state(clause)
        start, end = span_of(clause.tokens)
        return found_item(
            question, answer, Element.CAUSAL, True, section, start, end, 0.8, rule="causal.because"
        )
    # "X, so Y": X answers why Y.
    cause = _so_cause(analysis, clause, clause_list)
    if cause is not None:
        question = ask(clause, "Why")
        start, end = span_of(cause.tokens)
        return found_item(
            question,
            state(cause),
            Element.CAUSAL,
            True,
            section,
            start,
            end,
            0.75,
            rule="causal.so",
        )
    # "He went to the wood to fetch water": the purpose answers why.
    for t in clause.tail:
        if (
            t.dep_ == "advcl"
            and t.head.i == clause.head.i
            and t.pos_ == "VERB"
            and any(c.lower_ == "to" and c.dep_ == "aux" for c in t.children)
            and t.i > clause.head.i + 1
            and clause.head.lemma_ not in WEAK_VERBS | {"want", "try", "wish", "like", "go"}
        ):
            phrase = list(t.subtree)
            question = ask(clause, "Why", gap={x.i for x in phrase})
            start, end = span_of(phrase)
            answer = "to " + words(
                [x for x in phrase if not (x.lower_ == "to" and x.head.i == t.i)]
            )
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
    reacts = bool(lemma) and lemma not in NO_WHY and not mocks(clause.head)
    on_deed = feeling_adjective(clause)  # "trudged home very sad"
    if (clause.head.lemma_ == "be" and feel) or reacts or on_deed:
        if any(c.marker in REASON for c in clause_list if c is not clause):
            return None  # the reason is explicit; the finder above asks it
        # Else the event that set off the feeling or the reaction is the one told just before.
        cause = context if context is not None else event_before(analysis, clause_list, clause)
        if context is None and (cause is None or not sets_off(cause, clause)):
            return None
        # A feeling answers why someone acted ("She was proud, and she laughed at them"),
        # not why someone felt.
        if (
            cause is None
            or ((feel or on_deed) and _feels(cause))
            or cause.subject_text == ""
            or any(t.lower_ in ("had", "'d") for t in clause.aux)
        ):
            return None
        if clause.head.dep_ in ("ccomp", "xcomp") and cause.head in clause.head.ancestors:
            return None  # "he saw how her paws trembled": seeing it is not why they did
        if (
            cause.subject_text == clause.subject_text
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
            state(cause),
            Element.CAUSAL,
            False,
            section,
            start,
            end,
            0.7,
            rule="causal.event_before",
        )
    return None


def _outcome(section, analysis, clause, context, clause_list):
    if clause.head.lemma_ in SAYING_VERBS:
        return None  # "What happened? - the Giant said": what he said is the event
    # "When the bell rang, the miller was lying awake": the scene, not what happened.
    if context is not None and context.marker in WHEN_AFTER and not in_progress(clause):
        question = finish(f"What happened {_when(context)} {state(context, tense_past=True)}")
        answer = state(clause)
        start, end = span_of(clause.tokens)
        return found_item(
            question, answer, Element.OUTCOME, True, section, start, end, 0.75, rule="outcome.when"
        )
    cause = _so_cause(analysis, clause, clause_list)
    if cause is not None:
        question = finish(f"What happened because {state(cause, tense_past=True)}")
        start, end = span_of(clause.tokens)
        return found_item(
            question,
            state(clause),
            Element.OUTCOME,
            True,
            section,
            start,
            end,
            0.75,
            rule="outcome.so",
        )
    return None


def _so_cause(analysis: Analysis, clause: Clause, clause_list: list[Clause]) -> Clause | None:
    """In "X, so Y", the X that ``clause`` (Y) follows from: the last usable clause before
    it; a sentence that opens with "So" follows from the event the sentence before ends on
    ("The mare could not be stopped. So the archer came to the mountain")."""
    if clause.marker != "so":
        return None
    before = [c for c in clause_list if c.head.i < clause.head.i]
    # A participle is no event that something follows from ("the princess crawling out").
    earlier = [c for c in before if usable(c) and not no_event(c)]
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


def _well_formed(item: QAItem) -> bool:
    """Drop questions too short or too long to hand to a child, or that give the answer."""
    q = item.question
    n = len(q.split())
    if n < 3 or n > 24 or not q.endswith("?"):
        return False
    if any(ch in q for ch in '"“”'):
        return False
    answer = item.answer.lower().strip()
    if len(answer.split()) > 30:
        return False
    if (
        item.explicitness == Explicitness.EXPLICIT
        and len(answer) > 3
        and answer in q.lower()
        and item.element != Element.FEELING
    ):
        return False
    return True
