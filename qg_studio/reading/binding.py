"""Who a pronoun can and cannot stand for, by where it sits in its sentence.

A pronoun never stands for a character its own clause names ("The Crow laughed at her":
not the Crow; "he said to the cat": not the cat); a subject beside a clause that names
an owner is most likely that owner ("The miller's face fell as he read the letter"); and
a pronoun said inside a clause hung on a subject's verb may well be that subject ("The
smallest Hare was so frightened that he ran"). The resolver (:mod:`mentions`) weighs
these with recency, gender and number.
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.animacy import _gender
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.noun_phrases import SUBJECT_ROLES
from qg_studio.reading.noun_phrases import Mention
from qg_studio.reading.noun_phrases import governor
from qg_studio.reading.noun_phrases import head_noun
from qg_studio.reading.noun_phrases import mention_text
from qg_studio.reading.noun_phrases import own_verb

# The family one is known by ("Amira's father"): a later "her father" is hers.
KIN = lang.words("kin_nouns.txt")
GROUND_PREPOSITIONS = frozenset(lang.function_words("ground_prepositions"))
# What an "it" that points at nothing does: "it began to rain", "it seemed that …".
IMPERSONAL = frozenset(lang.function_words("impersonal_verbs"))
THING_ROLES = ("nsubj", "dobj", "pobj", "attr")  # a thing named there may be the "it"


def coarguments(doc, token, mentions, verb_args, name_of) -> set[str]:
    """The characters ``token``'s own clause names: what a pronoun that is not reflexive
    cannot stand for. ``verb_args`` maps a verb to its nouns and pronouns; ``name_of``
    gives the character a name or a named noun is."""
    verb = governor(token)
    # Its verb's other arguments, and the subject a conjoined verb shares ("they chased
    # him and shouted at him": the second "him" is the first one's, not another).
    own = {
        i
        for i in verb_args.get(verb, set())
        if doc[i].dep_ in SUBJECT_ROLES or own_verb(doc[i]) == own_verb(token)
    }
    # "A Squirrel watched her hide it": "her" is the object of "watched" as much as
    # the subject of "hide", so it is no more the Squirrel than in "watched her".
    if token.lower_ in ("him", "her", "them") and token.head.dep_ in ("ccomp", "xcomp"):
        own = own | verb_args.get(governor(token.head), set())
    if _perceived_about(doc, token, verb):
        own = {i for i in own if doc[i].dep_ not in SUBJECT_ROLES}
    if token.dep_ == "poss" and _done_by_a_thing(doc[verb]):
        # "The wind caught the crow in the middle of his boasting": his, the crow's
        own = {i for i in own if doc[i].dep_ in SUBJECT_ROLES}
    named = {m.text for m, _ in mentions if m.index in own}
    # Named later in the clause too: "he shared every cherry with Nutkin" is not Nutkin,
    # "he said to the cat" not the cat, "she caught a mouse" not the mouse.
    named |= {name_of(doc[i]) for i in own if i != token.i} - {None}
    later = [doc[i] for i in own if i > token.i and doc[i].pos_ in ("NOUN", "PROPN")]
    return named | {m.text for m, _ in mentions if any(may_name(noun, m.text) for noun in later)}


def _done_by_a_thing(verb) -> bool:
    """Whether the verb's subject is a thing, no one: "it", "the wind", "a branch"."""
    subjects = [c for c in verb.children if c.dep_ == "nsubj"]
    return bool(subjects) and all(
        s.lower_ == "it" or (s.pos_ == "NOUN" and not is_animate(s) and not s._.persona)
        for s in subjects
    )


def _perceived_about(doc, token, verb: int) -> bool:
    """ "He heard a flutter above him", "She saw a light ahead of her": the pronoun is the
    ground a thing is perceived about, and that may well be the one perceiving. Not where
    the subject itself moves ("The Fox jumped over him"), nor a thing put about another
    ("The hunter threw a net over him")."""
    # "ahead of her": the ground word is the one "of" hangs on.
    ground = token.head.head if token.head.lower_ == "of" else token.head
    return (
        token.dep_ == "pobj"
        and doc[verb].lemma_.lower() in PERCEIVING
        and ground.lower_ in GROUND_PREPOSITIONS
        and any(c.dep_ == "dobj" and c.i != token.i for c in doc[verb].children)
    )


def may_name(noun, mention: str) -> bool:
    """Whether ``noun`` may name the character ``mention``: its head noun, and the words it
    is told apart by ("the Country Mouse" is not "the Town Mouse"; "another dog" no dog
    named before)."""
    words = mention.lower().split()
    marks = [t.lower_ for t in noun.children if t.dep_ in ("amod", "compound", "det")]
    if "another" in marks or "other" in marks:
        return False
    told = [w for w in marks if w not in ("a", "an", "the", "this", "that")]
    return noun.lemma_.lower() == head_noun(mention) and all(w in words for w in told)


