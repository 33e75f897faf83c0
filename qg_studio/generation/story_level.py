"""Questions about the whole story, for any engine: who it is about, where it happens,
what they want, the turning point, how it ends, its lesson, and what comes next.

Engines write questions about one section at a time; a teacher also asks about the
story as a whole (FairytaleQA's *summary* questions). The pipeline adds these to any
engine's candidates, so every set can cover the story's shape. They are read off the
same parse the embedded engine uses (characters counted through resolved pronouns),
and each keeps the span of the story that answers it as evidence.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from qg_studio import lang
from qg_studio.generation.cast import character_key
from qg_studio.generation.cast import main_characters
from qg_studio.generation.cast import named_at
from qg_studio.generation.items import found_item
from qg_studio.generation.items import span_item
from qg_studio.generation.items import well_formed
from qg_studio.generation.places import MOTION_PREPOSITIONS
from qg_studio.generation.places import a_place
from qg_studio.generation.places import aimed
from qg_studio.generation.places import of_the_perceived
from qg_studio.generation.places import ranked_within
from qg_studio.generation.places import scene
from qg_studio.generation.places import whole_place
from qg_studio.generation.places import without_company
from qg_studio.generation.predictions import part_end_predictions
from qg_studio.generation.story_end import ending
from qg_studio.generation.story_end import lesson
from qg_studio.generation.story_end import moral_line
from qg_studio.generation.why_act import why_act
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.analysis import analyse_many
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.clauses import usable
from qg_studio.reading.grammar import ANSWER_TAIL
from qg_studio.reading.grammar import finish
from qg_studio.reading.grammar import happened
from qg_studio.reading.grammar import state
from qg_studio.reading.lexicon import PLACE_PREPOSITIONS
from qg_studio.reading.lexicon import STATE_VERBS
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.lexicon import WANTS
from qg_studio.reading.moments import POSTURES
from qg_studio.reading.moments import in_progress
from qg_studio.reading.phrases import phrase_of
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section

# The word lists are data files under qg_studio/lang/en/.
TURNS = lang.words("turn_openers.txt")  # "One day, ...": where the story turns
STILL = POSTURES | (STATE_VERBS - {"be"}) | frozenset(lang.function_words("going_verbs"))
# A place a child can say in one breath: "in a small village at the edge of a great forest".
LONGEST_PLACE = 11


def story_questions(sections: Sequence[Section], title: str = "") -> list[QAItem]:
    """Story-level candidates (scope summary) and predictions at the ends of parts."""
    sections = [s for s in sections if s.text.strip()]
    if not sections:
        return []
    analyses = analyse_many([s.text for s in sections])
    found = whole_story_questions(sections, analyses, title)
    # held to the same form as a section's ("Why did Wen spin it a third time?" is not)
    return [i for i in found + part_end_predictions(sections, analyses) if well_formed(i)]


def whole_story_questions(
    sections: Sequence[Section], analyses: Sequence[Analysis] | None = None, title: str = ""
) -> list[QAItem]:
    """The questions about the story as a whole: who, where, what they want, the turning
    point, why they act, how it ends, the lesson. ``title``: the story's own, when it has
    one ("The Goat and the Donkey" names its main characters)."""
    sections = [s for s in sections if s.text.strip()]
    if not sections:
        return []
    if analyses is None:
        analyses = analyse_many([s.text for s in sections])
    ids = [s.id for s in sections]
    cast = main_characters(analyses, title)
    moral = moral_line(sections[-1])
    turn = _turn(analyses)  # where the story turns: the where, turning point and why read it
    out: list[QAItem | None] = [
        _who(sections, analyses, cast, ids, title),
        _where(sections[0], analyses[0], ids, turn),
        _want(sections, analyses, cast, ids),
        _turning_point(sections, analyses, ids, turn),
        why_act(sections, analyses, cast, ids, turn),
        ending(sections[-1], analyses[-1], moral, ids),
        lesson(sections[-1], moral, ids),
    ]
    items = [i for i in out if i is not None]
    for item in items:
        item.scores.story_level = True
    return items


def _first_sentence_with(sections, analyses, name: str):
    key = character_key(name)
    for section, analysis in zip(sections, analyses):
        for sent in analysis.sentences:
            if key in sent.text.lower():
                return section, sent
    return sections[0], analyses[0].sentences[0]


def _who(sections, analyses, cast, ids, title: str = "") -> QAItem | None:
    if not cast or not analyses[0].sentences:
        return None
    both_named = len(cast) >= 2 and all(
        named_at(character_key(c), title) is not None for c in cast[:2]
    )
    if both_named or len(cast) >= 2 and _pair(analyses, cast):
        answer = f"{cast[0]} and {cast[1]}"
        question = "Who are the two main characters of the story?"
    else:
        answer, question = cast[0], "Who is the main character of the story?"
    section, sent = _first_sentence_with(sections, analyses, cast[0])
    return found_item(
        question,
        answer,
        Element.CHARACTER,
        True,
        section,
        sent.start_char,
        sent.end_char,
        0.8,
        ids,
        rule="story.who",
    )


def _pair(analyses, cast) -> bool:
    """Two characters share the stage when the second is talked about at least half as
    often as the first (a fable's two animals)."""
    counts: Counter = Counter()
    for analysis in analyses:
        text = analysis.text.lower()
        for name in cast[:2]:
            counts[name] += text.count(character_key(name))
    return counts[cast[1]] * 2 >= counts[cast[0]]


def _where(section: Section, analysis: Analysis, ids, turn=None) -> QAItem | None:
    """Where the story happens: the first place the opening sentences name, before the
    story turns (``turn``, from :func:`_turn`): "One hot day the Donkey slipped on a stone
    in the river" tells where something happened, not where the story takes place."""
    opening = analysis.sentences[:4]
    if turn is not None and turn[0] == 0:
        opening = opening[: turn[1]]
    for sent in opening:
        for token in sent:
            if (
                token.dep_ != "prep"
                or token.lower_ not in PLACE_PREPOSITIONS
                or token.lower_ in MOTION_PREPOSITIONS
                or token.i in analysis.quoted
                or aimed(token)
                or of_the_perceived(token)
                or ranked_within(token)
            ):
                continue
            # "by gleaning in the fields", "by the name of Old Tom": "by" tells where
            # only when what follows is a place itself ("by the river").
            if token.lower_ == "by" and not any(
                c.dep_ == "pobj" and a_place(c) for c in token.children
            ):
                continue
            # "in a small village at the edge of a great forest" is one place; a longer
            # one is said by its first part.
            phrase = without_company(whole_place(token))
            if len(phrase) > LONGEST_PLACE:
                phrase = without_company(phrase_of(token))
            nouns = [t for t in phrase if t.pos_ in ("NOUN", "PROPN")]
            # "At the edge of Fernwood Forest": a place anywhere in the phrase; a door or
            # a corner is where a scene happens, not the story.
            if not any(a_place(t) for t in nouns) or scene(token, nouns):
                continue
            if any(t.lower_ in PRONOUNS for t in phrase):
                continue  # "in the trees above her": where one is, seen from a character
            if len(phrase) > LONGEST_PLACE:
                continue
            start, end = phrase[0].idx, phrase[-1].idx + len(phrase[-1].text)
            return span_item(
                "Where does this story take place?",
                Element.SETTING,
                section,
                (start, end),
                0.75,
                ids,
                rule="story.where",
            )
    return None


def _want(sections, analyses, cast, ids) -> QAItem | None:
    """What a main character wants: "The Heron wanted to share the fish"."""
    keys = {character_key(c) for c in cast[:2]}
    for section, analysis in zip(sections, analyses):
        for clause_list in analysis.sentence_clauses:
            for clause in clause_list:
                if (
                    clause.head.lemma_ not in WANTS
                    or clause.negated  # "did not want to lose the tree"
                    or clause.head.i in analysis.quoted
                    or character_key(clause.subject_text) not in keys
                ):
                    continue
                goal = [c for c in clause.head.children if c.dep_ == "xcomp"]
                if not goal:
                    continue
                phrase = sorted(goal[0].subtree, key=lambda t: t.i)
                if not 1 < len(phrase) <= 12:
                    continue
                start, end = phrase[0].idx, phrase[-1].idx + len(phrase[-1].text)
                if any(ch in analysis.text[start:end] for ch in '\n:;"“”'):
                    continue
                verb = f"{clause.head.lemma_} to do"
                question = finish(f"What did {clause.subject_text} {verb}")
                return span_item(
                    question, Element.ACTION, section, (start, end), 0.75, ids, rule="story.want"
                )
    return None


def _turn(analyses) -> tuple[int, int, str] | None:
    """(section index, sentence index, opener) of the event that changes the story: the
    first "One day ..." (or "When winter came, ...") past its opening fifth."""
    total = sum(len(a.sentences) for a in analyses)
    seen = 0
    for at, analysis in enumerate(analyses):
        for index, sent in enumerate(analysis.sentences):
            seen += 1
            if seen <= max(1, total // 5):
                continue
            low = sent.text.strip().lower()
            opener = next(
                (t for t in TURNS if low.startswith(t + " ") or low.startswith(t + ",")), None
            )
            # "That evening Emil sat at the table", "The next morning Mira walked to the
            # bridge": a time picked out for a posture, a lasting state or a way somewhere
            # is the scene the turn comes in, not the turn ("the lane was deep in mud" is).
            if opener is None and sent.root.lemma_ not in STILL:
                opener = _one_time(low)
            if opener is not None and not any(t.i in analysis.quoted for t in sent):
                return at, index, opener
    return None


# What opens a time the story picks out: "one hot day", "that afternoon", "in the
# summer", "the next morning", "at dawn" (longest first).
TIME_OPENERS = (("the", "next"), ("in", "the"), ("one",), ("that",), ("next",), ("in",), ("at",))


def _one_time(low: str) -> str | None:
    """ "One hot day", "but one cold winter morning", "in the summer", "that afternoon": a
    time the story picks out, as the opener the turning-point question repeats."""
    words = re.findall(r"[a-z']+|,", low)[:7]
    lead = 1 if words[:1] in (["but"], ["then"]) else 0
    opener = next((o for o in TIME_OPENERS if tuple(words[lead : lead + len(o)]) == o), None)
    if opener is None:
        return None
    start = lead + len(opener)
    for end in range(start, min(start + 3, len(words))):
        if words[end] == ",":
            return None
        if words[end] in TIME_WORDS:
            while end + 1 < len(words) and words[end + 1] in TIME_WORDS:
                end += 1  # "one winter morning"
            return " ".join(words[: end + 1])
    return None


def _turning_point(sections, analyses, ids, found) -> QAItem | None:
    if found is None:
        return None
    at, index, opener = found
    section, analysis = sections[at], analyses[at]
    clause_list = analysis.sentence_clauses[index]
    main = [c for c in clause_list if usable(c) and c.head.dep_ == "ROOT"]
    if not main:
        return None
    clause = main[0]
    # "the sun was low, and Snowdrop was gone": how things stood, then what befell someone.
    joined = [
        c
        for c in clause_list
        if c.head.dep_ == "conj" and c.head.head == clause.head and usable(c) and c.subject_head
    ]
    thing = clause.subject_head is None or not is_someone(clause.subject_head)
    if _ongoing(clause) and thing and joined and is_someone(joined[0].subject_head):
        clause = joined[0]
    # "One summer a rich merchant came to live in the big house": the parse hangs "to
    # live …" apart, and "Lucia came" alone tells no event.
    if not clause.tail and any(
        c.dep_ == "advcl" and c.i > clause.head.i for c in clause.head.children
    ):
        return None
    if opener.endswith("when"):
        context = [c for c in clause_list if c.marker == "when" and usable(c)]
        if not context:
            return None
        question = finish(f"{happened(context[0])} when {state(context[0], tense_past=True)}")
        return found_item(
            question,
            state(clause, limit=ANSWER_TAIL),
            Element.OUTCOME,
            True,
            section,
            clause.start_char,
            clause.end_char,
            0.75,
            ids,
            rule="story.turning_point_when",
        )
    # "One night the miller was lying awake when the bell rang": the
    # state sets the scene; what happens in it is the event.
    sudden = [c for c in clause_list if c.marker == "when" and usable(c) and c is not clause]
    if _ongoing(clause) and sudden and not sudden[0].negated:
        clause = sudden[0]
    answer = state(clause, skip={t.i for t in clause.front}, limit=ANSWER_TAIL)
    answer = re.sub(rf"^{re.escape(opener)}\s*,?\s*", "", answer, flags=re.I)
    # "a strong wind shook the elm, and the magpie's nest tumbled to the ground": what it
    # did is the event too, told whole ("and by summer Bo had peas" is a time of its own).
    then = [
        c
        for c in joined
        if c.subject_text != clause.subject_text and c.head.i > clause.head.i and not c.front
    ]
    if then and len(answer.split()) + then[0].tail_words < ANSWER_TAIL:
        answer = f"{answer}, and {state(then[0], limit=ANSWER_TAIL)}"
    when = opener.replace("but ", "").replace("then ", "")
    question = finish(f"What important thing happened {when}")
    return found_item(
        question,
        answer,
        Element.ACTION,
        False,
        section,
        clause.start_char,
        clause.end_char,
        0.7,
        ids,
        rule="story.turning_point",
    )


def _ongoing(clause) -> bool:
    """A state or a doing in progress ("was lying awake", "was sitting"), not an event."""
    return clause.head.lemma_ == "be" or in_progress(clause)
