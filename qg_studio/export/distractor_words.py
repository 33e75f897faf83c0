"""The words distractors are judged by: type cues, fallbacks, and the test for the right
answer in disguise (split from :mod:`qg_studio.export.distractors`)."""

from __future__ import annotations

import re

from qg_studio import resources
from qg_studio.nlp import stem, stop_words

# -- lexicons (fallbacks and type cues) -----------------------------------------------

CHARACTER_NOUNS = {
    "king", "queen", "prince", "princess", "man", "woman", "boy", "girl", "child",
    "children", "mother", "father", "son", "daughter", "brother", "sister", "wife",
    "husband", "grandmother", "grandfather", "witch", "wizard", "giant", "dwarf", "fairy",
    "elf", "troll", "dragon", "fox", "wolf", "bear", "cat", "dog", "bird", "horse", "hen",
    "goose", "duck", "mouse", "rabbit", "hare", "frog", "lion", "pig", "goat", "cow",
    "sheep", "owl", "crow", "raven", "miller", "farmer", "soldier", "servant", "maid",
    "shepherd", "hunter", "tailor", "fisherman", "merchant", "beggar", "knight", "lord",
    "lady", "stepmother", "youth", "peasant", "emperor", "master", "friend", "people",
    "huntsman", "cook", "baker", "smith", "woodcutter", "priest", "monk", "robber",
    "thief", "ogre", "gnome", "mermaid", "stranger", "guard", "ant", "bee", "snake",
}
PLACE_NOUNS = {
    "forest", "wood", "woods", "castle", "palace", "village", "town", "city", "river",
    "lake", "sea", "ocean", "mountain", "hill", "valley", "garden", "field", "meadow",
    "house", "home", "cottage", "hut", "cave", "well", "kitchen", "room", "hall",
    "tower", "church", "market", "road", "path", "bridge", "island", "shore", "beach",
    "kingdom", "country", "land", "farm", "barn", "stable", "mill", "inn", "court",
    "door", "window", "bed", "tree", "cellar", "yard", "sky", "world", "school", "shop",
    "pond", "stream", "desert", "ship", "boat", "bank", "street", "chamber", "dungeon",
}
TIME_NOUNS = {
    "morning", "evening", "night", "day", "midnight", "noon", "dawn", "dusk", "sunset",
    "sunrise", "winter", "summer", "spring", "autumn", "week", "year", "month", "hour",
    "christmas", "today", "tomorrow", "yesterday", "afternoon",
}
# Feelings grouped by meaning (a data file): a distractor never comes from the answer's
# own group.
FEELING_GROUPS: list[frozenset[str]] = [
    frozenset(g) for g in resources.data("feeling_groups.json")["groups"]]
FEELING_WORDS = {word: i for i, group in enumerate(FEELING_GROUPS) for word in group}
FALLBACK_FEELINGS = ["happy", "sad", "angry", "afraid", "surprised", "proud", "ashamed",
                     "jealous", "calm", "curious", "grateful", "confused"]
FALLBACK_CHARACTERS = ["the king", "the old woman", "the miller", "the fox", "the giant",
                       "the fairy", "the soldier", "the queen", "the farmer", "the wolf"]
FALLBACK_PLACES = ["the forest", "the castle", "the village", "the river", "the mountain",
                   "the garden", "the cottage", "the sea", "the market", "the cave"]
FALLBACK_TIMES = ["in the morning", "at night", "in winter", "at midnight",
                  "in the evening", "in summer", "the next day", "at dawn"]

PLACE_PREPS = {"in", "at", "to", "into", "from", "near", "under", "through", "across",
               "inside", "on", "by", "behind", "beside", "over", "onto", "toward",
               "towards", "outside", "beyond", "within", "up", "down"}
TIME_PREPS = {"in", "at", "on", "during", "after", "before", "until", "since", "by"}
CLAUSE_LEADS = {"because", "so", "when", "after", "before", "that", "since", "as",
                "while", "if", "until"}
PRONOUNS = {"i", "you", "he", "she", "it", "we", "they", "him", "her", "them", "me", "us",
            "his", "its", "their", "who", "whom", "which", "what", "that", "this",
            "these", "those", "himself", "herself", "themselves", "itself", "one",
            "everyone", "someone", "nobody", "anyone", "something", "nothing"}
# Not spaCy's list, which holds number words: "two coins" must differ from "three coins".
STOPWORDS = stop_words("answers")
DETERMINERS = {"the", "a", "an", "his", "her", "their", "its", "my", "our", "your",
               "this", "that", "these", "those", "some", "every", "each"}

# -- normalising and the "answer in disguise" test ------------------------------------

_WORD = re.compile(r"[\w']+", re.UNICODE)


def normalise(text: str) -> str:
    words = [w for w in _WORD.findall(text.lower()) if w not in ("a", "an", "the")]
    return " ".join(words)


def content_words(text: str) -> set[str]:
    return {stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS}


def same_answer(candidate: str, answer: str) -> bool:
    """True when ``candidate`` would be a right answer too (or cannot be told apart)."""
    a, b = normalise(candidate), normalise(answer)
    if not a or not b or a == b:
        return True
    if re.search(rf"\b{re.escape(a)}\b", b) or re.search(rf"\b{re.escape(b)}\b", a):
        return True
    ca, cb = content_words(candidate), content_words(answer)
    if not ca or not cb:
        return False
    if ca <= cb or cb <= ca:
        return True
    jaccard = len(ca & cb) / len(ca | cb)
    if jaccard >= 0.5:
        return True
    fa = {FEELING_WORDS[w] for w in _WORD.findall(candidate.lower()) if w in FEELING_WORDS}
    fb = {FEELING_WORDS[w] for w in _WORD.findall(answer.lower()) if w in FEELING_WORDS}
    # "glad" for "happy" is the right answer reworded.
    return bool(fa) and fa == fb

_NUMBER_WORDS = {"one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten", "eleven", "twelve", "twenty", "hundred", "thousand", "seven"}