def subject_owner(doc, mentions, token, fits) -> Mention | None:
    """ "The miller's face fell as he read the letter": "he" is the miller, whose face it
    is, not the boy named last; so in "When Anselm's arm was well again, he sat"."""
    verb = doc[governor(token)]
    if token.dep_ not in SUBJECT_ROLES:
        return None
    # "… as he read the letter" under "The miller's face fell"; and "When Anselm's arm
    # was well again, he sat in the boat": the clause beside it names whose it is.
    if verb.dep_ == "advcl":
        beside = [verb.head]
    else:
        beside = [c for c in verb.children if c.dep_ == "advcl" and c.i < token.i]
    owners = [
        p
        for clause_head in beside
        for subject in clause_head.children
        if subject.dep_ in SUBJECT_ROLES
        for p in subject.children
        if p.dep_ == "poss" and p.pos_ in ("NOUN", "PROPN") and is_animate(p)
    ]
    for owner in owners:
        found = owner_mention(owner, mentions)
        if fits(found):
            return found
    return None


def twin_subject(token):
    """ "The big grey clouds saw what it had done, and they did not laugh again": a "they"
    that opens a clause joined to one with a plural subject of its own stands for that
    subject, be it someone or a thing (then no one the story named before)."""
    verb = token.head
    if token.lower_ != "they" or token.dep_ not in SUBJECT_ROLES or verb.dep_ != "conj":
        return None
    # A parser may hang the first clause from its subject ("The old chairs creaked").
    head = verb.head
    kids = (c for c in head.children if c.dep_ in SUBJECT_ROLES)
    first = head if head.pos_ in ("NOUN", "PROPN") else next(kids, None)
    plural = first is not None and first.tag_ in ("NNS", "NNPS") and first.pos_ != "PRON"
    return first if plural else None


def given_own(doc, mentions, token, fits) -> Mention | None:
    """ "gave Liesel a lamb of her own": the one given it, else the giver."""
    if token.head.lower_ != "own":
        return None
    args = [c for c in doc[governor(token)].children if c.dep_ in ("dative", *SUBJECT_ROLES)]
    for arg in sorted(args, key=lambda c: c.dep_ != "dative"):
        found = next((m for m, _ in reversed(mentions) if m.index == arg.i and fits(m)), None)
        if found is not None:
            return found
    return None


def persona_it(token, mentions, personae) -> Mention | None:
    """ "The little Cloud was sad. It drifted away": a subject "it" is a thing the story
    makes a person (capitalised, given a voice, a mind or a feeling) when that thing is
    the latest subject, or named since with no other thing after it ("The girl read until
    midnight, and it glowed with pride"). Not an "it" that points at nothing ("It was a
    dark night", "it began to rain"), nor a thing named since ("A boy threw a ball. It
    bounced")."""
    verb = token.head
    if token.dep_ != "nsubj":
        return None
    if verb.lemma_ == "be" and not any(
        c.dep_ == "acomp" and c.lower_ in FEELINGS for c in verb.children
    ):
        return None
    if _impersonal(verb):
        return None
    earlier = [(m, subject) for m, subject in mentions if m.index < token.i]
    subjects = [m for m, subject in earlier if subject]
    if subjects and _a_persona(subjects[-1], personae):
        found = subjects[-1]
    else:
        found = next((m for m, _ in reversed(earlier) if _a_persona(m, personae)), None)
        doc = token.doc
        things = found is not None and any(
            t.pos_ == "NOUN"
            and t.dep_ in THING_ROLES
            and not is_animate(t)
            and t.lemma_.lower() not in TIME_WORDS
            and t.lemma_.lower() not in personae
            for t in doc[max(found.index, 0) + 1 : token.i]
        )
        if found is None or things:
            return None
    token._.persona = True
    return found


def latest_of_its_noun(text: str, mentions) -> str:
    """The latest one named with ``text``'s noun ("the old miller … the miller's heart")."""
    head = head_noun(text)
    return next((m.text for m, _ in reversed(mentions) if head_noun(m.text) == head), text)


def gender_named_before(text: str, mentions) -> str:
    """A bare "the mouse" is the one mouse named more fully before ("A field mouse came …
    her fur … The mouse ran on"), and keeps the gender the text gave her; not where two
    were ("a grey mouse and a brown mouse")."""
    head = head_noun(text)
    if text != f"the {head}":
        return ""
    fuller = {m.text: m for m, _ in mentions if head_noun(m.text) == head and m.text != text}
    if len(fuller) != 1:
        return ""
    (one,) = fuller.values()
    return "" if one.plural else one.gender


