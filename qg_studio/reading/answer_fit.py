"""Whether a key is of the kind its question asks for, read from the key's words alone.

A feeling question keyed with no feeling ("How did the willow feel? – heavy rain"), a
where-question keyed with someone ("Where did the Bear find the tree? – a young Bear"), a
who-question keyed with a place ("Who lived by the river? – by the river"): whatever
the story says, such a key is wrong, and a child who answers right is marked wrong. A
model proposing a question and its key together slips this way; the rules seldom do, and
are held to it all the same.
"""

from __future__ import annotations

import re

from qg_studio import lang
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import ANIMATE
from qg_studio.reading.animacy import PLACES
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.animacy import WEATHER
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.lexicon import FEELING_NOUNS
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.reading.lexicon import PLACE_PREPOSITIONS
from qg_studio.reading.lexicon import SHOWN_BY_WORD

FEELING_WORDS = FEELINGS | FEELING_NOUNS | frozenset(SHOWN_BY_WORD)
# "How did the fox feel", "How will she feel", "How do you think Tom felt".
_ASKS_FEELING = re.compile(r"^how\b.*\b(?:feel|feels|felt)\b", re.IGNORECASE)
_SUBJECTS = ("nsubj", "nsubjpass", "expl")


def misfit(question: str, key: Analysis) -> str | None:
    """Why ``key`` (the answer's parse, :func:`~qg_studio.reading.analysis.analyse_each`)
    cannot answer ``question``, or None when it can or may.

    Only what words tell for sure counts: the feeling lexicon misses many a feeling
    ("startled", "respect", "awe"), so a feeling key is wrong when it names a thing, a
    place or someone, or tells of what no one did ("The room was dark"), not when it
    lacks a listed word; a place is wrong for "where" only when it is a being the word
    lists name (a name may be a town's). Of FairytaleQA's 8,548 train pairs these rules
    fault 3 experts' keys, each a who-question keyed with a character named for a place
    or a thing."""
    tokens = [t for t in key.doc if not t.is_punct]
    if not tokens:
        return None
    root = _root(tokens)
    first = question.split(maxsplit=1)[0].lower() if question.split() else ""
    if _ASKS_FEELING.search(question):
        if any(_feeling(t) for t in tokens):
            return None
        if root.pos_ in ("NOUN", "PROPN") and (
            root.lemma_.lower() in WEATHER | PLACES or _a_being(root)
        ):
            return "a feeling question keyed with no feeling"
        subject = next((c for c in root.children if c.dep_ in _SUBJECTS), None)
        if root.pos_ in ("VERB", "AUX") and subject is not None and not is_someone(subject):
            return "a feeling question keyed with no feeling"
        return None
    if first == "where":
        owned = any(t.tag_ == "POS" for t in tokens)  # "the Baker's": the Baker's house
        if tokens[0].lower_ not in PLACE_PREPOSITIONS and not owned and _a_being(root):
            return "a where-question keyed with someone"
        # "from the fence, hot and dusty, and his feathers itched": a place and then an
        # event of its own, copied on past the place ("a mound from which smoke rose" is
        # a place all the same)
        if tokens[0].lower_ in PLACE_PREPOSITIONS and any(
            t.pos_ in ("VERB", "AUX")
            and t.dep_ not in ("relcl", "acl", "advcl")  # "as you go towards Bantry"
            and any(c.dep_ in _SUBJECTS for c in t.children)
            for t in tokens
        ):
            return "a where-question keyed with an event"
        return None
    if first == "who" and not any(is_someone(t) for t in tokens):
        if tokens[0].lower_ in PLACE_PREPOSITIONS or (
            root.pos_ == "NOUN" and root.lemma_.lower() in PLACES
        ):
            return "a who-question keyed with a place"
    return None


# Words a key may repeat from its question and still tell nothing new.
_CONTENT = ("NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM")
# Small words that tell a reason all the same: "There was no help", "He only had three".
_TELLING = frozenset(lang.function_words("negatives_and_measures"))
# Questions a key must tell a reason for.
_ASKS_WHY = re.compile(r"^(?:why|what happened because)\b", re.IGNORECASE)


