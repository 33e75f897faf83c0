"""Who a pronoun stands for: the latest compatible character mention before it.

Questions are read without the story beside them, so "Why did he go?" must become
"Why did the fisherman go?". A greedy recency rule with gender and number checks is
right most of the time in fairy-tale prose, where one or two characters hold the stage.
"""

from __future__ import annotations

from dataclasses import dataclass

MALE = {
    "king", "prince", "man", "boy", "father", "son", "brother", "husband", "lord",
    "knight", "giant", "emperor", "monk", "priest", "fisherman", "farmer", "peasant",
    "woodcutter", "hunter", "shepherd", "sultan", "duke", "earl", "master", "lad", "youth",
    "uncle", "grandfather", "nephew", "wizard", "sorcerer", "tailor", "miller", "merchant",
    "soldier", "servant", "gentleman", "old man", "chief", "warrior", "tsar", "czar",
    "bridegroom", "fellow", "beggar", "dwarf", "count", "baron", "squire", "god",
    "schoolmaster", "smith", "blacksmith", "cook", "captain", "sailor", "thief", "robber",
}
FEMALE = {
    "queen", "princess", "woman", "girl", "mother", "daughter", "sister", "wife", "lady",
    "maiden", "maid", "witch", "fairy", "grandmother", "aunt", "niece", "empress", "duchess",
    "bride", "stepmother", "widow", "nun", "goddess", "mistress", "hen", "countess",
    "godmother", "damsel", "lass", "old woman", "housewife", "nurse", "girl",
}
ANIMATE = MALE | FEMALE | {
    "child", "baby", "people", "fox", "wolf", "bear", "cat", "dog", "mouse", "rat", "bird",
    "hare", "rabbit", "frog", "toad", "lion", "tiger", "monkey", "deer", "horse", "cow",
    "goat", "pig", "sheep", "ox", "snake", "serpent", "dragon", "troll", "goblin", "elf",
    "crow", "raven", "owl", "eagle", "duck", "goose", "swan", "fish", "crab", "tortoise",
    "turtle", "ant", "bee", "spider", "jackal", "elephant", "ogre", "imp", "devil", "ghost",
    "spirit", "stranger", "friend", "neighbour", "neighbor", "guest", "host", "parent",
    "stepsister", "cousin", "orphan", "creature", "animal", "squirrel", "badger", "weasel",
    "sparrow", "pigeon", "dove", "stork", "crane", "beast", "family", "villager", "courtier",
    "hero", "heroine", "pooka", "fairies", "shoemaker", "boatman", "cobbler", "porter",
    "student", "teacher", "doctor", "physician", "minister", "officer", "guard", "ruler",
    "nobleman", "emperor", "mandarin", "hermit", "traveller", "traveler",
}
NOT_CHARACTERS = {"one", "no", "nobody", "everyone", "everybody", "someone", "somebody",
                  "anyone", "anybody", "none", "other", "others", "each", "all"}

PRONOUNS = {
    "he": "m", "him": "m", "his": "m", "himself": "m",
    "she": "f", "her": "f", "hers": "f", "herself": "f",
    "they": "p", "them": "p", "their": "p", "themselves": "p",
}


@dataclass
class Mention:
    text: str
    gender: str  # "m", "f" or "" when unknown
    plural: bool
    index: int  # token index in the doc


def _gender(head) -> str:
    lemma = head.lemma_.lower()
    if lemma in MALE or head.text.lower() in MALE:
        return "m"
    if lemma in FEMALE or head.text.lower() in FEMALE:
        return "f"
    return ""


def is_animate(head) -> bool:
    if head.lower_ in NOT_CHARACTERS:
        return False
    if head.ent_type_ in ("PERSON", "NORP"):
        return True
    if head.pos_ == "PROPN":
        return head.ent_type_ not in ("GPE", "LOC", "FAC", "DATE", "TIME", "ORG")
    return head.lemma_.lower() in ANIMATE or head.text.lower() in ANIMATE


