"""The names a story gives its characters: "a hedgehog called Pip", "a badger named Bramble".

The parser often tags such a name as a common noun, or a place, where it opens a sentence
("Bramble frowned"); the naming phrase is the surer sign, and it ties the name to the noun
("the hedgehog" is Pip; a title's "Cat" is "a grey cat called Smudge").
"""

from __future__ import annotations

from qg_studio.reading.animacy import ANIMATE
from qg_studio.reading.animacy import FEMALE
from qg_studio.reading.animacy import MALE
from qg_studio.reading.animacy import MINDFUL_VERBS
from qg_studio.reading.animacy import NOT_CHARACTERS
from qg_studio.reading.animacy import PLACES
from qg_studio.reading.animacy import TIMES_AND_WEATHER
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.animacy import met_with_a
from qg_studio.reading.animacy import noun_gender
from qg_studio.reading.lexicon import TELLING_APART

NAMING_WORDS = ("named", "called")
# Nouns for someone a name can follow: "brother Sami", "Farmer Giles", "aunt Rosa".
PEOPLE_NOUNS = MALE | FEMALE


def named_characters(doc) -> tuple[set[str], dict[str, str]]:
    """Names the story gives ("a hedgehog called Pip", "a badger named Bramble") and the
    nouns they were given to (``{"hedgehog": "Pip"}``).

    The parser often tags such a name as a common noun, or a place, where it opens a
    sentence ("Bramble frowned"); the naming phrase is the surer sign. A noun given two
    names (two foxes) is left out of the aliases."""
    names: set[str] = set()
    alias: dict[str, str] = {}
    doubled: set[str] = set()

    given: set[int] = set()  # the nouns the names were given to

    def give(noun, name: str) -> None:
        names.add(name)
        given.add(noun.i)
        key = noun.lemma_.lower()
        if key in alias and alias[key] != name:
            doubled.add(key)
        alias[key] = name

    for t in doc:
        if t.lower_ not in NAMING_WORDS or t.i + 1 >= len(doc):
            continue
        # "Amira named him Pebble": a name given to one a pronoun stands for.
        told = doc[t.i + 1 : t.i + 3]
        if len(told) == 2 and told[0].lower_ in ("him", "her", "it") and told[1].text.istitle():
            names.add(told[1].text)
        words = []
        for nxt in doc[t.i + 1 : t.i + 4]:
            if not nxt.text[:1].isupper() or nxt.is_punct:
                break
            words.append(nxt.text)
        # "a young billy goat called Tamsin", the goat tagged a proper noun: a word for
        # someone all the same, where "Tom called Mary" names no one.
        noun = next(
            (
                n
                for n in reversed(doc[max(0, t.i - 3) : t.i])
                if n.pos_ == "NOUN" or (n.pos_ == "PROPN" and n.lemma_.lower() in ANIMATE)
            ),
            None,
        )
        if len(words) != 1 or noun is None or not is_animate(noun):
            continue  # "a village called Hill End": a place, or no noun it names
        give(noun, words[0])
    # "her little brother Sami", "old Uncle Bram": a name set right after a noun for a
    # person is that person's; so is one set after a comma ("his grey cat, Smoke").
    for t in doc:
        before = doc[t.i - 1] if t.i > 0 else None
        if any(c.dep_ == "det" for c in t.children):
            continue  # "her friend the Rabbit": a noun with a capital, no name
        if (
            t.pos_ == "PROPN"
            and t.text[:1].isupper()
            and before is not None
            and before.pos_ == "NOUN"
            and (before.head.i == t.i or (t.dep_ == "appos" and t.head.i == before.i))
            and before.lemma_.lower() in PEOPLE_NOUNS
            and (t.i + 1 >= len(doc) or doc[t.i + 1].pos_ != "PROPN")
        ):
            give(before, t.text)
        elif (
            # "his grey cat, Smoke": a name set beside an animal or a person after a comma.
            t.pos_ == "PROPN"
            and t.dep_ == "appos"
            and t.text[:1].isupper()
            and before is not None
            and before.text == ","  # not "the miller's great grey Cat", parsed as a name
            and _named_noun(t) is not None
            and not any(c.pos_ == "PROPN" for c in t.children)
        ):
            give(_named_noun(t), t.text)
    for t in doc:
        noun = _kind_after(t)
        if noun is not None:
            give(noun, t.text)
        named = _name_told(t)
        if named is not None:
            give(*named)
    # A name that thinks or speaks is someone, even one labelled a place ("St. Paul"
    # is a city to the parser): "St. Paul thought ..., for he did not know ...".
    names |= {
        t.text
        for t in doc
        if t.pos_ == "PROPN"
        and t.dep_ == "nsubj"
        and t.head.lemma_ in MINDFUL_VERBS
        and not is_animate(t)
        and not any(c.dep_ == "det" for c in t.children)  # "said the Stone": a thing, made a person
    }
    names |= _capitalised_names(doc)
    # "An old Hedgehog down the lane", after "a young Hedgehog named Prickle": a second one
    # of that kind met anew, so the noun alone names neither.
    doubled |= {
        t.lemma_.lower()
        for t in doc
        if t.lemma_.lower() in alias and t.i not in given and _met_anew(t)
    }
    return names, {k: v for k, v in alias.items() if k not in doubled}


