"""Setting questions: where or when a clause happens, from its place or time phrase."""

from __future__ import annotations

from qg_studio import lang
from qg_studio.generation.items import clause_item
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.clauses import Clause
from qg_studio.reading.grammar import ask
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import PLACE_NOUNS
from qg_studio.reading.lexicon import PLACE_PREPOSITIONS
from qg_studio.reading.lexicon import REACHING
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.phrases import phrase_of
from qg_studio.reading.phrases import set_off
from qg_studio.schema import Element
from qg_studio.schema import QAItem

WHEN_PREPOSITIONS = lang.function_words("time_prepositions")
DEGREES = lang.function_words("time_degrees")  # "early in the morning"
AIMED_VERBS = lang.words("aimed_verbs.txt")
FAR = ("far", "away", "off", "beyond")
NEAR = ("next", "close", "near", "right")  # "next to the school", "close to the river"
SCENE_PLACES = lang.words("scene_places.txt")
OPEN_PLACES = lang.words("open_places.txt")
EVERYWHERE = lang.words("everywhere_places.txt")  # "to the ground", "across the sky"
CHANGE_VERBS = lang.words("change_verbs.txt")
ATTENDING = frozenset(lang.function_words("attending_verbs"))  # "listened to", "stared at"
MOTION_PREPOSITIONS = lang.function_words("motion_prepositions")  # "from school", "to it"


def aimed(prep) -> bool:
    """ "looked up at the high walls", "hooted at the moon": what one looks, calls or
    leaps at, not where one is."""
    return prep.lower_ == "at" and prep.head.lemma_.lower() in AIMED_VERBS


def scene(prep, nouns) -> bool:
    """ "at his door", "on the kitchen windowsill": where a scene happens; "in the forest
    floor" is the forest, and "in the corner of the garden" the garden."""
    objects = [c for c in prep.children if c.dep_ == "pobj"] + nouns[:1]
    outdoors = any(
        c.dep_ == "compound" and c.lemma_.lower() in OPEN_PLACES
        for t in objects
        for c in t.children
    )
    # "in the corner of Mrs. Alder's garden": the corner of a place is that place.
    of_a_place = any(
        a_place(t) and t.lemma_.lower() not in SCENE_PLACES and t.head.lower_ == "of"
        for t in nouns[1:]
    )
    return not (outdoors or of_a_place) and any(t.lemma_.lower() in SCENE_PLACES for t in objects)


def a_place(token) -> bool:
    return token.lemma_.lower() in PLACE_NOUNS or token.ent_type_ in ("GPE", "LOC", "FAC")


def without_company(phrase: list) -> list:
    """ "by a barn with a Goat": who is there is no part of where, nor what one brings
    ("from the next valley with their broken jugs"), nor an "itself" ("to the town hall
    himself")."""
    company = {
        x.i
        for t in phrase
        if t.lower_ == "with"
        and any(is_animate(o) or any(c.dep_ == "poss" for c in o.children) for o in t.children)
        for x in t.subtree
    }
    kept = [t for t in phrase if t.i not in company]
    while len(kept) > 2 and kept[-1].lower_.endswith(("self", "selves")):
        kept.pop()
    return kept


def whole_place(prep) -> list:
    """The place phrase with what the parser hung on its verb but tells where the place is:
    "from a city far away", "on a farm far from any town", "in the house next to the
    school", "in a beech tree at the edge of the wood"."""
    doc = prep.doc
    phrase = phrase_of(prep)
    # "lived far away from the town": how far from where is where one lived
    while (
        phrase[0].i > 0
        and phrase[0].lower_ in ("from",) + FAR
        and doc[phrase[0].i - 1].lower_ in FAR
    ):
        phrase.insert(0, doc[phrase[0].i - 1])
    while phrase[-1].i + 1 < len(doc) and doc[phrase[-1].i + 1].lower_ in FAR:
        far = doc[phrase[-1].i + 1]
        if far.head.dep_ == "prep" and far.head.i > far.i:  # "a farm far from any town"
            phrase += sorted(far.head.subtree, key=lambda t: t.i)
            break
        phrase.append(far)
    after = doc[phrase[-1].i + 1] if phrase[-1].i + 1 < len(doc) else None
    locating = (
        after is not None
        and after.dep_ == "prep"
        and after.head == prep.head
        and after.lower_ in PLACE_PREPOSITIONS
        and after.lower_ not in MOTION_PREPOSITIONS
        and any(t.dep_ == "pobj" and a_place(t) for t in after.subtree)  # "at the foot of a hill"
    )
    near = after is not None and after.lower_ in NEAR
    if locating or (near and any(c.dep_ == "prep" for c in after.children)):
        phrase += sorted(after.subtree, key=lambda t: t.i)
    return phrase