def _impersonal(verb) -> bool:
    """ "it began to rain", "it seemed that …": an "it" of no one; not "it seemed to hum"
    nor "it turned to look at her", where what follows is what the it did."""
    done = [c for c in verb.children if c.dep_ == "xcomp"]
    if verb.lemma_ in IMPERSONAL and done and all(c.lemma_ not in IMPERSONAL for c in done):
        return False
    return verb.lemma_ in IMPERSONAL or any(c.lemma_ in IMPERSONAL for c in verb.children)


def _a_persona(mention: Mention, personae) -> bool:
    return not mention.plural and not mention.gender and head_noun(mention.text) in personae


def listed_object(doc, index: int) -> bool:
    """ "Kofi showed Ama the hunter and the tall bird. She lay beside him": one of things
    shown or given in a list is no "him" or "her" later (it would have to say which)."""
    if index < 0:
        return False
    token = doc[index]
    first = token.head if token.dep_ == "conj" else token
    listed = token.dep_ == "conj" or any(c.dep_ == "conj" for c in token.children)
    return listed and first.dep_ in ("dobj", "pobj", "dative")


def owner_mention(owner, mentions) -> Mention:
    """The character an owner word ("the miller's", "Amira's") names: the latest mention
    with its head noun, or, named only as the owner so far, one made of it."""
    named = head_noun(owner.text)
    found = next((m for m, _ in reversed(mentions) if head_noun(m.text) == named), None)
    return found or Mention(
        mention_text([t for t in owner.subtree if t.dep_ != "case"]), _gender(owner), False, owner.i
    )


def within(doc, token, mention: Mention) -> bool:
    """Whether ``token`` is said inside a clause hung on ``mention``'s own verb."""
    if mention.index < 0:
        return False
    verb = doc[governor(token)]
    return verb.dep_ != "conj" and doc[governor(doc[mention.index])] in verb.ancestors


def called_since(doc, mentions, window, floor: int, fits, kind: str) -> Mention | None:
    """ "The doctor told her the water had made her ill. She lay in bed": the one the
    window (the subjects since ``floor``) has just called "her" beats a subject whose sex
    the story never told, named before that "her". Only when that "her" came after the
    subject: in "The smallest Hare was so frightened that he ran", "he" is the Hare, not
    the dog called "he" before."""
    told = [
        m
        for m, _ in mentions
        if m.index >= max(floor, 0)
        and fits(m)
        and m.gender == kind
        and PRONOUNS.get(doc[m.index].lower_) == kind
    ]
    if (
        kind in "mf"
        and told
        and window
        and window[-1].gender != kind
        and told[-1].index > window[-1].index
    ):
        return told[-1]
    return None


def brought_on_under(doc, known: Mention, newcomer: Mention) -> bool:
    """ "She had not gone far when a goose ran across the road. She laughed": one brought
    on in a clause hung on the verb of one called "she" is not the next "she"."""
    if min(known.index, newcomer.index) < 0:
        return False
    verb = doc[governor(doc[newcomer.index])]
    return verb.dep_ == "advcl" and verb.head.i == governor(doc[known.index])


def things_between(doc, quoted, mentions, token, fits) -> bool:
    """ "were given a handful of bean seeds … She planted them": things named after the
    last group that fits are what "them" most likely is, and no one is named for it."""
    last = next((m for m, _ in reversed(mentions) if fits(m) and m.index < token.i), None)
    if last is None:
        return False
    # What is found, given or had ("apples", "a handful of seeds"), not where one goes
    # ("came down from the hills").
    return any(
        t.tag_ in ("NNS", "NNPS")
        and not is_animate(t)
        and t.i not in quoted
        and (t.dep_ in ("dobj", "nsubj", "nsubjpass", "attr") or t.head.lower_ == "of")
        for t in doc[max(last.index + 1, 0) : token.i]
    )


def kin_owner(token, mentions) -> Mention | None:
    """ "One night Amira's father woke. … When her father ran out": a "her" before a word
    for kin the story gave an owner ("Amira's father") is that owner, though others were
    named since."""
    if token.dep_ != "poss" or token.head.lemma_.lower() not in KIN:
        return None
    owners = [
        t
        for t in token.doc[: token.i]
        if t.dep_ == "poss" and t.pos_ in ("PROPN", "NOUN") and t.head.lemma_ == token.head.lemma_
    ]
    if not owners:
        return None
    found = owner_mention(owners[-1], [(m, s) for m, s in mentions if m.index < token.i])
    kind = {"his": "m", "her": "f"}.get(token.lower_, "")
    return found if found.gender in ("", kind) else None


