"""A character's mention as the text gives it and as a question names it: the noun
phrase ("the poor man", not "a poor man, who ..."), its head noun, the roles a mention
holds, and the verb it belongs to. Apart from the resolver (:mod:`mentions`), which
decides who a pronoun stands for, so that what a name reads like can be read alone."""

from __future__ import annotations

from dataclasses import dataclass

from qg_studio import lang
from qg_studio.reading.animacy import ANIMATE
from qg_studio.reading.animacy import MIND_VERBS
from qg_studio.reading.animacy import is_animate
from qg_studio.reading.animacy import met_with_a
from qg_studio.reading.lexicon import ABSENT
from qg_studio.reading.lexicon import BODY_PARTS
from qg_studio.reading.lexicon import CAUSING_VERBS
from qg_studio.reading.lexicon import HEED_OBJECTS
from qg_studio.reading.lexicon import INDEFINITES_WITH_INFINITIVE
from qg_studio.reading.lexicon import OWN_OBJECTS
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import SPEECH_VERBS
from qg_studio.reading.lexicon import TAKING_VERBS
from qg_studio.reading.lexicon import unreal
from qg_studio.text.parse import gap


@dataclass
class Mention:
    text: str
    gender: str  # "m", "f" or "" when unknown
    plural: bool
    index: int  # token index in the doc
    # "his horse", "her goat": someone's animal, a he or a she only once the text says so.
    owned: bool = False
    # "Mei and her grandmother": two joined, a "they" for the sentence after, no further.
    pair: bool = False


def mention_text(tokens) -> str:
    """A noun phrase fit to name a character mid-question: "a poor man" → "the poor man"."""
    # A line break inside the phrase is a token of its own: "the \rpeople on earth".
    tokens = [t for t in tokens if not t.is_space]
    inside = {t.i for t in tokens}

    def hangs_on(t) -> bool:
        # A clause or apposition on a word of the phrase, not the phrase's own head
        # (which the parser may call an apposition: "came up to him, a strange woman").
        return t.dep_ in ("relcl", "acl", "appos") and t.head.i in inside and t.head.i != t.i

    words = [t for t in tokens if t.dep_ != "punct" and not hangs_on(t)]
    # Cut a relative clause or apposition off: "the man, who was ..." → "the man".
    cut = []
    for t in tokens:
        # at a comma after the noun, not between its words ("the old, tired dog")
        if hangs_on(t) or (t.text == "," and any(c.pos_ in ("NOUN", "PROPN") for c in cut)):
            break
        cut.append(t)
    words = cut or words
    if not words:
        return ""
    if len(words) > 1 and words[0].dep_ == "predet" and words[1].pos_ == "DET":
        words = words[1:]  # "all the friends" are "the friends"
    while len(words) > 1 and words[0].pos_ == "ADV" and words[0].dep_ == "advmod":
        words = words[1:]  # "only the Crab was left": the Crab
    first = words[0]
    # a word whose comma was left out keeps its space: "its thin, sharp note" → "thin sharp"
    parts = [t.text + (gap(t) if t.i + 1 in (n.i for n in words) else " ") for t in words]
    if first.lower_ in ("a", "an", "one", "some"):
        parts[0] = "the "
    elif first.pos_ == "DET" and first.text[:1].isupper():
        parts[0] = first.lower_ + gap(first)  # "These five men" mid-question: "these"
    return "".join(parts).strip()


SUBJECT_ROLES = ("nsubj", "nsubjpass")
MENTION_ROLES = {
    "nsubj",
    "nsubjpass",
    "dobj",
    "pobj",
    "appos",
    "conj",
    "dative",
    "ROOT",
    "npadvmod",
    "oprd",
}


def head_noun(mention: str) -> str:
    """The noun that names a character, lower-case: "the old farmer" is the "farmer"."""
    return mention.split()[-1].lower() if mention else ""


def introduced(token) -> bool:
    """The one "there was" or "it was" brings on, who holds the stage as a subject would:
    "among them there was also a tinker. The queen liked the pans on his cart": the
    tinker's; "There was a knock. It was the old man. He had walked": the old man."""
    if token.dep_ not in ("attr", "dobj"):
        return False
    return any(
        c.dep_ == "expl"
        or (c.dep_ == "nsubj" and c.lower_ in ("it", "this") and token.head.lemma_ == "be")
        for c in token.head.children
    )