def mention_text(tokens) -> str:
    """A noun phrase fit to name a character mid-question: "a poor man" → "the poor man"."""
    words = [t for t in tokens if t.dep_ not in ("punct", "relcl", "appos")]
    # Cut a relative clause or apposition off: "the man, who was ..." → "the man".
    cut = []
    for t in tokens:
        if t.dep_ in ("relcl", "acl", "appos") or (t.text == "," and cut):
            break
        cut.append(t)
    words = cut or words
    if not words:
        return ""
    first = words[0]
    parts = [t.text_with_ws for t in words]
    if first.lower_ in ("a", "an", "one", "some"):
        parts[0] = "the "
    elif first.pos_ == "DET" and first.lower_ == "the":
        parts[0] = "the "
    return "".join(parts).strip()


SUBJECT_ROLES = ("nsubj", "nsubjpass")
MENTION_ROLES = {"nsubj", "nsubjpass", "dobj", "pobj", "appos", "conj", "dative", "ROOT", "npadvmod", "oprd"}


class Resolver:
    """Pronoun → character mention, for one parsed section.

    Mentions are read in text order; each resolved pronoun becomes a mention of the
    character it stands for, so a chain of "she ... she" keeps pointing at one
    character. A subject pronoun prefers the latest subject (the character holding the
    stage) over a later object: "The owl listened. She gave Mira a wick, and she ...".
    """

    def __init__(self, doc):
        self.doc = doc
        self._resolved: dict[int, str] = {}
        self._pronoun: dict[str, str] = {}  # mention → the subject pronoun the text uses
        mentions: list[tuple[Mention, bool]] = []  # (mention, was a subject)
        chunk_at = {c.root.i: c for c in doc.noun_chunks}
        for token in doc:
            kind = PRONOUNS.get(token.lower_)
            if kind is not None:
                found = self._pick(mentions, kind, token)
                if found is not None:
                    self._resolved[token.i] = found.text
                    if token.dep_ in SUBJECT_ROLES:
                        self._pronoun.setdefault(found.text, token.lower_)
                    if token.dep_ in SUBJECT_ROLES or token.dep_ in ("dobj", "pobj"):
                        mentions.append((Mention(found.text, found.gender, found.plural, token.i),
                                         token.dep_ in SUBJECT_ROLES))
                continue
            chunk = chunk_at.get(token.i)
            if chunk is None or token.pos_ == "PRON" or not is_animate(token):
                continue
            if token.dep_ not in MENTION_ROLES:
                continue
            tokens = [t for t in chunk if not (t.dep_ == "poss" and t.pos_ == "PRON")]
            text = mention_text(tokens)
            if not text:
                continue
            if text[0].islower() and not text.startswith("the "):
                text = "the " + text
            plural = token.tag_ in ("NNS", "NNPS") or token.lemma_.lower() == "people"
            mentions.append((Mention(text, _gender(token), plural, token.i),
                             token.dep_ in SUBJECT_ROLES))

    def _pick(self, mentions, kind: str, token) -> Mention | None:
        def fits(m: Mention) -> bool:
            if kind == "p":
                return m.plural
            return not m.plural and m.gender in ("", kind)
        if token.dep_ in SUBJECT_ROLES:
            sent_start = token.sent.start
            # Within this sentence and the one before, the latest subject wins.
            window = [m for m, subj in mentions if subj and fits(m)
                      and m.index >= _previous_sentence_start(token, sent_start)]
            if window:
                return window[-1]
        for m, _ in reversed(mentions):
            if fits(m):
                return m
        return None

    def resolve(self, token) -> str | None:
        """The mention ``token`` (a third-person pronoun) most likely stands for."""
        return self._resolved.get(token.i)

    def pronoun_for(self, mention: str) -> str | None:
        """The subject pronoun ("he", "she", "they") the story uses for a character."""
        found = self._pronoun.get(mention)
        if found:
            return found
        head = mention.split()[-1].lower() if mention else ""
        if head in MALE:
            return "he"
        if head in FEMALE:
            return "she"
        return None

    def speaker(self, sent) -> str | None:
        """Who says a quoted sentence: the subject of "said"/"asked"/"cried" in it."""
        for t in sent:
            if t.lemma_ in ("say", "ask", "cry", "reply", "answer", "shout", "exclaim",
                            "whisper", "call", "scream", "tell") and t.pos_ == "VERB":
                for c in t.children:
                    if c.dep_ == "nsubj":
                        if c.lower_ in PRONOUNS:
                            return self.resolve(c)
                        return mention_text(list(c.subtree))
        return None


def _previous_sentence_start(token, sent_start: int) -> int:
    doc = token.doc
    if sent_start == 0:
        return 0
    return doc[sent_start - 1].sent.start
