"""Who counts as a character: the nouns of men, women and animals, the names a parser
labels, and the pronouns that stand for them (data files under qg_studio/lang/en/).

Apart from :mod:`qg_studio.reading.mentions` so that :mod:`qg_studio.reading.names`, which
the resolver reads, can use it without importing the resolver back."""

from __future__ import annotations

import re

from spacy.tokens import Token

from qg_studio import lang
from qg_studio.reading.dialogue import is_greeting
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import TIME_WORDS

# The nouns are data files under qg_studio/lang/en/ (one word a line).
MALE = lang.words("male_nouns.txt")
# "Amira found a thin brown dog. He had no collar": a first name tells a sex, as a noun can.
GIVEN_NAMES = {row["name"]: row["sex"] for row in lang.table("given_names.tsv")}
# Where a given name is someone whatever the parser labels it: not "went to Florence".
NAMED_ROLES = ("nsubj", "nsubjpass", "dobj", "dative", "poss", "appos")
FEMALE = lang.words("female_nouns.txt")
NOT_CHARACTERS = lang.words("not_characters.txt")
# WordNet's people and animals widen the hand-kept list ("a tinker", "the peddler").
ANIMATE = (
    MALE
    | FEMALE
    | lang.words("animate_nouns.txt")
    | lang.words("wordnet_animate.txt") - lang.words("things_not_someone.txt")
) - NOT_CHARACTERS
MIND_VERBS = lang.words("mind_verbs.txt")
MINDFUL_VERBS = SAYING_VERBS | MIND_VERBS
# Entity labels a spaCy model gives a name that is never a character; an animal's name in
# a fable ("the Heron", "the Monkey") is often labelled ORG or PRODUCT, so those stay in.
NOT_PERSON_LABELS = (
    "GPE",
    "LOC",
    "FAC",
    "DATE",
    "TIME",
    "CARDINAL",
    "ORDINAL",
    "QUANTITY",
    "MONEY",
    "PERCENT",
    "EVENT",
    "LANGUAGE",
    "LAW",
)
PLACES = lang.words("place_nouns.txt")  # "Fernwood Forest" is somewhere, not someone
WEATHER = lang.words("weather_nouns.txt")
TIMES_AND_WEATHER = WEATHER | TIME_WORDS  # "Snow fell", "Winter had come": no one

PRONOUNS = {
    "he": "m",
    "him": "m",
    "his": "m",
    "himself": "m",
    "she": "f",
    "her": "f",
    "hers": "f",
    "herself": "f",
    "they": "p",
    "them": "p",
    "their": "p",
    "themselves": "p",
}


def _gender(head) -> str:
    # A title or rank set before a name tells its sex: "Mr. Oduya", "Farmer Giles".
    titles = [c for c in head.children if c.dep_ == "compound" and c.i < head.i]
    for word in (head, *titles):
        kind = noun_gender(word.lemma_.rstrip(".")) or noun_gender(word.text.rstrip("."))
        if kind:
            return kind
    return given_name_gender(head)


def met_with_a(noun) -> bool:
    """Whether "a" or "an" sets the noun out: one of a kind, met anew ("a great orange
    Pumpkin", "An old Hedgehog down the lane")."""
    return any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in noun.children)


def capital_of_its_place(word) -> bool:
    """A capital only the start of a sentence or of a speech gives, on a word that is no
    one's given name and that the story writes in lower case elsewhere or, opening a
    speech, nowhere else with a capital ('"Dough must rest," she told him')."""
    before = word.doc[word.i - 1] if word.i > 0 else None
    speech = before is not None and before.text in ('"', "“", "'", "‘")
    if not (word.is_sent_start or speech) or word.ent_type_ or word.lower_ in GIVEN_NAMES:
        return False
    others = [t for t in word.doc if t.lower_ == word.lower_ and t.i != word.i]
    return any(t.text == word.lower_ for t in others) or (speech and not others)


def given_name_gender(token) -> str:
    """ "m" or "f" for a first name used as one, bare ("Amira"), by the sex nearly every
    child given it was; "" for "the Willow" of a fable or a name the list lacks."""
    if not token.text[:1].isupper() or any(c.dep_ == "det" for c in token.children):
        return ""
    return GIVEN_NAMES.get(token.lower_, "")


def noun_gender(word: str) -> str:
    """ "m" or "f" for a noun that tells a sex ("miller", "queen"; a trade's "ferryman",
    "washerwoman"), else ""."""
    low = word.lower()
    if low in MALE:
        return "m"
    if low in FEMALE or re.search(r"\w{3}woman$", low):
        return "f"
    return "m" if re.search(r"\w{3}man$", low) else ""


