"""How someone feels at what happens to them, where the story does not say.

"The wolf chased the hare across the field" names no feeling, but every child answers
"How did the hare feel when the wolf chased her?" with "afraid": the kind of implicit
feeling question experts write most (FairytaleQA's implicit feelings are mostly "How did
X feel when Y?" with the feeling inferred). The verbs and their feelings are data
(``feeling_cues.json``), kept to deeds whose feeling nearly every reader agrees on.

Where the story tells the feeling itself, in the same sentence or the next ("The wolf
chased the hare. She laughed at him"), nothing is inferred: the told feeling is the
answer, and the explicit finders ask it.
"""

from __future__ import annotations

from qg_studio.generation.emotions import feel_when
from qg_studio.generation.emotions import named_someone
from qg_studio.generation.items import found_item
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import NOT_CHARACTERS
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import finish
from qg_studio.reading.lexicon import CAUSING_VERBS
from qg_studio.reading.lexicon import DONE_TO
from qg_studio.reading.lexicon import DONE_TO_THEIRS
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import GIFT_GIVING
from qg_studio.reading.lexicon import LOST_WITH
from qg_studio.reading.lexicon import REACTIONS
from qg_studio.reading.moments import in_progress
from qg_studio.reading.phrases import span_of
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section

GIVING = frozenset(GIFT_GIVING["verbs"])
GIFTS = frozenset(GIFT_GIVING["things"])
# A guess, not a statement the rules can check: below the explicit feeling finders (0.75).
CONFIDENCE = 0.6


def inferred_feeling_items(section: Section, analysis: Analysis) -> list[QAItem]:
    """One implicit feeling question per deed of the lists done to a character."""
    out = []
    sentences = analysis.sentence_clauses
    for index, clause_list in enumerate(sentences):
        after = sentences[index + 1] if index + 1 < len(sentences) else []
        # A feeling told in the sentence itself, whoever's, is left to the explicit
        # finders: "grew angry with the hen, because she had cheated her" asks the anger.
        if _feeling_told(clause_list):
            continue
        for clause in clause_list:
            if not _an_event(clause, analysis):
                continue
            found = _who_feels(clause)
            if found is None:
                continue
            who, written, feeling = found
            if not who or who == clause.subject_text or _feeling_told(after, who):
                continue
            when = feel_when(analysis, who, clause, written)
            question = finish(f"How did {who} feel when {when}")
            start, end = span_of(clause.tokens)
            item = found_item(
                question,
                feeling,
                Element.FEELING,
                False,
                section,
                start,
                end,
                CONFIDENCE,
                rule="feeling.done_to",
            )
            if item is not None:
                out.append(item)
    return out


def _an_event(clause: Clause, analysis: Analysis) -> bool:
    return (
        clause.head.i not in analysis.quoted
        and clause.head.pos_ == "VERB"
        and usable(clause)
        and not clause.negated
        and not in_progress(clause)
        and not any(t.tag_ == "MD" for t in clause.aux)  # "would punish him": not done
        and not _reported_or_short(clause)
    )


def _reported_or_short(clause: Clause) -> bool:
    """ "told him how she had chased the goat away and forbidden it to come back": a
    report, its pronoun most often the reporter's; and "forbidden" borrows the "had" of the
    verb before it, so the moment would read "when she forbidden it"."""
    first = clause.head
    while first.dep_ == "conj":
        first = first.head
    if any(t.tag_ in ("WRB", "WP") and t.i < first.i for t in first.subtree):
        return True
    return (
        first is not clause.head
        and not clause.aux
        and any(c.dep_ == "aux" and c.lemma_ == "have" for c in first.children)
    )


def _who_feels(clause: Clause) -> tuple[str, str, str] | None:
    """(who feels, as the clause writes them, the feeling) for a deed of the lists."""
    head = clause.head
    resolver = clause.resolver
    lemma = head.lemma_.lower()
    if lemma in LOST_WITH and not clause.passive:
        owner = _owner(clause.subject_head, resolver)
        return (owner, "", LOST_WITH[lemma]) if owner else None
    feeling = _done_to(head)
    if feeling and clause.passive:
        return clause.subject_text, "", feeling  # "the hare was chased by the wolf"
    objects = [t for t in head.children if t.dep_ == "dobj"]
    if not objects:
        return None
    if lemma in GIVING and any(t.lemma_.lower() in GIFTS for t in objects[0].subtree):
        to = _recipient(head)
        return (_someone(to, resolver), _as_written(to), GIFT_GIVING["feeling"]) if to else None
    if feeling:
        return _someone(objects[0], resolver), _as_written(objects[0]), feeling
    if lemma in DONE_TO_THEIRS:
        return _owner(objects[0], resolver), "", DONE_TO_THEIRS[lemma]
    return None


def _recipient(head):
    """Whom a gift goes to: "gave the lad a purse", "gave a purse to the lad"."""
    for child in head.children:
        if child.dep_ in ("dative", "iobj") and child.pos_ != "ADP":
            return child
        if child.dep_ in ("dative", "prep") and child.lower_ == "to":
            return next((c for c in child.children if c.dep_ == "pobj"), None)
    return None


def _as_written(token) -> str:
    return " ".join(x.text for x in token.subtree if x.i <= token.i)


def _done_to(head) -> str:
    """The feeling of the one a deed is done to, its particle first: "drove her away"."""
    lemma = head.lemma_.lower()
    for child in head.children:
        if child.dep_ in ("prt", "prep", "advmod"):
            phrase = f"{lemma} {child.lower_}"
            if phrase in DONE_TO:
                return DONE_TO[phrase]
    return DONE_TO.get(lemma, "")


def _owner(token, resolver) -> str:
    """Whose someone or something is: "the miller's purse", "her father"."""
    if token is None:
        return ""
    owners = [c for c in token.children if c.dep_ == "poss"]
    return _someone(owners[0], resolver) if owners else ""


def _someone(token, resolver) -> str:
    """Who the word stands for; a pronoun only where the one it is resolved to is told to
    be a "he", "she" or "they" alike: a guessed feeling on a guessed person is twice a
    guess ("his wife died" is not the little dog's, though the dog was named last)."""
    name = named_someone(token, resolver)
    if name.lower() in NOT_CHARACTERS or any(
        t.dep_ == "poss" and t.lower_ in PRONOUNS for t in token.subtree if t.i < token.i
    ):
        return ""  # "Sir" alone is no one; "his friend" is as sure as whose "his" is
    pronoun = PRONOUNS.get(token.lower_)
    if name and pronoun and resolver is not None:
        return name if PRONOUNS.get(resolver.pronoun_for(name) or "") == pronoun else ""
    return name


def _feeling_told(clauses: list[Clause], who: str = "") -> bool:
    """The clauses tell how someone felt (``who``, when given)."""
    for clause in clauses:
        if (not who or clause.subject_text == who) and (
            clause.head.lemma_.lower() in REACTIONS
            or any(t.lower_ in FEELINGS for t in clause.tail if t.dep_ in ("acomp", "dobj"))
        ):
            return True
        if clause.head.lemma_.lower() in CAUSING_VERBS and any(
            not who or named_someone(t, clause.resolver) == who
            for t in clause.tail
            if t.dep_ == "dobj"
        ):
            return True
    return False