def of_the_perceived(prep) -> bool:
    """ "listened to the rain on the roof", "heard the wind in the chimney": where what one
    hears or sees is, not where one is ("watched the boats from the hill" is)."""
    verb = prep.head
    if verb.lemma_ not in PERCEIVING | ATTENDING or prep.lower_ == "from":
        return False
    return any(
        c.i < prep.i and (c.dep_ == "dobj" or (c.dep_ == "prep" and c.lower_ in ("to", "at")))
        for c in verb.children
    )


def ranked_within(prep) -> bool:
    """ "her loaves were the best in the valley": the place a superlative ranks within, not
    where the story is ("the best baker in the town" names where the baker is). The tagger
    may take a rarer superlative for a noun ("were the reddest in the valley")."""
    head = prep.head
    return head.tag_ in ("JJS", "RBS") or (
        head.dep_ in ("attr", "acomp")
        and head.lower_.endswith("est")
        and not a_place(head)  # "the forest", "the west"
        and any(c.lower_ == "the" for c in head.children)
    )


def _place_phrase(clause: Clause):
    for t in clause.tail:
        # "fed the hens early in the morning": the time may hang on its "early"
        on_degree = t.head.lower_ in DEGREES and t.head.head.i == clause.head.i
        on_verb = t.head.i == clause.head.i or on_degree
        if t.dep_ == "prep" and on_verb and t.lower_ in PLACE_PREPOSITIONS:
            if (
                aimed(t)
                or of_the_perceived(t)
                or (t.lower_ == "into" and t.head.lemma_.lower() in CHANGE_VERBS)
            ):
                continue  # "the street turned into a stream": what it became, not where
            objs = [c for c in t.children if c.dep_ == "pobj"]
            if not objs:
                continue
            obj = objs[0]
            if obj.lower_ in TIME_WORDS or obj.ent_type_ in ("DATE", "TIME"):
                # "woke in time", "came on time": not late; "one at a time": how many;
                # no time to ask about.
                if obj.lower_ == "time" and all(c.lower_ == "a" for c in obj.children):
                    continue
                # "in winter", "on the third day"; "by one day" is no time a child can say.
                if t.lower_ in WHEN_PREPOSITIONS:
                    return "When", t
                continue
            named = clause.resolver is not None and clause.resolver.name_of(obj)
            if a_place(obj) and not named and obj.lemma_.lower() not in EVERYWHERE:
                return "Where", t  # not "ran to Marit": to someone; nor "to the ground"
    return None


def setting_item(section, analysis, clause, context, clause_list) -> QAItem | None:
    """Where (or when) the clause happens, asked of its place phrase: "Where did the
    fox hide? – in the reeds"."""
    found = _place_phrase(clause)
    if found is None or clause.head.lemma_ in SAYING_VERBS or clause.negated:
        return None  # "He was not from their country": no place to answer with
    wh, prep = found
    if clause.head.lemma_ in REACHING and any(c.dep_ == "dobj" for c in clause.head.children):
        return None  # "reached the old mill by the river": where the mill is, not the reaching
    subject = clause.subject_head
    if subject is not None and subject.lower_ in TIME_WORDS:
        return None  # "Winter had come to the park": a time comes, it goes nowhere
    if prep.lower_ == "from" and any(
        t.dep_ == "prep" and t.lower_ in ("to", "into") and t.head.i == prep.head.i
        for t in clause.tail
    ):
        return None  # "from one room to the other": asking one end garbles the other
    phrase = whole_place(prep)
    degree = prep.doc[prep.i - 1] if prep.i else None
    if wh == "When" and degree is not None and degree.dep_ == "advmod" and degree.lower_ in DEGREES:
        phrase = [degree, *(t for t in phrase if t != degree)]  # one time, asked whole
    if prep.lower_ == "from" and any(t.lower_ == "to" for t in phrase):
        return None  # "from cliff to cliff": a way, not where from
    gap = {t.i for t in phrase} | set_off(prep)
    if any(
        t.dep_ == "cc" and t.i not in gap and t.head.pos_ != "VERB" and t.head.head == clause.head
        for t in clause.tail
    ):
        return None  # "on the hill above and in the valley below": one half garbles
    # "A storm blew in from the sea": "Where did the storm blow in from?"
    source = prep.lower_ == "from" and phrase[0] == prep
    extra = "from" if source else ""
    if clause.head.lemma_ == "come" and wh == "Where" and not source:
        # "Where did Bramble come?" says nothing: "come to" where; "came over the hill"
        # is the way it came, no place
        if prep.lower_ not in ("to", "into"):
            return None
        extra = "to"
    question = ask(clause, wh, gap=gap, extra=extra)
    if len(question.split()) < 4:
        return None
    found = without_company(phrase)
    return clause_item(question, Element.SETTING, section, found, 0.7, clause, rule="setting.place")
