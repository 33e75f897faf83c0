"""Answer candidates of every narrative element in a section, each with its question.

Each finder reads the section's clauses (see :mod:`~qg_studio.reading.clauses`) and
returns items whose evidence is the exact span of the section that answers them
(explicit) or the sentence a best answer is inferred from (implicit).
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.generation.bidding import bidding_items
from qg_studio.generation.causes import answers_why
from qg_studio.generation.causes import causal_item
from qg_studio.generation.causes import feels
from qg_studio.generation.causes import outcome_item
from qg_studio.generation.causes import when_phrase
from qg_studio.generation.emotions import as_a_child_says
from qg_studio.generation.emotions import can_feel
from qg_studio.generation.emotions import emotion_items
from qg_studio.generation.emotions import feeling_phrase
from qg_studio.generation.felt_about import felt_about
from qg_studio.generation.hearts import heart_items
from qg_studio.generation.inferred_feelings import inferred_feeling_items
from qg_studio.generation.intentions import intention_items
from qg_studio.generation.items import clause_item
from qg_studio.generation.items import found_item
from qg_studio.generation.items import well_formed
from qg_studio.generation.noticed import noticed_item
from qg_studio.generation.places import setting_item
from qg_studio.generation.predictions import predictions_between
from qg_studio.generation.reasons import about_the_reason
from qg_studio.generation.reasons import reason_for_item
from qg_studio.generation.speech import speech_items
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import time_of
from qg_studio.reading.clauses import usable
from qg_studio.reading.deeds import passive_state
from qg_studio.reading.deeds import posture_before_a_deed
from qg_studio.reading.dialogue import tells_speech
from qg_studio.reading.grammar import OBJECT_PRONOUNS
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import ask_do
from qg_studio.reading.grammar import ask_subject
from qg_studio.reading.grammar import before_colon
from qg_studio.reading.grammar import finish
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import BECOMING_VERBS
from qg_studio.reading.lexicon import CAUSING_VERBS
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import HEED_OBJECTS
from qg_studio.reading.lexicon import LINKING_VERBS
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import PLACE_NOUNS
from qg_studio.reading.lexicon import REACHING
from qg_studio.reading.lexicon import REACTIONS
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import SPEECH_VERBS
from qg_studio.reading.lexicon import STATE_VERBS
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.lexicon import WANTS
from qg_studio.reading.lexicon import WEAK_VERBS
from qg_studio.reading.lexicon import feeling_word
from qg_studio.reading.lexicon import not_felt
from qg_studio.reading.lexicon import reaction_lemma
from qg_studio.reading.moments import bare_partner
from qg_studio.reading.moments import brought_on
from qg_studio.reading.moments import contrasted
from qg_studio.reading.moments import depicts
from qg_studio.reading.moments import event_before
from qg_studio.reading.moments import in_progress
from qg_studio.reading.moments import mocks
from qg_studio.reading.moments import names_one
from qg_studio.reading.moments import no_event
from qg_studio.reading.moments import purpose
from qg_studio.reading.moments import says_nothing
from qg_studio.reading.moments import undone
from qg_studio.reading.noun_phrases import any_one_could
from qg_studio.reading.noun_phrases import for_to
from qg_studio.reading.noun_phrases import watched
from qg_studio.reading.phrases import span_of
from qg_studio.reading.reference import vague
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section

WHEN = frozenset(lang.function_words("time_markers"))
LEANING = {"it"} | OBJECT_PRONOUNS  # a bare object a question leans on


def find_candidates(
    section: Section,
    analysis: Analysis,
    following: Section | None = None,
    next_analysis: Analysis | None = None,
) -> list[QAItem]:
    out: list[QAItem] = []
    for index, clause_list in enumerate(analysis.sentence_clauses):
        for clause in clause_list:
            if clause.head.i in analysis.quoted or undone(clause):
                continue  # "What could Nadia catch? – it", which she could not
            if clause.subject_head is not None and any_one_could(clause.subject_head):
                continue  # "only one animal could cross": no one who did
            if not usable(clause):
                if answers_why(clause):
                    # The reason is the answer, not the question: "because no one had
                    # cleaned the stone" answers why the flour was full of grit.
                    out.append(causal_item(section, analysis, clause, None, clause_list))
                continue
            context = _context(clause_list, clause)
            for finder in (
                _character,
                setting_item,
                _action,
                _object,
                _feeling,
                causal_item,
                reason_for_item,
                noticed_item,
                outcome_item,
            ):
                item = finder(section, analysis, clause, context, clause_list)
                if item is not None:
                    out.append(item)
    out.extend(emotion_items(section, analysis))
    out.extend(intention_items(section, analysis))
    out.extend(inferred_feeling_items(section, analysis))
    out.extend(heart_items(section, analysis))
    out.extend(speech_items(section, analysis))
    out.extend(bidding_items(section, analysis))
    if following is not None and next_analysis is not None:
        out.extend(predictions_between(section, analysis, following, next_analysis))
    return [i for i in out if i is not None and well_formed(i)]


# --------------------------------------------------------------------------- helpers


def _context(clause_list: list[Clause], clause: Clause) -> Clause | None:
    for other in clause_list:
        if (
            other is not clause
            and other.marker in WHEN
            and usable(other)
            and time_of(other.head) == clause.head
        ):
            return other
    return None


def _sentence_of(analysis: Analysis, clause: Clause):
    return clause.head.sent


# --------------------------------------------------------------------------- finders


def _character(section, analysis, clause, context, clause_list):
    who = clause.subject_head
    if clause.inherited or who is None or not is_animate(who) or watched(clause.head):
        return None  # not "Who milk the goats?" of "watched her mother milk the goats"
    if clause.head.lemma_ in SAYING_VERBS or clause.tail_words < 2 or clause.tail_words > 14:
        return None
    if tells_speech(clause, analysis.quoted) or no_event(clause) or names_one(clause):
        return None  # "saw a thin boy standing in the snow": not "Who standing …?"
    if brought_on(clause):
        return None  # "behind her was her father with a sack": not "Who was with a sack?"
    question = ask_subject(clause, "Who")
    if vague(clause, analysis) and LEANING & set(question.lower().rstrip("?").split()):
        return None  # "Who pushes them together with her nose?": them, read alone, is nothing
    answer = clause.subject_text
    start, end = span_of(clause.subject)
    if who.lower_ in ("he", "she", "they", "it"):
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
    if (
        clause.head.pos_ != "VERB"
        or clause.head.lemma_ in WEAK_VERBS | SAYING_VERBS
        or _grows(clause)
        or watched(clause.head)
        or clause.head.lemma_ in WANTS  # "What did Maren do? – wanted her beans to grow"
        or clause.head.lemma_ in STATE_VERBS  # "What did Milo do? – loved it", "wore a bell"
        or says_nothing(clause)  # "What did the Queen do? – heard this"
        or posture_before_a_deed(clause, clause_list)  # "bent down and gave a cry"
        or passive_state(clause)  # "was perched on the gate": where it was, no deed
        or purpose(clause)  # "so that travellers could find their way": hoped, not done
    ):
        return None
    who = clause.subject_head
    if who is None or not (is_animate(who) or who.lower_ in ("he", "she", "they")):
        return None  # what characters do; "What did the mill do?" is not a question
    if not clause.tail or clause.tail_words > 16 or clause.negated:
        return None
    if tells_speech(clause, analysis.quoted):
        return None
    if context is None and any(t.lower_ in ("had", "'d") for t in clause.aux):
        return None  # "What had the travellers done?" says nothing about when
    extra = ""
    if context is not None:
        extra = f"{when_phrase(context)} {state(context, resolver=analysis.resolver, same_as=clause.subject_text)}"
    elif not any(t.lower_ in ("had", "'d") for t in clause.aux):
        # "What did Mira do?" alone could mean anything she did: anchor it in time
        # (not for a past perfect, which tells of something earlier still).
        before = event_before(analysis, clause_list, clause)
        when = _time_phrase(clause)
        if when:
            extra = when  # "What did Bramble do every autumn?"
        elif (
            before is not None
            and before.head.lemma_ not in STATE_VERBS
            and not before.negated
            and not _grows(before)
        ):
            # A state is no moment to count from: not "after he was slow and careful", not
            # "after an old Snail lived under a dock leaf"; nor is what never happened:
            # not "after he had never seen her like". What was going on is the while of it
            # ("while the wind was blowing"), and what one was doing, doing when it happened.
            since = "while" if in_progress(before) else "when" if in_progress(clause) else "after"
            extra = f"{since} {state(before, tense_past=True, resolver=analysis.resolver, same_as=clause.subject_text)}"
    question = ask_do(clause, extra=extra)
    partner = bare_partner(clause_list, clause)  # "tossed and turned on his bed"
    vp = before_colon(([partner.head] if partner else []) + [clause.head] + clause.tail)
    return clause_item(
        question,
        Element.ACTION,
        section,
        vp,
        0.65 + 0.1 * bool(context),
        clause,
        rule="action.deed",
    )


PORTIONS = ("half", "part", "most", "rest", "plenty", "lots")


def _an_idiom(obj) -> bool:
    """A bare noun that only means something with the "of" after it ("took hold of",
    "caught sight of", "made fun of"), however the parse hangs the "of"."""
    after = obj.doc[obj.i + 1] if obj.i + 1 < len(obj.doc) else None
    return (
        obj.tag_ == "NN"
        and obj.lower_ not in PORTIONS  # "dried half of it": a part of something
        and not any(c.dep_ in ("det", "poss", "amod", "nummod") for c in obj.children)
        and after is not None
        and after.lower_ == "of"
    )


def _grows(clause: Clause) -> bool:
    """ "grew too old to climb", "got angry", "looked as large as before": how someone or
    something came to be or seemed, not a deed."""
    return clause.head.lemma_ in BECOMING_VERBS | LINKING_VERBS and any(
        c.dep_ in ("acomp", "oprd")
        # "grew a little prouder", the comparative parsed as a thing grown
        or c.tag_ in ("JJR", "RBR")
        or (c.dep_ == "dobj" and any(x.lower_ in ("little", "bit") for x in c.children))
        for c in clause.head.children
    )


def _object(section, analysis, clause, context, clause_list):
    """ "What did the fisherman catch?" — the direct object is the answer."""
    # "What did the Bear do? – his best": what "do" takes is the deed, asked as one.
    if clause.head.pos_ != "VERB" or clause.head.lemma_ in SAYING_VERBS | {"be", "do"}:
        return None
    if clause.head.lemma_ in SPEECH_VERBS or (
        clause.head.lemma_ in BECOMING_VERBS and _grows(clause)
    ):
        return None  # "told the carrots": whom, not what; "grew a little prouder": how
    objs = [t for t in clause.tail if t.dep_ == "dobj" and t.head.i == clause.head.i]
    if not objs or objs[0].pos_ in ("PRON", "ADJ") or is_animate(objs[0]):
        return None  # "laughed the loudest": how, no thing to ask "What did he laugh?" of
    if objs[0].lower_ in HEED_OBJECTS:
        return None  # "What did the teachers take? – care" asks nothing
    if any(c.dep_ == "det" and c.lower_ == "no" for c in objs[0].children):
        return None  # "had no collar": nothing had, no thing to ask for
    if clause.negated and (
        objs[0].lower_ in ("one", "any", "anything")
        or any(c.lower_ in ("single", "any") for c in objs[0].children)
    ):
        return None  # "could not eat a single one": none, no thing to ask for
    # "took hold of the rope" asks no "What did Vera take? – hold of the rope"; "carried
    # her home" no thing carried.
    if _an_idiom(objs[0]) or objs[0].lower_ == "home" or objs[0].lower_ in TIME_WORDS:
        return None  # nor "missed the first time", "spent the whole winter": when, no thing
    if objs[0].lemma_.lower() in PLACE_NOUNS and (
        any(c.dep_ == "prt" for c in clause.head.children) or clause.head.lemma_ in REACHING
    ):
        # "ran down the slope": the way she ran, not "What did Sami run down?"; "reached
        # the mayor's house": where he came, not "What did Anselm reach?"
        return None
    phrase = list(objs[0].subtree)
    if len(phrase) > 8 or any(t.tag_ == "VB" and t.pos_ == "VERB" for t in phrase):
        return None  # "saw the sail blow away": what was seen is an event, not a thing
    listed = [c for c in objs[0].children if c.dep_ == "appos"]  # "the floor, the shelves and"
    if any(
        c.dep_ in ("conj", "dep", "dobj")
        and c.pos_ in ("NOUN", "PRON", "PROPN")
        and c.i > objs[0].i
        for c in clause.head.children
    ) or any(c.dep_ == "conj" for a in listed for c in a.children):
        # "lost a few leaves, but nothing more", "searched the floor, the shelves and …": a
        # second object, left behind (the parser may hang a list's next item from the verb)
        return None
    question = ask(clause, "What", gap={t.i for t in phrase})
    return clause_item(
        question, Element.ACTION, section, phrase, 0.55, clause, rule="action.object"
    )


def _time_phrase(clause: Clause) -> str:
    """A time the clause itself names ("every autumn he filled his den")."""
    # Not one inside the subject: "the widow who bought a loaf every day set hers on the
    # scale" did not set it every day.
    first = min((t.i for t in clause.subject), default=clause.head.i)
    for t in clause.head.children:
        if t.dep_ == "npadvmod" and t.lower_ in TIME_WORDS and t.i < first:
            words = [w.text if w.pos_ == "PROPN" else w.lower_ for w in t.subtree]
            return " ".join(words)  # "Every morning she stood": "... do every morning?"
    return ""


def _feeling(section, analysis, clause, context, clause_list):
    if feeling_phrase(clause) is not None:
        return None  # "ran home, full of fear": the deed is the moment (emotions.py)
    if not can_feel(analysis, clause) or clause.negated or clause.marker == "whenever":
        return None  # "I am not afraid of bees any more", "whenever he boasted": no moment
    if any(t.tag_ == "MD" for t in clause.aux):
        return None  # "his father would be angry": a guess at a feeling no one has felt
    found = None
    started = reaction_lemma(clause.head)  # "began to cry": the reaction is its verb's
    # "waited for him to be cross", "was sure his aunt would be angry": how they waited
    # for, or thought, another would feel, not how they felt.
    others = {
        x.i
        for t in clause.tail
        if for_to(t)
        or (t.dep_ == "ccomp" and any(c.dep_ == "nsubj" for c in t.children))
        # "heard a tiny voice crying": the voice's crying, however the parse hangs it
        or t.dep_ == "acl"
        or (t.dep_ == "dobj" and clause.head.lemma_ in PERCEIVING)
        for x in t.subtree
    }
    # "He sat there shaking": the -ing word the parse made a clause of its own.
    depicted = [c for c in clause.head.children if depicts(c, clause.head)]
    for t in [clause.head] + [t for t in clause.tail if t.i not in others] + depicted:
        word = None if mocks(t) or not_felt(t) else feeling_word(t.lemma_.lower(), t.text)
        if t.pos_ == "NOUN" and t.lemma_.lower() not in FEELINGS and t.lower_ not in FEELINGS:
            word = None  # a reaction is something done: "stormed out", not "the storm"
        if t.head.lower_ == "without" or any(c.lower_ in ("no", "not") for c in t.children):
            word = None  # "sang on without fear": a feeling she did not have
        if t.lemma_ in CAUSING_VERBS and any(c.dep_ == "dobj" for c in t.children):
            word = None  # "The wolf scared the sheep": the sheep's feeling, not the wolf's
        if word and (
            t.i == clause.head.i
            or t.dep_ in ("acomp", "attr", "oprd", "dobj")
            or (t.head.i == clause.head.i and started == t.lemma_.lower())
            or depicts(t, clause.head)
            or (t.dep_ == "pobj" and t.pos_ == "NOUN")
        ):
            found = (t, word)
            break
    if found is None:
        return None
    token, word = found
    # "began to cry with joy": the feeling named is the one it shows, not tears' own
    named_in = [o for p in token.children if p.lower_ == "with" for o in p.children]
    if token.pos_ == "VERB" and named_in and named_in[0].lower_ in FEELINGS:
        token, word = named_in[0], named_in[0].lower_
    shown = token.lower_ in FEELINGS and token.pos_ == "ADJ"
    # "I was cross … and I sulked", "The Bell was lonely. It wondered": told; no guess beside
    at = analysis.sentence_index(clause.head.idx)
    told = clause_list + (analysis.sentence_clauses[at - 1] if at else [])
    if not shown and any(
        c.subject_text == clause.subject_text
        and any(t.dep_ == "acomp" and t.lower_ in FEELINGS for t in c.tail)
        for c in told
    ):
        return None
    verb = ("do" if clause.plural else "does") if clause.head.tag_ in ("VBZ", "VBP") else "did"
    if context is not None:
        extra = f"{when_phrase(context)} {state(context, resolver=analysis.resolver, same_as=clause.subject_text)}"
    else:
        extra = felt_about(token, clause) if shown or token.lower_ in FEELINGS else ""
    if not extra:  # "scolded him for being sleepy": the feeling is about that
        extra = about_the_reason(token, clause) if token.i == clause.head.i else ""
    if not extra:
        # "She sat on a stone and cried": asking "when she cried" gives the answer
        # away, so the question points at the moment before.
        prior = event_before(analysis, clause_list, clause, setting_off=True)
        if prior is None or feels(prior) or contrasted(prior, clause):
            # "The crow was ashamed, but he climbed on": the deed joined to a told feeling
            joined = [
                c for c in clause_list if c.head.head.i == clause.head.i and c.head.dep_ == "conj"
            ]
            prior = joined[0] if shown and joined and not feels(joined[0]) else None
        if prior is not None:
            extra = f"when {state(prior, tense_past=True, resolver=analysis.resolver, same_as=clause.subject_text)}"
        # "when the workmen left it": read alone, "it" is nothing; a told feeling stands alone
        extra = "" if "it" in extra.split() else extra
        if not extra and not shown:
            return None
    question = finish(f"How {verb} {clause.subject_text} feel {extra}")
    if shown:
        # "felt both glad and sad": both feelings are the answer.
        more = [c for c in token.children if c.dep_ == "conj" and c.lower_ in FEELINGS]
        more = [c for c in more if c.pos_ == "ADJ"]
        last = more[-1] if more else token
        start, end = token.idx, last.idx + len(last.text)
        named = [t.text for t in [token, *more]]
        answer = " and ".join([", ".join(named[:-1]), named[-1]] if more else named)
    else:
        sent = _sentence_of(analysis, clause)
        start, end = sent.start_char, sent.end_char
        # "began to bleat with fear": a child answers how one felt, "scared", not "fear".
        named = as_a_child_says(word, token) if token.pos_ in ("NOUN", "VERB") else word
        answer = REACTIONS.get(token.lemma_.lower(), named)
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
