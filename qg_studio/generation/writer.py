"""The question an answer answers, for each narrative element.

The wordings follow the patterns that FairytaleQA's experts use most for each element
(mined from the train split, see ``models/embedded-qg/README.md``): "Who <predicate>?",
"What did X do when Y?", "Why did X <verb>?", "How did X feel when Y?", "What happened
after/when/because Y?", "Where did X <verb>?", "What will X do next?". Experts reuse the
words of the sentence around the answer, so the question is built from that sentence's
own clauses, with pronouns resolved.
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.analysis import Location
from qg_studio.reading.analysis import content
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import build_clause
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import ask_do
from qg_studio.reading.grammar import ask_subject
from qg_studio.reading.grammar import finish
from qg_studio.reading.grammar import happened
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import STATE_VERBS
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.lexicon import feeling_word
from qg_studio.reading.noun_phrases import mention_text
from qg_studio.schema import Element

REASON_MARKERS = frozenset(lang.function_words("reason_markers"))
EVENT_MARKERS = frozenset(lang.function_words("event_markers"))


def write(analysis: Analysis, loc: Location, element: Element, answer: str = "") -> str:
    """One question for the located answer, or "" when no clause fits."""
    question = _WRITERS[Element(element)](analysis, loc, answer)
    return question or _fallback(analysis, loc, element)


# ----------------------------------------------------------------------------- helpers


def _subject_overlap(clause: Clause, tokens: set[int]) -> float:
    ids = {t.i for t in clause.subject}
    return len(ids & tokens) / len(ids) if ids and not clause.inherited else 0.0


def _head_in(clause: Clause, tokens: set[int]) -> bool:
    return clause.head.i in tokens


def _sentence_clauses(analysis: Analysis, loc: Location) -> list[Clause]:
    return analysis.sentence_clauses[loc.sentence]


def context_clause(analysis: Analysis, loc: Location, markers=EVENT_MARKERS) -> Clause | None:
    """A clause of the answer's sentence, not the answer, that sets the scene: "when ..."."""
    for c in _sentence_clauses(analysis, loc):
        if c is loc.clause or not usable(c):
            continue
        ids = {t.i for t in c.tokens}
        if len(ids & loc.tokens) > len(ids) // 2:
            continue
        if c.marker in markers:
            return c
    return None


def previous_clause(analysis: Analysis, loc: Location) -> Clause | None:
    """The event just before the answer: an earlier clause of its sentence, else the
    last clause of the sentence before; an event, never a state ("lived", "was")."""
    same = [
        c
        for c in _sentence_clauses(analysis, loc)
        if usable(c)
        and loc.clause is not None
        and c.head.i < loc.clause.head.i
        and not (set(t.i for t in c.tokens) & loc.tokens)
    ]
    if same:
        return same[-1]
    for index in range(loc.sentence - 1, -1, -1):
        options = [
            c
            for c in analysis.sentence_clauses[index]
            if usable(c)
            and c.head.lemma_ not in ("say", "ask", "reply")
            and c.head.lemma_ not in STATE_VERBS
        ]
        if options:
            return options[-1] if len(options) < 3 else options[0]
    return None


def connective(clause: Clause, default: str = "after") -> str:
    return {
        "as": "when",
        "once": "after",
        "since": "because",
        "whenever": "when",
        "so": "because",
        "till": "until",
    }.get(clause.marker, clause.marker if clause.marker in EVENT_MARKERS else default)


def gap_with_preposition(analysis: Analysis, tokens: set[int]) -> set[int]:
    """Take the preposition that governs an answer phrase out with it ("on an island")."""
    gap = set(tokens)
    for i in tokens:
        t = analysis.doc[i]
        if t.dep_ == "pobj" and t.head.i not in gap and t.head.dep_ == "prep":
            gap.add(t.head.i)
    return gap


# ---------------------------------------------------------------------------- elements


def answer_root(analysis: Analysis, loc: Location):
    """The head word of an answer found verbatim: the token whose head lies outside it."""
    if not loc.exact:
        return None
    for i in sorted(loc.tokens):
        t = analysis.doc[i]
        if t.head.i not in loc.tokens or t.head.i == t.i:
            if t.pos_ in ("NOUN", "PROPN", "PRON", "NUM"):
                return t
    return None


