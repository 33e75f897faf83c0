"""The subject of a clause as a question can say it: who a pronoun stands for, "the" for a
character the reader knows, an aside left out ("the Goat, who only gave a little milk,")."""

from __future__ import annotations

import re

from qg_studio import lang
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.binding import thing_it
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.mentions import Resolver
from qg_studio.reading.noun_phrases import mention_text
from qg_studio.reading.noun_phrases import titled_name
from qg_studio.reading.speakers import speaker
from qg_studio.text.parse import gap

SUBJECT_DEPS = {"nsubj", "nsubjpass", "expl", "csubj"}


def trim(tokens: list) -> list:
    """Drop line breaks, edge punctuation, quotes and dangling conjunctions from a word run."""
    tokens = [t for t in tokens if not t.is_space]
    while tokens and (
        tokens[-1].is_punct
        or tokens[-1].dep_ in ("cc", "mark")
        or tokens[-1].lower_ in ("and", "but", "or", "then")
    ):
        tokens = tokens[:-1]
    while tokens and (tokens[0].is_punct or tokens[0].dep_ == "cc"):
        tokens = tokens[1:]
    return tokens


# Determiners a question says "the" for: the reader knows the character by now.
KNOWN_ALREADY = lang.function_words("known_determiners")
# A counted group a pronoun stands for ("Three young Hares"): "the three young Hares".
COUNTS = lang.function_words("group_counts")
VAGUE_COUNTS = lang.function_words("vague_counts")
FLOATING = lang.function_words("floating_quantifiers")  # "the bees each": the bees


def as_known(name: str) -> str:
    """A character named as a question names them: "these five men" are "the five men",
    "Three young Hares" "the three young Hares", "Many wise men" "the wise men"."""
    first, _, rest = name.partition(" ")
    if rest and (first.lower() in KNOWN_ALREADY or first.lower() in VAGUE_COUNTS):
        return f"the {rest}"  # "They read old books": the wise men, not "Many wise men"
    if rest and first.lower() in COUNTS:
        return f"the {first.lower()} {rest}"
    return name


def subject_phrase(tokens: list, resolver: Resolver | None, sent=None) -> str:
    """The subject as a question can say it: pronouns replaced by who they stand for."""
    tokens = trim(_one_run(_without_aside(list(tokens))))
    # "The little boat spun once, then floated away": a past the parser hung on the subject
    # as its modifier is a deed of its own ("the boat sent by the king" is one's modifier).
    deeds = {d.i for t in tokens if t.dep_ == "acl" and t.tag_ == "VBD" for d in t.subtree}
    if deeds and len(deeds) < len(tokens):
        tokens = trim([t for t in tokens if t.i not in deeds])
    # "Blushing with pleasure Nell went home": a participle opening the sentence, parsed
    # as the subject, ends in the name of who did it.
    if len(tokens) > 1 and tokens[0].dep_ == "csubj" and tokens[-1].pos_ == "PROPN":
        name = tokens[-1]
        tokens = [t for t in tokens if t.pos_ == "PROPN" and (t == name or t.head == name)]
    # "So poor Tam sat ...": the sentence's linking word parsed into its subject.
    while len(tokens) > 1 and tokens[0].pos_ in ("ADV", "CCONJ", "SCONJ", "INTJ"):
        tokens = tokens[1:]
    # "On the way home Elsa passed ...": a stray lower-case word parsed onto a name.
    while (
        len(tokens) > 1
        and tokens[-1].pos_ == "PROPN"
        and tokens[0].text.islower()
        and tokens[0].dep_ in ("compound", "npadvmod", "advmod")
        and tokens[0].pos_ != "DET"
    ):
        tokens = tokens[1:]
    # "The next day more people came": a time parsed into the subject is when, not who.
    when = {
        d.i
        for t in tokens
        if t.dep_ == "npadvmod" and t.lemma_.lower() in TIME_WORDS
        for d in t.subtree
    }
    if when and len(when) < len(tokens):
        tokens = [t for t in tokens if t.i not in when]
    # "The other bees each flew home": each of them is the bees.
    while len(tokens) > 1 and tokens[-1].lower_ in FLOATING and tokens[-2].pos_ == "NOUN":
        tokens = tokens[:-1]
    if not tokens:
        return ""
    heads = [t for t in tokens if t.dep_ in SUBJECT_DEPS]
    joined = any(t.dep_ == "conj" for t in tokens)  # "Amara and Joss": both, not Amara
    if heads and resolver is not None and resolver.name_of(heads[0]) and not joined:
        # "a little hedgehog called Pip knocked": the story has named her; so does the
        # question, whole where the text says the name whole ("St. Paul").
        if all(t.pos_ == "PROPN" or t.is_punct for t in tokens):
            return mention_text(tokens)
        return titled_name(heads[0]) or resolver.name_of(heads[0])
    # "I" outside quotation marks resolves to "the narrator".
    if (
        len(tokens) == 1
        and (tokens[0].lower_ in PRONOUNS or tokens[0].lower_ in ("i", "it"))
        and resolver is not None
    ):
        name = resolver.resolve(tokens[0])
        if name:
            return as_known(name)
        thing = thing_it(tokens[0], resolver.quoted)
        if thing:
            return thing
    if (
        len(tokens) == 1
        and tokens[0].lower_ in ("i", "we")
        and resolver is not None
        and sent is not None
    ):
        who = speaker(resolver, sent)
        if who:
            return who
    parts = []
    # "the farmers who brought her their grain": whose is the phrase's own, said as it is.
    own = heads[0].lower_ if heads else ""
    for t in tokens:
        if t.dep_ == "poss" and t.lower_ in ("his", "her", "their", "my") and resolver is not None:
            name = resolver.resolve(t)
            if name and own not in name.lower().split():
                parts.append(possessive(as_known(name)) + gap(t))
                continue
        parts.append(t.text + gap(t))
    if len(tokens) > 1 and tokens[0].lower_ in KNOWN_ALREADY:
        # In a question the character is already known: "the grey fox", not "a grey fox";
        # and out of the story's flow, "these five men" are "the five men".
        parts[0] = "the "
    elif len(tokens) > 1 and tokens[0].dep_ == "nummod" and tokens[0].pos_ == "NUM":
        # "Three young Hares lived in a meadow": "the three young Hares" in a question;
        # "One young Ant" is one as "a young Ant" is: "the young Ant".
        one = tokens[0].lower_ == "one"
        parts[0] = "the " + ("" if one else tokens[0].lower_ + gap(tokens[0]))
    text = "".join(parts).strip()
    for q in ('"', "“", "”", "‘", "’"):
        text = text.replace(q, "")
    text = text.strip(" '")
    if not text:
        return ""
    if text.lower().startswith(tokens[0].lower_):
        return _lower_first(text, tokens[0])
    return text


