"""Predictions: what a character does early in the next part, asked where a part ends.

"What will the Goat do after she saw the fox?" is asked from the last event of a section
(or a paragraph) and answered by what the next one tells; the answer is a guess for the
reader (implicit). The section finders ask it between two sections, the story-level rules
at the end of every section and paragraph.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from collections.abc import Iterator
from collections.abc import Sequence
from dataclasses import replace
from itertools import islice

from qg_studio.generation.items import found_item
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.analysis import analyse_many
from qg_studio.reading.clauses import usable
from qg_studio.reading.deeds import NEXT_PART_SENTENCES
from qg_studio.reading.deeds import in_tense
from qg_studio.reading.deeds import is_deed
from qg_studio.reading.dialogue import tells_speech
from qg_studio.reading.grammar import ANSWER_TAIL
from qg_studio.reading.grammar import finish
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import STATE_VERBS
from qg_studio.reading.lexicon import WANTS
from qg_studio.reading.lexicon import WEAK_VERBS
from qg_studio.reading.moments import done_long_before
from qg_studio.reading.moments import event_before
from qg_studio.reading.moments import every_time
from qg_studio.reading.moments import in_progress
from qg_studio.reading.moments import no_event
from qg_studio.reading.moments import shifts_time
from qg_studio.reading.noun_phrases import head_noun
from qg_studio.reading.phrases import span_of
from qg_studio.reading.reference import vague
from qg_studio.reading.speakers import speaker
from qg_studio.reading.stage import Stage
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import QAItem
from qg_studio.schema import Scope
from qg_studio.schema import Section

# The moment a guess starts from is restated whole: a longer event would be cut mid-phrase
# ("after she let the travellers catch a glimpse of what was").
MAX_ANCHOR_WORDS = 7
# A guess starts where a part ends: a moment with more told after it than this many
# sentences ("The frogs peeped out" and eight sentences of talk) is no longer the end.
TOLD_AFTER = 4
# A state is no moment to guess from ("after the old Snail lived under a dock leaf",
# "after she needs a bed"); beginning, getting, letting and looking are ("after the
# Fairies began to drink").
STATES = (WEAK_VERBS | STATE_VERBS) - {"begin", "get", "let", "look"}


def predictions_between(
    section: Section,
    analysis: Analysis,
    following: Section,
    next_analysis: Analysis,
    spoke: Collection[str] = (),
) -> list[QAItem]:
    """What a character of this section does early in the next one, asked from the
    last event of this one (implicit: the reader has to guess it); not of those who
    ``spoke`` (head nouns) in between."""
    # With no moment to guess from, a guess can still start after the next part moves
    # the time on ("When winter came, …"), from the event told just before its deed.
    last, passed = _last_moment(analysis)
    # One guess from one moment: "What will the dog do after the cat brought the ring?"
    # beside "What will the cat do after ...?" asks twice. Of the first two guesses, the
    # one about the moment's own actor.
    guesses = list(
        islice(_guesses(section, analysis, last, following, next_analysis, passed, spoke), 2)
    )
    return [max(guesses, key=lambda i: i.scores.confidence)] if guesses else []


def _last_moment(analysis: Analysis):
    """The last event of a part that a guess can start from, as a clause, and who did a
    deed told after it that no guess can start from ("the Mole pulled it down into his
    tunnel"): what they did next is told, so no guess about them starts before it."""
    passed: set[str] = set()
    for told_after, clause_list in enumerate(reversed(analysis.sentence_clauses)):
        if told_after > TOLD_AFTER:
            break
        for clause in reversed(clause_list):
            if _a_moment(clause, analysis):
                return clause, passed
            if is_deed(clause, analysis):
                passed.add(head_noun(clause.subject_text))
    return None, passed


def _a_moment(c, analysis: Analysis) -> bool:
    """An event a guess can start from, told whole in a few words."""
    return (
        usable(c)
        and c.head.lemma_ not in SAYING_VERBS | STATES | WANTS  # "after she wanted to win"
        and c.head.i not in analysis.quoted
        and c.head.pos_ == "VERB"
        and not c.negated
        and 2 <= c.tail_words <= MAX_ANCHOR_WORDS
        and not any(t.text in (":", '"', "\u201c", "\u201d") for t in c.tail)
        and not tells_speech(c, analysis.quoted)
        # "after they used to stop their games": a habit is no moment to guess from.
        and not no_event(c)
        and not in_progress(c)  # "after she was sweeping the hearth": a scene
        # "she remembered the winter when his mother had shared her seeds": told now, done
        # long before; what comes next does not follow from it.
        and not done_long_before(c.head)
        # "it ran into its hole before he touched the ground": he never did.
        and c.marker not in ("before", "until", "till")
        and not every_time(c)
        and in_tense(c)
        and not vague(c, analysis)
    )


def _guesses(
    section: Section,
    analysis: Analysis,
    last,
    following: Section,
    next_analysis: Analysis,
    passed: set[str] = frozenset(),
    spoke: Collection[str] = (),
) -> Iterator[QAItem]:
    """Guesses from ``last``: what a character of this part does early in the next one."""
    # Who acts here, by the noun that names them: "the old farmer" is "the farmer" later.
    actors = {
        head_noun(c.subject_text) for cl in analysis.sentence_clauses for c in cl if usable(c)
    }
    moment, reader = last, analysis
    shifted = False
    # "She brought her a fish. The Heron bowed her head": what one does after another's
    # deed done to them answers that deed; it is guessed from it, not the part before.
    done: list = []
    for clause_list in next_analysis.sentence_clauses[:NEXT_PART_SENTENCES]:
        # "One day a fox came up the hill": what comes after a move in time is no guess
        # from the part before; it is guessed from the event told just before it.
        shifted = shifted or bool(clause_list and shifts_time(clause_list[0].head.sent))
        for clause in clause_list:
            # "Tibbs loved the tune": a state is no deed to guess
            state_of = clause.head.lemma_ in STATE_VERBS
            if not is_deed(clause, next_analysis) or every_time(clause) or state_of:
                # "every time he came down the mountain": no next deed, a habit; "showed
                # her how to flick it": no deed to guess, but done to her all the same
                # (seeing someone is not).
                done += [clause] if _shown_to(clause, next_analysis) else []
                continue
            doer = head_noun(clause.subject_text)
            answered = any(
                head_noun(c.subject_text) != doer and _done_to(c, doer, next_analysis) for c in done
            )
            done.append(clause)
            if doer not in actors:
                continue
            if shifted or answered:  # guessed from a moment just before it
                moment = event_before(next_analysis, clause_list, clause)
                reader = next_analysis
                if moment is None or not _a_moment(moment, next_analysis):
                    continue
            elif moment is None or doer in passed or doer in spoke:
                continue
            after = state(
                moment,
                tense_past=True,
                resolver=reader.resolver,
                same_as=clause.subject_text,
                name_objects=True,
            )
            if clause.passive:
                question = finish(f"What will happen to {clause.subject_text} after {after}")
            else:
                question = finish(f"What will {clause.subject_text} do after {after}")
            answer, (start, end) = state(clause, limit=ANSWER_TAIL), span_of(clause.tokens)
            joined = _short_second_deed(clause_list, clause)
            if joined is not None:
                answer += " and " + " ".join(
                    t.text for t in joined.aux + [joined.head] + joined.tail
                )
                end = joined.end_char
            own = head_noun(clause.subject_text) == head_noun(moment.subject_text)
            item = found_item(
                question,
                answer,
                Element.PREDICTION,
                False,
                following,
                start,
                end,
                0.6 + 0.15 * own,
                [section.id, following.id],
                rule="prediction.next_deed",
            )
            if item is not None:
                yield item


# A second deed joined to the guessed one is part of the guess while it is this short:
# "sat down and cried", "turned and ran home" (what the first verb alone leaves out).
SHORT_SECOND_DEED = 3


def _short_second_deed(clause_list, clause):
    """The deed "and" joins right after ``clause``, sharing its subject, if it is short."""
    at = next((k for k, c in enumerate(clause_list) if c is clause), None)
    if at is None or at + 1 >= len(clause_list):
        return None
    joined = clause_list[at + 1]
    if not joined.inherited or joined.marker != "and" or joined.tail_words > SHORT_SECOND_DEED:
        return None
    return joined


def speakers(analysis: Analysis) -> set[str]:
    """Who speaks in ``analysis`` (head nouns): '"I am sorry!" Teo shouted' → teo. The
    parser may end the sentence at the "!", so the sentence after a speech is asked too."""
    doc, quoted = analysis.doc, analysis.quoted
    found = set()
    for sent in doc.sents:
        after_speech = sent.start > 0 and (sent.start - 1 in quoted or doc[sent.start - 1].is_quote)
        if after_speech or any(t.i in quoted for t in sent):
            who = speaker(analysis.resolver, sent)
            found |= {head_noun(who)} if who else set()
    return found


def _done_to(clause, who: str, analysis: Analysis) -> bool:
    """Whether ``clause`` does something to ``who`` (a head noun): names them, or a
    pronoun that stands for them, after its verb ("She brought her a fish")."""
    return any(
        t.lower_ == who or head_noun(analysis.resolver.resolve(t) or "") == who
        for t in clause.tail
        if t.pos_ in ("NOUN", "PROPN", "PRON")
    )


def _shown_to(clause, analysis: Analysis) -> bool:
    """A clause that is no deed to guess but may still be done to someone."""
    return (
        usable(clause)
        and clause.head.i not in analysis.quoted
        and clause.head.lemma_ not in PERCEIVING
    )


def part_end_predictions(sections: Sequence[Section], analyses: Sequence[Analysis]) -> list[QAItem]:
    """ "What will the Goat do after she saw the fox?" asked where a section or a
    paragraph ends, answered by what the next part tells (implicit: a guess)."""
    out: list[QAItem] = []
    for index, (section, analysis) in enumerate(zip(sections, analyses)):
        if index + 1 < len(sections):
            out.extend(
                predictions_between(section, analysis, sections[index + 1], analyses[index + 1])
            )
        out.extend(_paragraph_predictions(section, analysis))
    for item in out:
        item.scores.section_end = True
    return out


def _paragraph_predictions(section: Section, analysis: Analysis) -> list[QAItem]:
    spans = [
        (m.start(), m.end()) for m in re.finditer(r"[^\n]+(?:\n(?!\s*\n)[^\n]+)*", section.text)
    ]
    # Each paragraph is read after the ones before it, as the section is: "past her" in
    # the second names the Snail the first told of. What the whole section tells of who is
    # who holds in each paragraph: "Tomasz", said once in each, is a name all the same.
    told = analysis.resolver.stage()
    known = replace(
        analysis.before or Stage(),
        names=told.names,
        aliases=told.aliases,
        genders=told.genders,
        personae=told.personae,
    )
    read = dict(zip(spans, analyse_many([section.text[a:b] for a, b in spans], known)))
    kept = [i for i, (a, b) in enumerate(spans) if len(section.text[a:b].split()) >= 12]
    out: list[QAItem] = []
    for i, j in zip(kept, kept[1:]):
        (a0, a1), (b0, b1) = spans[i], spans[j]
        here = Section(section.id, section.text[a0:a1])
        after = Section(section.id, section.text[b0:b1])
        first, second = read[(a0, a1)], read[(b0, b1)]
        # '"I am sorry!" Teo shouted.': a short paragraph between the two says what its
        # speakers did next; no guess about them leaps over it ("Teo found his sister").
        spoke = {s for k in range(i + 1, j) for s in speakers(read[spans[k]])}
        for item in predictions_between(here, first, after, second, spoke):
            # Offsets were read in the paragraph: move them into the section.
            ev = item.evidence[0]
            item.evidence = [Evidence(section.id, ev.start + b0, ev.end + b0, ev.text)]
            item.sections = [section.id]
            item.scope = Scope.LOCAL
            out.append(item)
    return out
