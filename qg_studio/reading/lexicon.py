"""Word lists the finders and the writer share: feelings, times, places, verbs."""

from __future__ import annotations

from qg_studio import lang

# The lists are data files under qg_studio/lang/en/ (one word a line), so a teacher or a
# linguist can change them without touching code.

# -- feelings: one table of words (feelings.tsv) and one of the verbs that cue them --------
_FEELING_ROWS = lang.table("feelings.tsv")
_CUES = lang.data("feeling_cues.json")
# Emotion words as children's stories say them; noun and verb forms are kept as written.
FEELINGS = frozenset(r["word"] for r in _FEELING_ROWS if r["told"])
# Words that name a feeling as a child would answer: a span holding one is answer enough.
NAMED_FEELINGS = frozenset(r["word"] for r in _FEELING_ROWS if r["named"])
# Words, as written, that show a feeling without naming it ("trembled": scared).
SHOWN_BY_WORD: dict[str, str] = {r["word"]: r["feeling"] for r in _FEELING_ROWS if r["shown"]}
# Feelings of one meaning, by group name: a quiz's wrong option never comes from its own.
FEELING_GROUP: dict[str, str] = {r["word"]: r["group"] for r in _FEELING_ROWS if r["group"]}
# "ran home, full of fear", "in a rage": feeling nouns that make a phrase on a deed.
FEELING_NOUNS = frozenset(r["word"] for r in _FEELING_ROWS if r["noun"])
# Verb reactions (lemma) that show a feeling the question may ask about.
REACTIONS: dict[str, str] = _CUES["reactions"]
NO_WHY = frozenset(_CUES["no_why"])
SHOUTS_TOO = frozenset(_CUES["shouts_too"])
BODILY_CAUSES = frozenset(_CUES["bodily_causes"])
SHAKING = frozenset(_CUES["shaking"])
BODILY_CONTEXT = frozenset(_CUES["bodily_context"])
BODILY_STATES = frozenset(_CUES["bodily_states"])
# "This angered the fox": a verb's lemma and how the one it acts on feels.
CAUSING_VERBS: dict[str, str] = _CUES["causing_verbs"]
ABSENT = lang.function_words("absent_words")  # "was missing": not on the stage
INDEFINITES_WITH_INFINITIVE = frozenset(lang.function_words("indefinites_with_infinitive"))
HEED_OBJECTS = frozenset(lang.function_words("heed_objects"))  # "took care to": one deed
# "she grew afraid" (becoming), "she looked sad" (linking): how someone is, not a deed.
BECOMING_VERBS = frozenset(_CUES["becoming_verbs"])
LINKING_VERBS = frozenset(_CUES["linking_verbs"])
# "began to weep", "started laughing", "burst out laughing": a reaction told by its start.
STARTING = frozenset(_CUES["starting_verbs"])
CEASING = frozenset(_CUES["stopping_verbs"])  # "stopped crying": the feeling is over
# "The wolf chased the hare": how the one a deed is done to (or whose thing) feels.
DONE_TO: dict[str, str] = _CUES["done_to"]
DONE_TO_THEIRS: dict[str, str] = _CUES["done_to_theirs"]
LOST_WITH: dict[str, str] = _CUES["lost_with"]
GIFT_GIVING: dict = _CUES["given"]

TIME_WORDS = lang.words("time_words.txt")
PLACE_PREPOSITIONS = lang.words("place_prepositions.txt")
PLACE_NOUNS = lang.words("place_nouns.txt")
REACHING = frozenset(lang.function_words("reaching_verbs"))  # "reached the mill": a place
BODY_PARTS = lang.words("body_parts.txt")
# What a verb's subject moves or does with is its own: "shook his head", "lost his way".
OWN_OBJECTS = BODY_PARTS | lang.words("own_objects.txt")
# A pronoun's other forms: "he" is "him" as an object, "his" as an owner.
OBJECT_FORM = {"he": "him", "she": "her", "they": "them"}
POSSESSIVE_FORM = {"he": "his", "she": "her", "they": "their"}
REFLEXIVE_FORM = {"he": "himself", "she": "herself", "they": "themselves"}
# Verbs of finding something out ("saw", "heard", "learned").
PERCEIVING = lang.words("perceiving_verbs.txt")
WANTS = lang.words("want_verbs.txt")  # "What did the Heron want to do?", not a deed
TAKING_VERBS = lang.words("taking_verbs.txt")  # whose object is most often another's
# Verbs a question is not asked about: reported speech, and verbs too weak to act.
SAYING_VERBS = lang.words("saying_verbs.txt")
# Verbs a speaker's tag tells speech with ("said", "told", "asked").
SPEECH_VERBS = lang.words("speech_verbs.txt")
UNREAL_VERBS = lang.words("unreal_verbs.txt")  # "wished", "was sure": what one only believed
WEAK_VERBS = lang.words("weak_verbs.txt")
# A state, not a deed ("was tired", "lived by the pond"): no point in time to ask "after".
STATE_VERBS = lang.words("state_verbs.txt")
DISCOURSE_ADVERBS = lang.words("discourse_adverbs.txt")
NARRATOR = lang.function_words("narrator_pronouns")  # "I held my breath": who tells it
TELLING_APART = lang.words("telling_apart.txt")  # "the Second Knight" is not "the Knight"


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


# Sentences before a shiver read for the cold, wet or hunger that would explain it: "That
# night a storm blew … It shook the bush … his leaves flew away. ¶ He sat shivering".
COLD_BEFORE = 3


def _cold_about(head) -> bool:
    """Cold, wet or hunger told in the reaction's sentence or the few before it."""
    doc, start = head.doc, head.sent.start
    for _ in range(COLD_BEFORE):
        start = doc[start - 1].sent.start if start else 0
    return any(t.lemma_.lower() in BODILY_CONTEXT for t in doc[start : head.sent.end])


def not_felt(head) -> bool:
    """A reaction that shows no feeling: a cry that is speech, a shiver with cold, one
    stopped ("stopped crying"), a laugh that says something ('"Look at him," laughed the
    Hare' mocks as often as it is glad)."""
    if head.lemma_.lower() == "laugh" and any(t.is_quote for t in head.sent):
        return True
    if head.dep_ in ("xcomp", "ccomp") and head.head.lemma_.lower() in CEASING:
        return True  # "the baby stopped crying"
    if head.lemma_.lower() in SHAKING and (
        _cold_about(head) or any(c.dep_ == "dobj" for c in head.children)
    ):
        return True  # "shook his head", "shook the tree": a deed, not a shiver
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


def unreal(verb) -> bool:
    """Whether a clause hung from ``verb`` tells what one wished, supposed or was sure of,
    not what happened: "wishing she had taken …", "was sure (that) they were eating …"
    (the parser hangs the clause from "sure", or from "was" beside "certain")."""
    return verb.lemma_ in UNREAL_VERBS or (
        verb.lemma_ == "be"
        and any(c.dep_ == "acomp" and c.lemma_ in UNREAL_VERBS for c in verb.children)
    )