TAKE_INFINITIVES = INDEFINITES_WITH_INFINITIVE | HEED_OBJECTS  # "nothing to eat", "care to"
GONE_TO_VERBS = frozenset(lang.function_words("gone_to_verbs"))


def word_infinitive(verb) -> bool:
    """ "with nowhere to sleep", "nothing to eat", "no place to hide", "took care to tell
    him": the infinitive is the word's before it, told with it, however the parser hangs
    it; no clause, and no purpose, of its own."""
    if verb.tag_ != "VB" or verb.i < 2 or verb.doc[verb.i - 1].lower_ != "to":
        return False
    before = verb.doc[verb.i - 2]
    if before.lemma_ in ("go", "come") and verb.lemma_ in GONE_TO_VERBS:
        return True  # "the bears went to sleep", "the stone came to rest"
    return before.lower_ in TAKE_INFINITIVES or (
        before.pos_ == "NOUN" and any(c.lower_ == "no" for c in before.children)
    )


def no_clause_of_its_own(verb) -> bool:
    """A verb told with the word before it: an infinitive (:func:`word_infinitive`), or
    how one came or went ("the Frog came hopping up to the stone", "went flying over the
    hill"): one doing, whatever clause the parser hangs it as."""
    went = verb.tag_ == "VBG" and verb.dep_ in ("advcl", "xcomp") and verb.i > 0
    came = verb.doc[verb.i - 1] if went else None
    return word_infinitive(verb) or (came == verb.head and came.lemma_ in ("come", "go"))


def holds_stage(token) -> bool:
    """A subject, or the one a feeling verb acts on: in "This angered the fox, and he
    snapped", the fox is who "he" goes on from, not the last character named as subject."""
    if token.dep_ in SUBJECT_ROLES and watched(token.head):
        return False  # "she had watched her mother milk the goats": her mother is watched
    if token.dep_ in SUBJECT_ROLES and _noticed(token.head):
        return False  # "Pip noticed that the man was breathing. He chirped": Pip did
    if token.dep_ in SUBJECT_ROLES and for_to(token.head):
        return False  # "she waited for her mother to come. Then she went": she did
    if (
        token.dep_ in SUBJECT_ROLES
        and token.head.dep_ == "relcl"
        and not is_animate(token.head.head)
    ):
        return False  # "she gathered feathers that a pigeon had dropped": she holds it
    return (
        token.dep_ in SUBJECT_ROLES
        or introduced(token)
        or (token.dep_ == "dobj" and token.head.lemma_.lower() in CAUSING_VERBS)
    )


def absent(token) -> bool:
    """The subject of "was missing", "was gone", any one of a kind that only could do
    something ("a goat could slip") or every one of them ("Every frog dived"): no one there,
    so no one a "he" or "she" after it stands for ("But the youngest kid was missing. He
    stood still": not the kid)."""
    if token.dep_ not in SUBJECT_ROLES:
        return False
    verb = token.head
    missing = verb.lemma_ == "be" and any(
        c.dep_ in ("acomp", "advmod", "attr") and c.lower_ in ABSENT for c in verb.children
    )
    # "Every frog dived … and he did": every one of them is no one "he" stands for.
    every = any(c.dep_ == "det" and c.lower_ in ("every", "each") for c in token.children)
    return missing or any_one_could(token) or every


def any_one_could(token) -> bool:
    """ "a goat could slip", "only one animal could cross at a time": any one of a kind,
    told what could be, no one in the story doing it."""
    one = met_with_a(token) or any(c.dep_ == "nummod" and c.lower_ == "one" for c in token.children)
    return token.dep_ in SUBJECT_ROLES and one and any(c.tag_ == "MD" for c in token.head.children)