def _by_role(analysis: Analysis, loc: Location, wh: str) -> str:
    """Ask about the answer through its grammatical role: the subject of a verb ("Who
    won?"), the subject of a relative clause on it ("Who was working at the anvil?"),
    an object ("Who did Knos meet?") or a predicate noun ("Who was the king?")."""
    root = answer_root(analysis, loc)
    if root is None:
        return ""
    resolver = analysis.resolver
    subtree = {t.i for t in root.subtree}
    if root.dep_ in ("nsubj", "nsubjpass") and root.head.pos_ in ("VERB", "AUX"):
        question = ask_subject(build_clause(root.head, resolver), wh)
        if len(question.split()) > 3:
            return question
    for child in root.children:
        if child.dep_ == "relcl" and child.pos_ in ("VERB", "AUX"):
            rel = build_clause(child, resolver)
            question = ask_subject(rel, wh, gap={t.i for t in rel.subject})
            if len(question.split()) > 3:
                return question
    verb = root.head
    if root.dep_ == "pobj" and verb.dep_ in ("prep", "agent"):
        verb = verb.head
    if root.dep_ in ("dobj", "dative", "pobj", "attr", "oprd") and verb.pos_ in ("VERB", "AUX"):
        clause = build_clause(verb, resolver)
        if usable(clause):
            return ask(clause, wh, gap=subtree - {verb.i})
    if root.dep_ == "appos":
        return finish(f"{wh} was {mention_text(list(root.head.subtree)[:1] + [root.head])}")
    return ""


def _character(analysis: Analysis, loc: Location, answer: str = "") -> str:
    question = _by_role(analysis, loc, "Who")
    if question:
        return question
    c = loc.clause
    if c is None:
        return ""
    if _subject_overlap(c, loc.tokens) >= 0.5:
        return ask_subject(c, "Who")
    if not _head_in(c, loc.tokens) and c.subject_text:
        return ask(c, "Who", gap=gap_with_preposition(analysis, loc.tokens) - {c.head.i})
    # A description: "old and blind" → "What was the giant like?"
    if c.head.lemma_ == "be" and c.subject_text:
        return finish(f"What was {c.subject_text} like")
    return ask_subject(c, "Who")


def _setting(analysis: Analysis, loc: Location, answer: str = "") -> str:
    c = loc.clause
    if c is None:
        return ""
    words = {w.lower() for w in loc_text(analysis, loc).split()}
    wh = (
        "When"
        if (
            words & TIME_WORDS
            or any(analysis.doc[i].ent_type_ in ("DATE", "TIME") for i in loc.tokens)
        )
        else "Where"
    )
    if _subject_overlap(c, loc.tokens) >= 0.5:
        return ask_subject(c, "What" if wh == "Where" else "Who")
    gap = gap_with_preposition(analysis, loc.tokens) - {c.head.i}
    return ask(c, wh, gap=gap)


def _action(analysis: Analysis, loc: Location, answer: str = "") -> str:
    c = loc.clause
    if c is None:
        return ""
    if _subject_overlap(c, loc.tokens) >= 0.5 and not _head_in(c, loc.tokens):
        return ask_subject(c, "Who")
    if _head_in(c, loc.tokens) or not loc.exact:
        ctx = context_clause(analysis, loc)
        extra = (
            f"{connective(ctx, 'when')} {state(ctx, resolver=analysis.resolver, same_as=c.subject_text)}"
            if ctx
            else ""
        )
        return ask_do(c, extra=extra)
    return ask(c, "What", gap=gap_with_preposition(analysis, loc.tokens) - {c.head.i})


def _causal(analysis: Analysis, loc: Location, answer: str = "") -> str:
    c = loc.clause
    if c is None:
        return ""
    # The answer is the reason clause: ask why about the clause it explains.
    if c.marker in REASON_MARKERS or c.head.dep_ in ("advcl",):
        target = _host(analysis, loc, c)
        if target is not None:
            return ask(target, "Why", gap=loc.tokens - {target.head.i})
    if not _head_in(c, loc.tokens) and c.subject_text:
        # "He went to the wood to fetch water" with the answer "to fetch water".
        return ask(c, "Why", gap=loc.tokens - {c.head.i})
    # The reason is its own sentence: the event is next to it.
    for other in _sentence_clauses(analysis, loc):
        if other is not c and other.subject_text and other.marker in ("so", "then", "and"):
            return ask(other, "Why", gap=loc.tokens - {other.head.i})
    prev = previous_clause(analysis, loc)
    if prev is not None:
        return ask(prev, "Why", gap=loc.tokens - {prev.head.i})
    return ask(c, "Why")


