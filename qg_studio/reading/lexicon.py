"""Word lists the finders and the writer share: feelings, times, places, verbs."""

from __future__ import annotations

from qg_studio import resources

# The lists are data files under qg_studio/resources/ (one word a line), so a teacher or a
# linguist can change them without touching code.
# Emotion words as children's stories say them; noun and verb forms are kept as written.
FEELINGS = resources.words("feelings.txt")
# Verb reactions (lemma) that show a feeling the question may ask about.
REACTIONS: dict[str, str] = resources.data("shown_feelings.json")["by_lemma"]
NO_WHY = frozenset(resources.data("shown_feelings.json")["no_why"])
SHOUTS_TOO = frozenset(resources.data("shown_feelings.json")["shouts_too"])
BODILY_CAUSES = frozenset(resources.data("shown_feelings.json")["bodily_causes"])
# "This angered the fox": a verb's lemma and how the one it acts on feels.
CAUSING_VERBS: dict[str, str] = resources.data("feeling_forms.json")["causing_verbs"]
# "ran home, full of fear", "in a rage": feeling nouns that make a phrase on a deed.
FEELING_NOUNS = frozenset(resources.data("feeling_forms.json")["nouns"])
# "began to weep", "started laughing", "burst out laughing": a reaction told by its start.
STARTING = frozenset(resources.data("shown_feelings.json")["starting_verbs"])
TIME_WORDS = resources.words("time_words.txt")
PLACE_PREPOSITIONS = resources.words("place_prepositions.txt")
PLACE_NOUNS = resources.words("place_nouns.txt")
# Verbs a question is not asked about: reported speech, and verbs too weak to act.
SAYING_VERBS = resources.words("saying_verbs.txt")
WEAK_VERBS = resources.words("weak_verbs.txt")
# A state, not a deed ("was tired", "lived by the pond"): no point in time to ask "after".
STATE_VERBS = resources.words("state_verbs.txt")
DISCOURSE_ADVERBS = resources.words("discourse_adverbs.txt")


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


def reaction_lemma(head) -> str:
    """The lemma of the reaction a clause's verb shows ("wept"; "began to weep"), else ""."""
    lemma = head.lemma_.lower()
    if lemma in REACTIONS:
        return "" if not_felt(head) else lemma
    if lemma in STARTING:
        for child in head.children:
            if child.dep_ in ("xcomp", "advcl") and child.lemma_.lower() in REACTIONS:
                return child.lemma_.lower()
    return ""


def not_felt(head) -> bool:
    """A reaction that shows no feeling: a cry that is speech, a shiver with cold."""
    return shouted(head) or any(
        c.dep_ == "prep"
        and c.lower_ in ("with", "from")
        and any(o.lemma_.lower() in BODILY_CAUSES for o in c.children if o.dep_ == "pobj")
        for c in head.children
    )


def shouted(head) -> bool:
    """ "'Turn back!' cried the mother", "cried out for help": a cry that is speech."""
    if head.lemma_.lower() not in SHOUTS_TOO:
        return False
    if any(t.is_quote for t in head.sent):
        return True
    return any(
        (c.dep_ in ("prt", "advmod") and c.lower_ in ("out", "aloud"))
        or (c.dep_ == "prep" and c.lower_ in ("to", "for", "unto"))
        for c in head.children
    )