def watched(verb) -> bool:
    """A bare verb that tells what someone saw, heard or made happen ("milk" of "watched
    her mother milk the goats", "go" of "let them go", "walking" of "watched the farmers
    walking"), or how one was found ("found the little crab wedged under a stone"): its
    subject is that one's object; so is a state joined to that ("trapped behind a rock
    and tangled in a bramble"), not a deed ("watched them go and sighed": she sighed)."""
    if verb.dep_ == "conj" and verb.head.tag_ == "VBN" and verb.head.i != verb.i:
        return not any(c.dep_ in SUBJECT_ROLES for c in verb.children) and watched(verb.head)
    return (
        verb.tag_ in ("VB", "VBG", "VBN")
        and verb.dep_ in ("ccomp", "xcomp")
        and not any(c.dep_ in ("aux", "mark") for c in verb.children)
        and verb.head.pos_ == "VERB"
    )


def for_to(verb) -> bool:
    """ "waited for him to be cross": what is waited for, no clause of its own; a deed
    cut from it ("they waited") says something else."""
    return any(c.dep_ == "mark" and c.lower_ == "for" for c in verb.children) and any(
        c.dep_ == "aux" and c.lower_ == "to" for c in verb.children
    )


def _noticed(verb) -> bool:
    """What someone saw, heard, knew, told or was sure was so: a clause under a verb of
    seeing, mind or saying ("told his mother that a terrible beast lived in the valley"), or
    of belief ("was certain that a fox was digging")."""
    return verb.dep_ == "ccomp" and (
        verb.head.lemma_.lower() in PERCEIVING | MIND_VERBS | SPEECH_VERBS or unreal(verb.head)
    )


def name_word(text: str) -> str:
    """The name a mention ends in ("Bronwen" of "Old Bronwen"), or "" for a noun."""
    last = text.split()[-1] if text.split() else ""
    return last if last[:1].isupper() else ""


def own_verb(token):
    """The verb whose argument a noun or pronoun is (through prepositions and possessors)."""
    head = token.head
    while head.i != head.head.i and head.pos_ not in ("VERB", "AUX"):
        head = head.head
    return head


def governor(token) -> int:
    """The verb a noun or pronoun belongs to, where the subject is: "sat on a branch and
    laughed at her": a verb without a subject of its own shares the one before it."""
    head = own_verb(token)
    while head.dep_ == "conj" and not any(c.dep_ in SUBJECT_ROLES for c in head.children):
        head = head.head
    return head.i