def restated(question: Analysis, key: Analysis) -> str | None:
    """Why a key only says its question again ("Why did the keeper not come? – The keeper
    did not come", "Why did Dorrit never see a star? – She never saw a star"), or None: the
    key's content words are the question's, in its order, so a child learns nothing from
    it. ("The frog had helped the heron before" answers "Why did the heron help the
    frog?": the same words, turned round.)"""
    if not _ASKS_WHY.match(question.doc.text):
        return None  # "What will happen if their brother dies? – They will die" answers
    told, said = _content(question), _content(key)
    # A name or a thing is no restatement: "Who did Mrs. Dunne's son buy it for? – Mrs. Dunne"
    clause = any(t.dep_ in _SUBJECTS for t in key.doc)
    if not clause or not said or not _in_order(said, told):
        return None
    return "a key that says its question again"


def asked_of_itself(question: Analysis, key: Analysis, story: str = "") -> str | None:
    """Why a who-question is keyed with its own subject ("Who did the mother buy the flute
    from? – the mother"), or with the name ``story`` gives its subject ("Who did Tansy live
    with? – a red squirrel", where "a red squirrel named Tansy" lived), or None. ("Who was
    the naughty kitten? – Tom Kitten" asks who one is; "Who did the boy see? – a beautiful
    boy" is another boy.)"""
    tokens = [t for t in question.doc if not t.is_punct]
    if not tokens or tokens[0].lower_ not in ("who", "whom"):
        return None
    root = next((t for t in tokens if t.dep_ == "ROOT"), None)
    if root is None or root.lemma_ == "be":
        return None
    keyed = _bare(list(key.doc))
    named = re.search(rf"\b{re.escape(key.doc.text.strip())},? (?:named|called) (\w+)", story)
    if named and named.group(1) in question.doc.text.split():
        return "a who-question keyed with the one it asks about, by another name"
    for subject in (t for t in tokens if t.dep_ in _SUBJECTS and t.lower_ not in ("who", "whom")):
        if keyed and _bare(sorted(subject.subtree, key=lambda t: t.i)) == keyed:
            return "a who-question keyed with its own subject"
    return None


def _bare(tokens) -> str:
    return " ".join(t.lower_ for t in tokens if not t.is_punct and t.dep_ != "det")


def _content(analysis: Analysis) -> list[frozenset[str]]:
    """Each content word as its forms (the word and its lemma: the tagger may read
    "geese" as an adjective in a question and lemmatise it to "goose" in a key)."""
    return [
        frozenset((t.lower_, t.lemma_.lower()))
        for t in analysis.doc
        if (
            t.pos_ in _CONTENT
            and not (t.is_stop or t.vocab[t.lemma_.lower()].is_stop)  # "see" is, "saw" not
            and t.lemma_.lower() not in ("do", "be", "have")
        )
        or t.lower_ in _TELLING  # "He had nowhere to go": the "nowhere" is the reason
    ]


def _in_order(words: list[frozenset[str]], within: list[frozenset[str]]) -> bool:
    """Whether ``words`` appear in ``within`` in the same order (not always side by side)."""
    rest = iter(within)
    return all(any(word & other for other in rest) for word in words)


def _feeling(token) -> bool:
    return token.lower_ in FEELING_WORDS or token.lemma_.lower() in FEELING_WORDS


def _root(tokens):
    """The key's head word: the root of its first sentence."""
    return next((t for t in tokens if t.dep_ == "ROOT"), tokens[0])


def _a_being(head) -> bool:
    """Someone by the word lists or a personal pronoun, not by a parser's guess at a
    capitalised word ("Brindlewick" may be a town)."""
    word, lemma = head.lower_, head.lemma_.lower()
    return word in PRONOUNS or word in ANIMATE or lemma in ANIMATE
