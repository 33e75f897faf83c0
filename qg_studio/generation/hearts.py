"""A feeling the story tells by one's heart: "her heart sank", "his heart grew heavy",
"Tibbs felt her heart grow heavy", "her heart leapt". The words name no feeling, so the
child reads the idiom (an implicit question): "How did Tibbs feel when the tune stopped?
– sad". Which move tells which feeling is data (``heart_moves`` in
``lang/en/feeling_cues.json``).
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.generation.emotions import feel_when
from qg_studio.generation.emotions import named_someone
from qg_studio.generation.items import found_item
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import finish
from qg_studio.reading.inflect import lemma_of
from qg_studio.reading.moments import event_before
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section

HEART_MOVES: dict[str, str] = lang.data("feeling_cues.json")["heart_moves"]
# An idiom read right is as sure as a feeling read from a deed done to someone.
CONFIDENCE = 0.65


def heart_items(section: Section, analysis: Analysis) -> list[QAItem]:
    out = []
    for index, (sent, clause_list) in enumerate(zip(analysis.sentences, analysis.sentence_clauses)):
        for heart in sent:
            found = _felt(heart, analysis)
            if found is None:
                continue
            who, feeling = found
            # "felt her heart grow heavy": the moment before the feeling, not the feeling
            clause = next((c for c in clause_list if heart in c.tokens), None)
            if clause is not None:
                prior = event_before(analysis, clause_list, clause, setting_off=True)
            else:  # "Tibbs's heart leapt", the verb tagged a noun: the sentence before
                before = analysis.sentence_clauses[index - 1] if index else []
                prior = next((c for c in reversed(before) if usable(c)), None)
            moment = feel_when(analysis, who, prior) if prior is not None else ""
            when = f" when {moment}" if moment else ""
            item = found_item(
                finish(f"How did {who} feel{when}"),
                feeling,
                Element.FEELING,
                False,
                section,
                sent.start_char,
                sent.end_char,
                CONFIDENCE,
                rule="feeling.heart",
            )
            if item is not None:
                out.append(item)
    return out


def _felt(heart, analysis: Analysis) -> tuple[str, str] | None:
    """(whose heart, the feeling) where ``heart`` is the subject of a move the list knows
    ("sank"; "grew heavy": the word it grew), in the narration."""
    if heart.lemma_.lower() != "heart" or heart.dep_ != "nsubj" or heart.i in analysis.quoted:
        return None
    verb = heart.head  # "leapt" the tagger may take for a noun: its lemma from the form
    moves = [lemma_of(verb.text, verb.lemma_)] + [
        c.lower_ for c in verb.children if c.dep_ == "acomp"
    ]
    feeling = next((HEART_MOVES[m] for m in reversed(moves) if m in HEART_MOVES), None)
    owner = next((c for c in heart.children if c.dep_ == "poss"), None)
    if feeling is None or owner is None or any(c.dep_ == "neg" for c in verb.children):
        return None
    who = named_someone(owner, analysis.resolver)
    return (who, feeling) if who else None