def _host(analysis: Analysis, loc: Location, clause: Clause) -> Clause | None:
    """The clause a subordinate clause hangs from."""
    head = clause.head.head
    for other in _sentence_clauses(analysis, loc):
        if other.head.i == head.i and other is not clause:
            return other
    for other in _sentence_clauses(analysis, loc):
        if other is not clause and other.subject_text:
            return other
    return None


def _outcome(analysis: Analysis, loc: Location, answer: str = "") -> str:
    c = loc.clause
    if c is None:
        return ""
    ctx = context_clause(analysis, loc, EVENT_MARKERS)
    if ctx is not None:
        return finish(f"{happened(ctx)} {connective(ctx)} {state(ctx, tense_past=True)}")
    if c.marker == "so":
        prev = previous_clause(analysis, loc)
        if prev is not None:
            return finish(f"{happened(prev)} because {state(prev, tense_past=True)}")
    prev = previous_clause(analysis, loc)
    if prev is not None:
        return finish(f"{happened(prev)} after {state(prev, tense_past=True)}")
    return ""


def _feeling(analysis: Analysis, loc: Location, answer: str = "") -> str:
    c = loc.clause
    if c is None or not c.subject_text:
        return ""
    present = c.head.tag_ in ("VBZ", "VBP")
    verb = "does" if present else "did"
    who = c.subject_text if animate_subject(c) else (main_character(analysis) or c.subject_text)
    ctx = context_clause(analysis, loc)
    if ctx is None and c.head.lemma_ not in lang.function_words("feeling_state_verbs"):
        ctx_text = f"when {state(c, tense_past=not present)}"
    elif ctx is not None:
        ctx_text = f"{connective(ctx, 'when')} {state(ctx)}"
    else:
        prev = previous_clause(analysis, loc)
        ctx_text = f"when {state(prev)}" if prev is not None else ""
    return finish(f"How {verb} {who} feel {ctx_text}")


def main_character(analysis: Analysis) -> str:
    """The character named most often as a subject in the section."""
    from collections import Counter

    counts: Counter = Counter()
    for clause_list in analysis.sentence_clauses:
        for c in clause_list:
            who = c.subject_head
            if (
                usable(c)
                and who is not None
                and (is_animate(who) or who.lower_ in ("he", "she", "they"))
            ):
                counts[c.subject_text] += 1
    return counts.most_common(1)[0][0] if counts else ""


def animate_subject(c: Clause | None) -> bool:
    if c is None or not usable(c):
        return False
    who = c.subject_head
    return who is not None and (is_animate(who) or who.lower_ in ("he", "she", "they"))


def _prediction(analysis: Analysis, loc: Location, answer: str = "") -> str:
    c = loc.clause
    answer_words = set(content(answer or loc_text(analysis, loc)))
    who = c.subject_text if animate_subject(c) else main_character(analysis)
    if not who:
        return ""
    if answer_words & FEELINGS or len(answer.split()) == 1:
        return finish(f"How will {who} feel")
    event = (
        state(c, tense_past=True, resolver=analysis.resolver, same_as=who)
        if c is not None and usable(c)
        else ""
    )
    extra = f"after {event}" if event else "next"
    if c is not None and c.passive:
        return finish(f"What will happen to {who} {extra}")
    return finish(f"What will {who} do {extra}")


def _fallback(analysis: Analysis, loc: Location, element: Element) -> str:
    c = loc.clause
    if c is not None and c.subject_text:
        return ask_do(c) or ask(c, "Why")
    return ""


def loc_text(analysis: Analysis, loc: Location) -> str:
    return analysis.text[loc.start : loc.end]


_WRITERS = {
    Element.CHARACTER: _character,
    Element.SETTING: _setting,
    Element.ACTION: _action,
    Element.FEELING: _feeling,
    Element.CAUSAL: _causal,
    Element.OUTCOME: _outcome,
    Element.PREDICTION: _prediction,
}

__all__ = ["write", "feeling_word", "FEELINGS"]