def one_of_many(plural: str) -> str:
    """ "Hares" → "Hare", "ponies" → "pony", "foxes" → "fox" (a name-like plural the
    lemmatizer leaves as it is)."""
    low = plural.lower()
    if low.endswith("ies"):
        return plural[:-3] + "y"
    if low.endswith(("ches", "shes", "xes", "sses", "zes")):
        return plural[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return plural[:-1]
    return plural


def group_member(doc, mentions, token) -> Mention | None:
    """ "the youngest one" after "three young Hares": one of the group, named as the
    text picks it out ("the youngest Hare")."""
    picked = [c for c in token.children if c.dep_ == "amod"]
    # (The parser may take "one" for a number: "chased the youngest one round".)
    if token.lower_ != "one" or not picked or token.dep_ not in MENTION_ROLES | {"nummod"}:
        return None
    group = next((m for m, _ in reversed(mentions) if m.plural and m.index >= 0), None)
    if group is None:
        return None
    # The group's noun ("Hares" of "the three young Hares"), said of one of them.
    last = group.text.split()[-1]
    said = next((t for t in doc if t.text == last), None)
    noun = said.lemma_ if said is not None and said.lemma_ != last else one_of_many(last)
    if last[:1].isupper():
        noun = noun[:1].upper() + noun[1:]
    return Mention(f"the {' '.join(c.lower_ for c in picked)} {noun}", "", False, token.i)


def pair_of(token, mentions) -> list[Mention]:
    """ "Mei and her grandmother made a kite. They worked …": two characters joined as one
    subject are one "they", told as the text joins them; ``token`` is the second, just
    added to ``mentions`` (pairs of a mention and whether it holds the stage)."""
    if token.dep_ != "conj" or token.head.dep_ not in SUBJECT_ROLES or not mentions:
        return []
    first = next((m for m, _ in reversed(mentions) if m.index == token.head.i), None)
    last = mentions[-1][0]
    if first is None or last.index != token.i or first.plural or last.plural:
        return []
    # Told as the text joins them ("Mei and her grandmother": hers, Mei's); both known by
    # now ("a fox and a crow" are "the fox and the crow").
    span = token.doc[token.head.left_edge.i : token.right_edge.i + 1]
    text = " ".join(w if w not in ("a", "an") else "the" for w in mention_text(list(span)).split())
    return [Mention(text, "", True, token.i, pair=True)]


def noun_mention_text(token, chunk, named: str | None) -> str:
    """How a character a noun names is called in a question: "the old man" (of "an old
    man" or "his old man"), "these five men" as it is, a name whole ("St. Paul")."""
    # "At last the goose hit upon a plan", parsed with the time inside the noun.
    lead_in = {d.i for t in chunk or [] if t.dep_ == "prep" for d in t.subtree}
    # "said the Stone to a Trout", parsed with no noun chunk: the Stone, as the text says.
    bare = [c for c in token.children if c.dep_ == "det" and c.i < token.i] + [token]
    tokens = [
        t
        for t in _split_before(token) + list(chunk or bare)
        if not (t.dep_ == "poss" and t.pos_ == "PRON") and t.i not in lead_in
    ]
    whole = chunk is not None and all(t.pos_ == "PROPN" or t.is_punct for t in tokens)
    if named and not whole:
        named = titled_name(token) or named
    text = (mention_text(tokens) if named and whole else named) or mention_text(tokens)
    if not text:
        return ""
    lead = next((t for t in tokens if not (t.pos_ == "ADV" and t.dep_ == "advmod")), tokens[0])
    opening = lead.is_sent_start and lead == token and token.pos_ == "NOUN" and not named
    if opening and text.startswith(lead.text):
        text = lead.lower_ + text[len(lead.text) :]  # "Children came": the children
    # "young Barnaby", "little Tom": a name wants no "the" for the word before it; "the
    # little Fox" does, a word for an animal with a capital.
    a_name = (named is not None and token.text == named) or (
        token.pos_ == "PROPN" and lead.dep_ == "amod" and token.lemma_.lower() not in ANIMATE
    )
    if (
        text[0].islower()
        and lead.dep_ not in ("det", "poss")
        and not text.startswith("the ")  # not "the the little fish" of "one little fish"
        and not a_name
    ):
        text = "the " + text
    return text


def _split_before(token) -> list:
    """ "a grey Heron landed", parsed as two subjects ("a grey" and "Heron"): the words
    the parse split off the name's front."""
    before = token.doc[token.i - 1] if token.i > 0 else None
    if (
        before is None
        or before.dep_ != token.dep_
        or before.head.i != token.head.i
        or before.pos_ not in ("NOUN", "ADJ")
        or token.pos_ != "PROPN"
        or any(c.dep_ == "det" for c in token.children)
        or not any(c.dep_ == "det" for c in before.children)
    ):
        return []
    return list(before.subtree)


def titled_name(token) -> str | None:
    """ "old Mr. Finch" is "Mr. Finch": a name with the title set before it, without "old"."""
    titles = [c for c in token.children if c.pos_ == "PROPN" and c.dep_ == "compound"]
    if not titles or titles[-1].i != token.i - 1:
        return None
    return mention_text([*titles, token])


def own_thing(thing) -> bool:
    """Whether "his" or "her" on ``thing`` is its verb's subject's own: the body a verb
    moves ("The Fox shook his head"; "the Fox took his cheese" is another's), what one
    does with one's things unless taken, eaten or broken ("Lotte planted her seeds"), "his
    way" and the like, and "a lamb of her own"."""
    if thing.lower_ == "own":
        return True
    if thing.dep_ == "dobj" and (
        thing.lemma_.lower() in BODY_PARTS
        or (thing.head.lemma_ not in TAKING_VERBS and not is_animate(thing))
    ):
        return True
    if thing.dep_ == "pobj" and thing.head.head.dep_ == "acomp":
        return thing.lemma_.lower() in BODY_PARTS  # "was proud of her long beak"
    return thing.dep_ in ("dobj", "pobj") and thing.lower_ in OWN_OBJECTS - BODY_PARTS
