"""Several wordings of the question for one answer, and the mined choice among them.

For a given answer and element there are usually a few sound questions: "What did the
fox do?" or "What did the fox do when the dog barked?", "Why did X go?" about the
clause before the reason or the one after it. Which one expert question writers
prefer depends on where the answer sits (its role in the sentence, whether it was
found verbatim, the connective around it). :mod:`qg_studio.generation.mine` measures
every wording against the FairytaleQA train questions and stores, per situation, the
wording that agrees with the experts most (``models/embedded-qg/choices.json``);
:func:`choose` applies it, falling back to the hand-ordered rule.
"""

from __future__ import annotations

import json
from functools import lru_cache

from qg_studio.generation import writer as w
from qg_studio.paths import shipped
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.analysis import Location
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import ask
from qg_studio.reading.grammar import ask_do
from qg_studio.reading.grammar import ask_subject
from qg_studio.reading.grammar import finish
from qg_studio.reading.grammar import happened
from qg_studio.reading.grammar import state
from qg_studio.schema import Element

CHOICES_FILE = shipped("models", "embedded-qg", "choices.json")


def signature(analysis: Analysis, loc: Location, element: Element, answer: str) -> str:
    """The situation of an answer, coarse enough to have many train examples each."""
    root = w.answer_root(analysis, loc)
    role = root.dep_ if root is not None else "none"
    role = (
        role
        if role in ("nsubj", "nsubjpass", "dobj", "pobj", "attr", "conj", "appos", "none")
        else "other"
    )
    c = loc.clause
    head_in = "vp" if c is not None and c.head.i in loc.tokens else "np"
    marker = c.marker if c is not None and c.marker in w.EVENT_MARKERS | w.REASON_MARKERS else "-"
    n = len(answer.split())
    size = "1" if n <= 1 else "short" if n <= 4 else "long"
    return "|".join((element.value, "exact" if loc.exact else "para", role, head_in, marker, size))


def variants(analysis: Analysis, loc: Location, element: Element, answer: str) -> dict[str, str]:
    """Named wordings for this answer; the "rule" wording is the hand-written default."""
    out: dict[str, str] = {}
    rule = w.write(analysis, loc, element, answer)
    if rule:
        out["rule"] = rule
    c = loc.clause
    if c is None:
        return out
    res = analysis.resolver
    who = c.subject_text if w.animate_subject(c) else (w.main_character(analysis) or c.subject_text)
    ctx = w.context_clause(analysis, loc)
    prev = w.previous_clause(analysis, loc)
    nxt = _next_clause(analysis, loc)
    ctx_text = (
        f"{w.connective(ctx, 'when')} {state(ctx, resolver=res, same_as=who)}"
        if ctx is not None
        else ""
    )
    prev_text = (
        f"after {state(prev, tense_past=True, resolver=res, same_as=who)}"
        if prev is not None
        else ""
    )
    gap = w.gap_with_preposition(analysis, loc.tokens) - {c.head.i}
    if element == Element.ACTION:
        if usable(c):
            out["do"] = ask_do(c)
            if ctx_text:
                out["do_ctx"] = ask_do(c, extra=ctx_text)
            if prev_text:
                out["do_prev"] = ask_do(c, extra=prev_text)
            out["what_gap"] = ask(c, "What", gap=gap)
            out["how_gap"] = ask(c, "How", gap=gap)
    elif element == Element.CHARACTER:
        out["who_subject"] = ask_subject(c, "Who")
        if usable(c):
            out["who_gap"] = ask(c, "Who", gap=gap)
            if c.head.lemma_ == "be":
                out["what_like"] = finish(f"What was {c.subject_text} like")
    elif element == Element.SETTING:
        if usable(c):
            out["where_gap"] = ask(c, "Where", gap=gap)
            out["when_gap"] = ask(c, "When", gap=gap)
            out["where_subject"] = ask_subject(c, "Where")
    elif element == Element.CAUSAL:
        for name, clause in (
            ("why_clause", c),
            ("why_prev", prev),
            ("why_next", nxt),
            ("why_ctx", ctx),
        ):
            if clause is not None and usable(clause):
                out[name] = ask(clause, "Why", gap=loc.tokens - {clause.head.i})
    elif element == Element.OUTCOME:
        for name, clause, conn in (
            ("after_prev", prev, "after"),
            ("when_prev", prev, "when"),
            ("because_prev", prev, "because"),
            ("ctx", ctx, w.connective(ctx) if ctx else ""),
        ):
            if clause is not None and usable(clause):
                out[name] = finish(f"{happened(clause)} {conn} {state(clause, tense_past=True)}")
        if who:
            out["to_who"] = finish(f"What happened to {who}")
    elif element == Element.FEELING:
        if who:
            verb = "does" if c.head.tag_ in ("VBZ", "VBP") else "did"
            out["feel"] = finish(f"How {verb} {who} feel")
            if ctx_text:
                out["feel_ctx"] = finish(f"How {verb} {who} feel {ctx_text}")
            if prev is not None:
                out["feel_prev"] = finish(
                    f"How {verb} {who} feel when {state(prev, resolver=res, same_as=who)}"
                )
                out["feel_after_prev"] = finish(f"How {verb} {who} feel {prev_text}")
    elif element == Element.PREDICTION:
        if who:
            out["will_feel"] = finish(f"How will {who} feel")
            out["will_do"] = finish(f"What will {who} do {prev_text or 'next'}")
            out["will_happen_to"] = finish(f"What will happen to {who} {prev_text}")
            if prev is not None:
                out["will_happen_after"] = finish(
                    f"What will happen after {state(prev, tense_past=True)}"
                )
    return {k: v for k, v in out.items() if v}


def _next_clause(analysis: Analysis, loc: Location):
    for index in range(loc.sentence + 1, min(loc.sentence + 2, len(analysis.sentences))):
        options = [c for c in analysis.sentence_clauses[index] if usable(c)]
        if options:
            return options[0]
    return None


@lru_cache(maxsize=1)
def _choices() -> dict:
    try:
        return json.loads(CHOICES_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def choose(analysis: Analysis, loc: Location, element: Element, answer: str) -> str:
    """The wording experts most agree with in this situation (mined), else the rule."""
    options = variants(analysis, loc, element, answer)
    if not options:
        return ""
    table = _choices()
    sig = signature(analysis, loc, element, answer)
    for name in table.get("by_signature", {}).get(sig, []):
        if name in options:
            return options[name]
    for name in table.get("by_element", {}).get(element.value, []):
        if name in options:
            return options[name]
    return options.get("rule") or next(iter(options.values()))
