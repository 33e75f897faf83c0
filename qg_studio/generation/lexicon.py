"""Word lists the candidate finder and the writer share: feelings, times, places."""

from __future__ import annotations

# Emotion words as children's stories say them; the noun and verb forms map to the
# adjective a child would answer with ("joy" → "joyful" is not needed: the word is kept).
FEELINGS = {
    "happy", "glad", "joyful", "joy", "delighted", "delight", "pleased", "cheerful", "merry",
    "sad", "sorrowful", "sorrow", "unhappy", "miserable", "grief", "grieved", "wept", "weep",
    "angry", "anger", "furious", "fury", "rage", "enraged", "cross", "vexed", "annoyed",
    "afraid", "frightened", "fear", "feared", "scared", "terrified", "terror", "alarmed",
    "surprised", "astonished", "amazed", "astonishment", "amazement", "wonder", "shocked",
    "worried", "anxious", "uneasy", "nervous", "ashamed", "shame", "embarrassed", "proud",
    "pride", "jealous", "envious", "envy", "lonely", "bored", "tired", "weary", "grateful",
    "thankful", "relieved", "curious", "excited", "eager", "hopeful", "disappointed",
    "despair", "desperate", "frustrated", "confused", "puzzled", "sorry", "guilty",
    "content", "satisfied", "upset", "distressed", "troubled", "horrified", "disgusted",
    "overjoyed", "heartbroken", "grieving", "mournful", "homesick", "displeased", "indignant", "impatient", "calm", "brave", "courageous",
    "sulky", "gloomy", "delightful", "rejoiced", "rejoice", "laughed", "cried", "sighed",
    "trembled", "wept", "sobbed",
}

# Verb reactions that show a feeling the question may ask about.
REACTIONS = {"weep": "sad", "cry": "sad", "sob": "sad", "sigh": "sad", "mourn": "sad",
             "laugh": "happy", "rejoice": "happy", "smile": "happy", "dance": "happy",
             "tremble": "afraid", "shiver": "afraid", "scream": "frightened",
             "shudder": "afraid", "frown": "angry", "rage": "angry", "storm": "angry",
             "blush": "embarrassed", "gasp": "surprised",
             "marvel": "amazed", "wonder": "curious"}

TIME_WORDS = {
    "morning", "evening", "night", "day", "days", "noon", "midnight", "dawn", "dusk",
    "sunrise", "sunset", "year", "years", "month", "months", "week", "weeks", "winter",
    "summer", "spring", "autumn", "yesterday", "tomorrow", "today", "tonight", "hour",
    "hours", "o'clock", "christmas", "time", "once", "long", "ago", "later", "afterwards",
}

PLACE_PREPOSITIONS = {"in", "at", "on", "into", "to", "under", "near", "beside", "inside",
                      "behind", "across", "through", "over", "towards", "toward", "onto",
                      "from", "by", "upon", "within", "beneath", "outside"}

PLACE_NOUNS = {
    "forest", "wood", "woods", "castle", "palace", "house", "hut", "cottage", "village",
    "town", "city", "kingdom", "land", "country", "sea", "lake", "river", "mountain", "hill",
    "cave", "garden", "field", "meadow", "island", "shore", "beach", "valley", "tower",
    "church", "room", "kitchen", "cellar", "court", "courtyard", "road", "bridge", "well",
    "stream", "pond", "farm", "market", "inn", "mill", "barn", "stable", "heaven", "world",
    "home", "door", "window", "bed", "tree", "rock", "stone", "ship", "boat", "fire",
    "hall", "chamber", "dungeon", "prison", "temple", "desert", "marsh", "glen", "cliff",
    "plain", "orchard", "path", "street", "gate", "wall", "roof", "nest", "hole", "den",
    "ground", "earth", "sky", "moon", "ocean", "bank", "camp", "school", "shop", "table",
}


def feeling_word(lemma: str, text: str) -> str | None:
    """The feeling a word names or shows, if any."""
    low = text.lower()
    if low in FEELINGS:
        return low
    if lemma in REACTIONS:
        return REACTIONS[lemma]
    if lemma in FEELINGS:
        return lemma
    return None