def personified(head) -> bool:
    """ "The River heard, and she laughed": a thing a fable writes with a capital after
    "the", mid-sentence, is one of its characters. Not a place's name ("the Green Hills",
    "the River Dee"), whose other words are capitals too."""
    doc = head.doc
    return (
        head.pos_ in ("NOUN", "PROPN")
        and head.text[:1].isupper()
        and head.i > head.sent.start
        and any(c.dep_ == "det" and c.lower_ == "the" for c in head.children)
        and not any(c.text[:1].isupper() for c in head.children if c.dep_ in ("amod", "compound"))
        and not (head.i + 1 < len(doc) and doc[head.i + 1].pos_ == "PROPN")
    )


def personae(doc) -> set[str]:
    """The things ``doc`` makes persons: capitalised after "the" and given a voice, a mind,
    senses or a feeling ("said the Stone", "The River heard", "the Moon was lonely"); "the
    Tower stood by the sea" is a place all the same. One in lower case is made a person by
    a mind or a voice ('"Nonsense," said the weathervane')."""
    return {
        t.lemma_.lower()
        for t in doc
        if t.dep_ == "nsubj"
        and (
            (
                personified(t)
                and (
                    t.head.lemma_.lower() in MINDFUL_VERBS | PERCEIVING | FEELINGS
                    or any(c.dep_ == "acomp" and c.lower_ in FEELINGS for c in t.head.children)
                )
            )
            or (thing_after_the(t) and _given_a_mind(t))
        )
    }


def _given_a_mind(subject) -> bool:
    """A thinking thing, or one that speaks as characters do ('"Nonsense," said the
    weathervane'): a sign or a letter says things too, but is not told after its words."""
    verb = subject.head.lemma_.lower()
    return verb in MIND_VERBS or (verb in SAYING_VERBS and subject.i > subject.head.i)


def made_a_person(token, persons) -> bool:
    """A thing this story made a person (``persons``, from :func:`personae`): "the River",
    "the weathervane"."""
    return (personified(token) or thing_after_the(token)) and token.lemma_.lower() in persons


def thing_after_the(head) -> bool:
    """A noun in lower case after "the" ("the weathervane"): a thing, unless made a person."""
    return (
        head.pos_ == "NOUN"
        and head.text.islower()
        and any(c.dep_ == "det" and c.lower_ == "the" for c in head.children)
    )


# Set by the resolver on an "it" that stands for a thing the story makes a person ("The
# little Cloud was sad. It drifted away"): a doer as a "he" or a "she" is.
if not Token.has_extension("persona"):
    Token.set_extension("persona", default=False)


def is_animate(head) -> bool:
    if head._.persona:
        return True
    if head.lower_ in NOT_CHARACTERS or is_greeting(head) or head.lemma_.lower() in PLACES:
        return False
    if (
        head.pos_ == "PROPN"
        and head.lemma_.lower() not in ANIMATE  # "the Town Mouse", "the Moon Lady" are
        and any(
            c.dep_ == "compound" and c.text[:1].isupper() and c.lemma_.lower() in PLACES
            for c in head.children
        )
    ):
        return False  # "Lake Mora lay to the north", "Mount Kiro": a place's name
    if head.lower_ in TIMES_AND_WEATHER and not any(
        c.dep_ in ("det", "poss") for c in head.children
    ):
        return False  # "Snow fell", "Winter had come", not "the North Wind"
    # A fable's "the Beaver" or "the Snail" is an animal whatever entity label the parser
    # guesses for the capital (FAC, LOC, ORG).
    # A name's label on a word in lower case is the parser's guess at a word it took for
    # a name elsewhere: "the holly bush" labelled a person.
    labelled = head.ent_type_ in ("PERSON", "NORP") and head.text[:1].isupper()
    if labelled or head.lemma_.lower() in ANIMATE:
        return True
    if head.pos_ == "PROPN" and head.lower_ in GIVEN_NAMES and head.dep_ in NAMED_ROLES:
        return head.text[:1].isupper()  # "Marta lived …", whatever place the parser took
    if head.pos_ == "PROPN" and capital_of_its_place(head):
        return False  # '"Dough must rest," she said … a bowl of dough': a thing
    if head.pos_ == "PROPN":
        # A name is written with a capital: "the good news" tagged a proper noun is not one;
        # "a great orange Pumpkin" is a fable's one, whatever place the parser took it for.
        return head.text[:1].isupper() and (
            met_with_a(head) or head.ent_type_ not in NOT_PERSON_LABELS
        )
    # "the bell-ringer, a thin old man named Petr": the apposition tells who it is.
    if any(
        c.dep_ == "appos" and c.pos_ in ("NOUN", "PROPN") and is_animate(c) for c in head.children
    ):
        return True
    # A trade or a rank: the ferryman, the huntsman, the washerwoman.
    if head.pos_ == "NOUN" and re.search(r"\w{3}(?:wo)?m[ae]n$", head.lower_):
        return True
    return head.text.lower() in ANIMATE


def is_someone(head) -> bool:
    """A subject that is a character: an animate noun or name, or a personal pronoun."""
    return head.lower_ in PRONOUNS or is_animate(head)