def thing_it(token, quoted=frozenset()) -> str:
    """ "Moss knocked the brass bell to the floor. It rang so loudly that …": a sentence
    that opens with "it" doing something is most often about the thing the sentence before
    told of, its subject or what it did something to; a key says "the brass bell rang",
    not "it rang". Not an "it" that is or seems ("It was cold" may be the day, the room or
    the door), nor one that points at nothing ("it began to rain"), nor one where the
    sentence before told of no thing or named a creature it may be."""
    verb = token.head
    if (
        token.lower_ != "it"
        or token.dep_ != "nsubj"
        or token.i in quoted
        or token.i != token.sent.start
        or verb.lemma_ in IMPERSONAL | {"be", "become", "look", "sound", "feel"}
        or any(c.lemma_ in IMPERSONAL or c.dep_ in ("ccomp", "xcomp") for c in verb.children)
        or token.sent.start == 0
    ):
        return ""
    before = token.doc[token.sent.start - 1].sent
    # as Hobbs's search reads the sentence before: its subject first ("the tall clock began
    # to strike. It struck thirteen"), then what was done to
    objects = [
        t
        for role in ("nsubj", "dobj")
        for t in before
        if t.dep_ == role
        and t.pos_ == "NOUN"
        and t.i not in quoted
        and not is_animate(t)
        and t.lemma_.lower() not in TIME_WORDS
    ]
    # "The boy gave the dog a bone. It wagged its tail": a creature the sentence names
    # with no sex may be the "it" as well as the thing.
    creature = any(t.pos_ == "NOUN" and is_animate(t) and not _gender(t) for t in before)
    if not objects or creature:
        return ""
    subjects = [t for t in objects if t.dep_ == "nsubj"]
    # of clauses joined with "and", the latest told ("The rain grew harder, and then the
    # wind came. It tore at the grass": the wind), not one hung on a main clause
    joined = [t for t in subjects if t.head.dep_ == "conj" and t.head.head.dep_ == "ROOT"]
    if joined:
        thing = joined[-1]
    else:
        thing = subjects[0] if subjects else objects[-1]
    return thing_named(thing)


def thing_named(thing) -> str:
    """A thing as a question names it: "the brass bell", with the words that tell it apart."""
    words = [t for t in thing.lefts if t.dep_ in ("amod", "compound", "nummod")] + [thing]
    return "the " + mention_text(words)


def fall_back(mentions, fitting, token, floor: int):
    """The mention a pronoun stands for when nothing on stage decides: the latest that
    fits, but not past the two people just named for a "they" ("Leo ran to Marit.
    Together they pushed her boat": Leo and Marit, not the crabs named a paragraph before),
    and, for an object pronoun, the subject of the sentence before (:func:`previous_subject`)."""
    if token.lower_ in ("they", "them", "their", "themselves") and fitting:
        named = [
            m
            for m, stage in mentions
            if floor <= m.index < token.i
            and not m.plural
            # not one only seen doing something ("saw his brother waving")
            and (stage or token.doc[m.index].dep_ not in SUBJECT_ROLES)
        ]
        texts = list(dict.fromkeys(m.text for m in named))
        if fitting[-1].index < floor and len(texts) == 2:
            return Mention(" and ".join(texts), "", True, named[-1].index)
    return previous_subject(mentions, fitting, token, floor) or (fitting[-1] if fitting else None)


def previous_subject(mentions, fitting, token, floor: int):
    """ "He stayed with the boy until morning. The baker's wife brought him a loaf": an
    object pronoun whose own sentence has named no one it fits goes on from the subject
    of the sentence before, not from the last one named there (as Hobbs's search, which
    reads the sentence before from its subject down, finds it); so does whose thing it is
    ("One afternoon, after a quarrel with his sister, he ran out": Teo's, not the
    grandfather's named last)."""
    owner_of_object = token.dep_ == "poss" and token.head.dep_ in ("dobj", "dative", "pobj")
    if (token.dep_ not in ("dobj", "dative", "pobj") and not owner_of_object) or not fitting:
        return None
    start = token.sent.start
    if any(start <= m.index < token.i for m in fitting) or fitting[-1].index >= start:
        return None
    subjects = {m.index for m, subject in mentions if subject}
    before = [m for m in fitting if floor <= m.index < start and m.index in subjects]
    return before[-1] if before else None


def whole_group(mentions, token) -> Mention | None:
    """ "The children … Tomas brought sticks. Ada brought a sheet. The twins brought
    string. They worked together": a "they" said with "together", "all" or "both" after
    the group's members were named one by one is the whole group named before them, not
    the last of them (a group of another noun)."""
    if token.lower_ not in ("they", "them") or not any(
        t.lower_ in ("together", "all", "both") for t in token.sent
    ):
        return None
    groups = [m for m, _ in mentions if m.plural and m.index < token.i]
    if not groups:
        return None
    last = groups[-1]
    earlier = [g for g in groups if head_noun(g.text) != head_noun(last.text)]
    if not earlier:
        return None
    group = earlier[-1]
    members = {m.text for m, _ in mentions if not m.plural and group.index < m.index < token.i}
    return group if members else None
