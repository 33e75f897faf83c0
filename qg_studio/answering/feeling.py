"""Feeling answers a child would give: "scared", not "trembled".

A story often shows a feeling through what a character does ("the trolls screamed",
"she wept") or says it with an adverb ("he answered angrily"). A span model finds those
words; the answer a teacher expects to "How did the trolls feel?" is the feeling itself.
This turns such a span into the feeling word and leaves spans that already name a feeling
("delighted", "joy", "more than pleased") as they are.
"""

from __future__ import annotations

import re

_FEELING_QUESTION = re.compile(
    r"\bhow\b.*\bfe(?:el|els|elt|eling)\b|\bwhat\b.*\bfe(?:el|lt)\b.*\?|\bfeelings?\b", re.I)

# What characters do, or how they do it, and the feeling it shows.
_SHOWN_BY = {
    "angry": ("angrily", "anger", "rage", "raged", "raging", "wrath", "fury", "stamped",
              "scolded", "shouted", "cursed", "roared", "frowned", "fumed"),
    "scared": ("trembled", "trembling", "tremble", "shook", "shaking", "shivered",
               "shivering", "screamed", "scream", "screaming", "shrieked", "fled", "cowered",
               "hid", "fearfully", "fear", "feared", "terror", "fright", "dread"),
    "sad": ("wept", "weeping", "weep", "cried", "crying", "tears", "sobbed", "sobbing",
            "sighed", "mourned", "mourning", "sadly", "sorrowfully", "lamented"),
    "happy": ("laughed", "laughing", "laughter", "smiled", "smiling", "danced", "dancing",
              "rejoiced", "rejoicing", "cheered", "sang", "happily", "joyfully", "gladly",
              "merrily", "clapped"),
    "surprised": ("gasped", "stared", "wondered", "surprise"),
    "grateful": ("thanked", "gratitude", "gratefully", "thankful"),
    "worried": ("worry", "anxiety", "anxiously", "fretted", "paced"),
    "ashamed": ("shame", "blushed", "blushing"),
    "lonely": ("loneliness", "alone"),
    "proud": ("pride", "proudly", "boasted", "bragged"),
    "jealous": ("jealousy", "envy", "enviously", "jealously"),
    "tired": ("weary", "wearily", "exhausted", "yawned"),
}
_CUE = {cue: feeling for feeling, cues in _SHOWN_BY.items() for cue in cues}

# Words that already name a feeling: a span holding one is answer enough.
_NAMED = set(_SHOWN_BY) | {
    "afraid", "frightened", "terrified", "fearful", "furious", "mad", "cross", "annoyed",
    "unhappy", "miserable", "sorrowful", "heartbroken", "glad", "joy", "joyful", "delighted",
    "pleased", "content", "satisfied", "cheerful", "merry", "amazed", "amazement",
    "astonished", "astonishment", "shocked", "curious", "nervous", "anxious", "hopeful",
    "hopeless", "despair", "love", "loved", "hate", "hated", "disgusted", "embarrassed",
    "excited", "relieved", "upset", "envious", "sorry", "guilty", "brave", "calm",
    "frustrated", "confused", "disappointed", "grieved", "distress", "distressed",
    "sorrow", "grief",
}
SHORT_SPAN = 6  # words; a longer span is a whole event, not a feeling shown in a word
_WORD = re.compile(r"[a-z']+")


def is_feeling_question(question: str) -> bool:
    return bool(_FEELING_QUESTION.search(question))


def feeling_answer(question: str, span: str) -> str | None:
    """The feeling a span shows, when the question asks for one and the span only shows it."""
    if not is_feeling_question(question):
        return None
    words = _WORD.findall(span.lower())
    if not words or len(words) > SHORT_SPAN or any(w in _NAMED for w in words):
        return None
    for word in words:
        if word in _CUE:
            return _CUE[word]
    return None