def _one_run(tokens: list) -> list:
    """The run of words around the subject's head: a subject is said in one piece ("The
    snowman listened to the children talking about summer: the warm sun, …" had the list
    hung on "snowman")."""
    head = next((t for t in tokens if t.dep_ in SUBJECT_DEPS), None)
    if head is None:
        return tokens
    at = tokens.index(head)
    start, end = at, at + 1
    while start > 0 and tokens[start - 1].i == tokens[start].i - 1:
        start -= 1
    while end < len(tokens) and tokens[end].i == tokens[end - 1].i + 1:
        end += 1
    return tokens[start:end]


def _without_aside(tokens: list) -> list:
    """The subject without a relative clause or an apposition set off by commas: "the
    Goat, who only gave a little milk," is "the Goat" in a question ("Who was jealous of
    the oats?" asks it without telling more about her) and in its answer; one whose
    apposition names them is called by that name."""
    ids = {t.i for t in tokens}
    # "the three hunters on hearing the bad news went home": when, not which hunters.
    doing = {
        x.i
        for t in tokens
        if t.dep_ == "prep" and t.head.i in ids and any(c.tag_ == "VBG" for c in t.children)
        for x in t.subtree
    }
    if doing and len(doing) < len(tokens):
        tokens = [x for x in tokens if x.i not in doing]
        ids = {t.i for t in tokens}
    for t in tokens:
        if t.dep_ not in ("relcl", "appos") or t.head.i not in ids:
            continue
        aside = sorted(t.subtree, key=lambda x: x.i)
        first = aside[0]
        if first.i == 0 or first.doc[first.i - 1].text != ",":
            continue  # "the man who sold the cow": it says which man
        names = [x for x in aside if x.pos_ == "PROPN"]
        if t.dep_ == "appos" and names and t.head.pos_ != "PROPN":
            # "the bell-ringer, a thin old man named Petr,": Petr, as the story goes on;
            # "Two sisters, Alma and Rose,": both, joined as the text joins them.
            return [x for x in aside if x in names or (x.dep_ == "cc" and x.head in names)]
        cut = {x.i for x in aside} | {first.i - 1}
        after = aside[-1].i + 1
        if after < len(first.doc) and first.doc[after].text == ",":
            cut.add(after)
        return [x for x in tokens if x.i not in cut]
    return tokens


def possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _lower_first(text: str, first) -> str:
    # Only function words and plural common nouns ("People went …") lose their
    # sentence-initial capital: "The king" → "the king", but "Oonagh" (even when tagged a
    # common noun) and "I" keep theirs.
    if (
        (first.pos_ in ("DET", "PRON", "ADP", "NUM", "ADJ") or first.tag_ == "NNS")
        and first.text != "I"
        and first.ent_type_ not in ("PERSON", "GPE", "LOC", "ORG", "NORP")
    ):
        return text[:1].lower() + text[1:]
    return text


# "the fisherman's wife's husband" is the fisherman: a kin named through its own kin.
_KIN_BACK = re.compile(
    r"\b((?:the |[A-Z])[\w' -]*?)'s? (?:wife's husband|husband's wife"
    r"|(?:son|daughter|child)'s (?:father|mother))\b"
)


def kin_back(text: str) -> str:
    """ "Why could the fisherman's wife's husband find his way?": "her husband" named by
    whose "her" is said back to the one it started from ("the fisherman")."""
    return _KIN_BACK.sub(lambda m: m.group(1), text)


_OWNED = re.compile(r"^the [\w ]+?'s? (?=\w)")  # "the princess' ", "the miller's "


def one_character(subject: str, same_as: str) -> bool:
    """ "the Magpie who loved shiny things" is "the Magpie" told more of; "the brown goat"
    is not "the goat"."""
    rest = subject[len(same_as) :].split()
    # "the princess' servants" are "the servants" named with whose they are (not "the
    # farmer's son" and "the miller's son").
    one_owned = bool(_OWNED.match(subject)) != bool(_OWNED.match(same_as))
    return (
        subject == same_as
        or (subject.startswith(same_as + " ") and rest[0].lower() in ("who", "that", "which"))
        or (one_owned and _OWNED.sub("the ", subject) == _OWNED.sub("the ", same_as))
    )