def told_apart(noun) -> bool:
    """A noun told apart from the one a name was given to: "Grandfather Frog" is not the
    frog called Bubba, nor "the oldest mouse" the young one."""
    return any(
        (c.dep_ == "compound" and c.text[:1].isupper())
        or (c.dep_ == "amod" and (c.tag_ == "JJS" or c.lower_ in TELLING_APART))
        for c in noun.children
    )


def _met_anew(noun) -> bool:
    """ "An old Hedgehog down the lane": one met with "a", not while being named."""
    after = {t.lower_ for t in noun.doc[noun.i + 1 : noun.i + 3]}
    return (
        met_with_a(noun)
        and not after & set(NAMING_WORDS)
        and not any(c.dep_ == "appos" for c in noun.subtree)  # "a girl from the farm, Ilka"
    )


def given_genders(alias: dict[str, str]) -> dict[str, str]:
    """ "an old fisherman named Jory": Jory is a he before any "he" says so."""
    return {name: noun_gender(noun) for noun, name in alias.items() if noun_gender(noun)}


def _kind_after(name):
    """The noun set after a name that says what kind of creature it is: "Hattie the
    hedgehog knows", "Bubba, a young frog, swam away" (not "Tom saw the fox")."""
    if name.pos_ != "PROPN" or not name.text[:1].isupper() or name.i + 1 >= len(name.doc):
        return None
    window = name.doc[name.i + 1 : name.i + 5]
    if window[0].text == ",":
        window = window[1:]
    if not len(window) or window[0].dep_ != "det" or window[0].lower_ not in ("the", "a", "an"):
        return None
    noun = window[0].head
    if (
        noun.i not in {w.i for w in window}
        or not is_animate(noun)
        or noun.lemma_.lower() not in ANIMATE
    ):
        return None
    apposed = noun.dep_ == "appos" and noun.head.i == name.i
    # "Hattie the hedgehog knows", parsed as two subjects of one verb.
    paired = noun.dep_ == name.dep_ == "nsubj" and noun.head.i == name.head.i
    return noun if apposed or paired else None


def _name_told(name):
    """ "A new girl joined the class. Her name was Yusra": the name, and the one named
    last before it whom "her" can stand for."""
    be = name.head
    subject = next((c for c in be.children if c.dep_ == "nsubj"), None)
    if (
        name.dep_ != "attr"
        or not name.text[:1].isupper()
        or be.lemma_ != "be"
        or subject is None
        or subject.lower_ != "name"
        or not any(c.dep_ == "poss" and c.lower_ in ("his", "her") for c in subject.children)
    ):
        return None
    owner = next(c.lower_ for c in subject.children if c.dep_ == "poss")
    kind = "m" if owner == "his" else "f"
    for noun in reversed(name.doc[: subject.i]):
        if noun.pos_ == "NOUN" and is_animate(noun) and noun_gender(noun.lemma_) in ("", kind):
            return noun, name.text
    return None


def _named_noun(name):
    """The animal or person a name set after a comma names: the noun it is set beside,
    tagged a proper one too at times ("his grey kitten, Smoke"), or the one whose phrase
    that noun is in ("a boy from her class, Leo"; "the daughter of the miller, Mira")."""
    chain = [name.head]
    while chain[-1].dep_ == "pobj" and chain[-1].head.dep_ == "prep" and len(chain) < 3:
        chain.append(chain[-1].head.head)
    return next(
        (
            noun
            for noun in reversed(chain)
            if (noun.pos_ == "NOUN" or noun.lemma_.lower() in ANIMATE) and is_animate(noun)
        ),
        None,
    )


def _capitalised_names(doc) -> set[str]:
    """ "Ravi climbed the wall. Ravi found a nest", "Ravi" tagged a common noun (and "Ines"
    or "Agnes" a plural one, for the "s" they end in): a word said twice or more with a
    capital mid-sentence or acting, never in lower case nor after "the" or "a", nor a word
    for a time, a place or the weather, is someone's name ("Straw fell out … made of
    straw" is no one)."""
    said: dict[str, int] = {}
    for t in doc:
        if t.pos_ in ("NOUN", "PROPN") and t.tag_.startswith("NN") and t.text[:1].isupper():
            # Where a capital proves nothing, only as one who acts ("Ravi found a nest", not
            # "'Cold is the night,' said the owl").
            acts = t.dep_ == "nsubj" and t.head.pos_ == "VERB" and t.head.lemma_ != "be"
            if acts or t.i > t.sent.start:
                said[t.text] = said.get(t.text, 0) + 1
    lower = {t.lower_ for t in doc if t.text[:1].islower()}
    with_article = {t.text for t in doc if any(c.dep_ == "det" for c in t.children)}
    return {
        word
        for word, times in said.items()
        if times >= 2
        and word.lower() not in lower
        and word not in with_article
        and word.lower() not in TIMES_AND_WEATHER | PLACES | NOT_CHARACTERS
        and word.isalpha()
    }


def name_by(token, names: set[str], alias: dict[str, str]) -> str | None:
    """The character's name when ``token`` is it, is set beside it ("The smallest lamb,
    Button", "a young Hedgehog named Prickle"), or the noun the name was given to."""
    if token.text in names:
        return token.text
    beside = [
        x.text
        for c in token.children
        if c.dep_ in ("appos", "acl")
        for x in (c, *c.children)
        if x.text in names
    ]
    if beside:
        return beside[0]
    if token.pos_ in ("NOUN", "PROPN") and token.tag_ in ("NN", "NNP") and not told_apart(token):
        return alias.get(token.lemma_.lower()) or alias.get(token.lower_)
    return None
