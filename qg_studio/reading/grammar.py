"""Clauses → questions: wh-movement, subject–auxiliary inversion, do-support.

The ``ask_*`` functions turn a :class:`~qg_studio.reading.clauses.Clause` into a
question; ``state`` restates it ("the fox ran away") for "What happened after …?".
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.reading.animacy import ANIMATE
from qg_studio.reading.clauses import MARKERS
from qg_studio.reading.clauses import QUANTIFIERS
from qg_studio.reading.clauses import Clause
from qg_studio.reading.inflect import do_support
from qg_studio.reading.inflect import ing_of
from qg_studio.reading.inflect import is_past_form
from qg_studio.reading.inflect import lemma_of
from qg_studio.reading.inflect import past_of
from qg_studio.reading.lexicon import NARRATOR
from qg_studio.reading.lexicon import POSSESSIVE_FORM
from qg_studio.reading.mentions import Resolver
from qg_studio.reading.noun_phrases import governor
from qg_studio.reading.noun_phrases import name_word
from qg_studio.reading.phrases import before_joined_deed
from qg_studio.reading.reference import named_other
from qg_studio.reading.subjects import one_character
from qg_studio.reading.subjects import possessive
from qg_studio.reading.subjects import trim
from qg_studio.text.parse import gap

_CONTRACT = {"will": "won't", "can": "can't", "shall": "shan't", "am": "am not"}


MAX_TAIL = 10
# A restated event is a reminder, not the news: keep it short ("after the fox ran away").
REMINDER_TAIL = 7
WEIGHING = lang.function_words("weighing_adverbs")  # not "after she only smiled"
# A key tells the event whole: "the doctor told her that the water from the well had made
# her ill", not "… had made".
ANSWER_TAIL = 16


def short_tail(tokens: list, limit: int = MAX_TAIL) -> list:
    """A long predicate cut at its first comma, relative clause or aside: questions read
    best short."""
    if (cut := before_colon(tokens)) is not tokens:
        return cut
    if sum(not (t.is_punct or t.is_space) for t in tokens) <= limit:
        return tokens
    for n, t in enumerate(tokens):
        if n >= 3 and (
            # Not a comma between a noun's adjectives: "into the cool, deep water".
            t.text in (",", "--", "—")
            and not (t.text == "," and t.head.i > t.i and t.head.pos_ in ("NOUN", "PROPN"))
            or t.dep_ in ("relcl", "appos")
            and t.i > tokens[0].i + 2
            and t.doc[t.i - 1].lower_ != "to"  # "no place to hide" is one thing
        ):
            cut = tokens[:n]
            if t.dep_ == "relcl":
                cut = [x for x in cut if not (x.head.i == t.i)]
            return _clean_end(cut)
    return _clean_end(tokens[: limit + 2])


def before_colon(tokens: list) -> list:
    """Cut before what a colon opens ("ate everything: apples, …"), never after its item."""
    colon = next((n for n, t in enumerate(tokens) if n >= 1 and t.text in (";", ":")), None)
    return tokens if colon is None else _clean_end(tokens[:colon])


# Words that need the word after them: "in the service of", "the one he", "and".
_COMPLEMENTS = {"dobj", "ccomp", "xcomp", "attr", "acomp", "oprd", "dative"}
_NEEDS_NEXT = {"prep", "det", "poss", "cc", "mark", "aux", "auxpass", "nsubj", "nsubjpass", "case"}


def _clean_end(cut: list) -> list:
    """A predicate cut at a word count, ended where a child can read it as whole: no
    last word that waits for the next one, nor one that modifies a word cut off."""

    def hangs(t) -> bool:
        end = t.i + 1  # what follows the last word is cut off, trimmed words too
        # "… had made" without "her ill": a verb whose complement was cut off waits too.
        cut_off = any(c.dep_ in _COMPLEMENTS and c.i >= end for c in t.children)
        # "a pail of milk left" without "beside the barn door": a participle that
        # describes a noun reads whole only with its words.
        cut_off = cut_off or (t.dep_ == "acl" and any(c.i > t.i for c in t.children))
        # "as fast" without "as his legs could carry him": half a comparison.
        cut_off = cut_off or any(
            c.dep_ == "advcl" and c.i >= end and any(m.lower_ in ("as", "than") for m in c.children)
            for c in t.children
        )
        # "with a cart full" without "of pots": a word that waits for what it is full of.
        cut_off = cut_off or (
            t.pos_ == "ADJ" and any(c.dep_ == "prep" and c.i >= end for c in t.children)
        )
        # "up the stairs and through" without "a small door": a preposition without its object.
        cut_off = cut_off or (t.pos_ == "ADP" and not any(c.i < end for c in t.children))
        return t.dep_ in _NEEDS_NEXT or t.is_punct or t.head.i >= end or cut_off

    while len(cut) > 2 and hangs(cut[-1]):
        cut = cut[:-1]
    # "Who went down into?": two words that still wait for a third are no predicate.
    return [] if cut and cut[-1].dep_ in _NEEDS_NEXT else cut


OBJECT_PRONOUNS = {"him", "her", "them"}


def words(
    tokens: list,
    skip: set[int] | None = None,
    clause: Clause | None = None,
    resolver: Resolver | None = None,
    names_only: bool = False,
) -> str:
    """The tokens as text; with ``clause``, an object pronoun that stands for someone
    other than the subject is named ("Who had woken the owl up?"), with ``names_only``
    only by a given name; with a ``resolver`` (or a clause), the narrator's "me" and
    "my" are named ("gave the narrator a jar")."""
    skip = skip or set()
    kept = trim([t for t in tokens if t.i not in skip and not t.is_space])
    teller = resolver or (clause.resolver if clause is not None else None)
    naming = clause.resolver if clause is not None else None  # objects named for the clause

    def named(t) -> str | None:
        name = named_other(naming.resolve(t), clause)
        return name if name and (name_word(name) or not names_only) else None

    parts = []
    named_at = -1
    for t in kept:
        text = t.text + gap(t)
        told = teller.resolve(t) if teller is not None and t.lower_ in NARRATOR else None
        if told:
            parts.append(_narrators(t, told) + gap(t))
            continue
        if t.i == named_at + 1 and t.lower_ in QUANTIFIERS and t.head.i == named_at:
            continue  # "to them both": not "to the two squirrels both"; "her all the way" stays
        if (
            naming is not None
            and t.lower_ in OBJECT_PRONOUNS
            # "helped him take the coins": "him" is the subject of "take", an object still
            and t.dep_ in ("dobj", "pobj", "dative", "iobj", "nsubj")
        ):
            name = named(t)
            if name:
                text = name + gap(t)
                named_at = t.i
        elif naming is not None and _taken_home(t):
            # "carried her home": her, taken home, not her home.
            name = named(t)
            if name:
                text = name + gap(t)
        elif (
            naming is not None
            and t.dep_ == "poss"
            and t.lower_ in ("his", "her", "their")
            and t.head.lower_ != "own"  # "gave Liesel a lamb of her own" names her already
        ):
            # "knocked at his door": whose, unless the asker's own or one the words just named
            name = named(t)
            if name and name.lower() not in "".join(parts).lower():
                text = possessive(name) + gap(t)
        parts.append(text)
    text = "".join(parts).strip()
    text = text.replace(" ,", ",").replace(",,", ",").strip(" ,;:")
    for q in ('"', "“", "”", "‘", "’"):
        text = text.replace(q, "")
    while "  " in text:
        text = text.replace("  ", " ")
    return text.strip(" ,;:-")


def _narrators(t, told: str) -> str:
    """ "gave me a jar" → "gave the narrator a jar"; "I waved my arms" → "their arms", the
    narrator's own, not "the narrator waved the narrator's arms"."""
    if t.lower_ not in ("my", "mine"):
        return told
    verb = t.doc[governor(t)]
    if any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ == "i" for c in verb.children):
        return "their"
    return possessive(told)


_TAKING_HOME = ("bring", "carry", "drive", "lead", "see", "send", "take", "walk")


def _taken_home(t) -> bool:
    return (
        t.dep_ == "poss"
        and t.lower_ in ("her", "them", "him")
        and t.head.lower_ == "home"
        and t.head.head.lemma_ in _TAKING_HOME
    )


def finish(text: str) -> str:
    """Capitalise, tidy spaces and end with one question mark."""
    text = " ".join(text.split())
    text = text.replace(" ,", ",").replace(" '", "'").replace(" n't", "n't")
    text = text.rstrip(" ,;:.!?-")
    if not text:
        return ""
    return text[0].upper() + text[1:] + "?"


def _aux_parts(clause: Clause) -> tuple[str, list[str]]:
    """(the auxiliary that moves before the subject, what stays after it)."""
    aux = [t for t in clause.aux if t.dep_ in ("aux", "auxpass")]
    negs = [t for t in clause.aux if t.dep_ == "neg" or t.lower_ in ("not", "n't")]
    others = [t for t in clause.aux if t not in aux and t not in negs and not t.is_punct]
    head = clause.head
    if aux:
        first = aux[0]
        moved = first.lower_ if first.lower_ != "ca" else "can"
        if first.lower_ == "wo":
            moved = "will"
        rest = [t.text for t in aux[1:]]
    elif head.lemma_ == "be" or (head.lower_ in lang.function_words("be_forms")):
        moved = head.lower_
        rest = []
    else:
        # "He swam out", tagged as a present: an irregular past is a past.
        moved = "did" if is_past_form(head.text) else do_support(head.tag_)
        rest = []
    if negs and negs[0].lower_ in ("not", "n't"):
        if others and others[0].i < negs[0].i:  # "still did not": "did he still not love"
            return moved, [t.text for t in others] + ["not"] + rest
        moved = _CONTRACT.get(moved, moved + "n't") if moved != "am not" else moved
    never = [t.lower_ for t in negs if t.lower_ == "never"]  # "Why did Digby never go up?"
    return moved, [t.text for t in others] + never + rest


def _verb_after_aux(clause: Clause) -> str:
    head = clause.head
    if clause.aux and any(t.dep_ in ("aux", "auxpass") for t in clause.aux):
        return head.text
    if head.lemma_ == "be":
        return ""
    return lemma_of(head.text, head.lemma_)


def ask(
    clause: Clause,
    wh: str,
    gap: set[int] | None = None,
    subject: str | None = None,
    extra: str = "",
) -> str:
    """``wh`` + inverted clause, leaving out the tokens in ``gap``: "Why did the fox run?"."""
    subj = subject if subject is not None else clause.subject_text
    if not subj:
        return ""
    moved, rest = _aux_parts(clause)
    verb = _verb_after_aux(clause)
    tail = _asked_tail(clause, gap)
    if tail is None:
        return ""
    parts = [wh, moved, subj, *rest, verb, tail, extra]
    return finish(" ".join(p for p in parts if p))


def _asked_tail(clause: Clause, gap: set[int] | None) -> str | None:
    """The predicate as a question tells it, or None when no short cut of it reads whole."""
    tokens = before_joined_deed([t for t in clause.tail if t.i not in (gap or set())])
    # "ran down the slope as fast as his short legs could carry him": a long measure the
    # question need not carry ("jumped as high as he could" reads whole).
    measure = {
        x.i
        for t in tokens
        if t.dep_ == "advcl"
        and t.head.pos_ in ("ADV", "ADJ")
        and any(m.dep_ == "mark" and m.lower_ in ("as", "than") for m in t.children)
        and len(list(t.head.subtree)) > 6
        for x in t.head.subtree
    }
    tokens = [t for t in tokens if t.i not in measure]
    if gap and any(t.dep_ == "cc" and t.i - 1 in gap for t in tokens):
        # "jumped into the well and drank" without its place: "Where did she jump drank?"
        return None
    cut = short_tail(tokens)
    if tokens and not cut:
        return None
    return words(cut, clause=clause)


def ask_subject(
    clause: Clause, wh: str = "Who", gap: set[int] | None = None, extra: str = ""
) -> str:
    """The subject is the answer: "Who opened the gate?" (no inversion)."""
    verb_words = [t for t in clause.aux if t.dep_ in ("aux", "auxpass", "neg")] + [clause.head]
    verb = " ".join(t.lower_ if t.lower_ != "n't" else "not" for t in verb_words)
    tail = _asked_tail(clause, gap)
    if tail is None:
        return ""
    # A plural subject's verb agrees with "who" as singular: "Who was ...?"
    verb = {"were": "was", "are": "is", "have": "has"}.get(verb, verb)
    return finish(" ".join(p for p in (wh, verb, tail, extra) if p))


def ask_do(clause: Clause, wh: str = "What", extra: str = "") -> str:
    """The predicate is the answer: "What did the fox do (when ...)?"."""
    subj = clause.subject_text
    if not subj or any(t.lower_ in ("no", "nobody") for t in clause.subject):
        return ""  # "What would the no child do?": nobody to ask about
    aux = [t for t in clause.aux if t.dep_ == "aux"]
    if clause.passive:
        return finish(f"What happened to {subj} {extra}")
    if aux:
        first = aux[0].lower_
        if first in ("was", "were", "is", "are") and clause.head.tag_ == "VBG":
            return finish(f"{wh} {first} {subj} doing {extra}")
        if first in ("had", "has", "have"):
            return finish(f"{wh} {first} {subj} done {extra}")
        if aux[0].tag_ == "MD":
            modal = {"wo": "will", "ca": "can"}.get(first, first)
            return finish(f"{wh} {modal} {subj} do {extra}")
    if clause.head.lemma_ == "be":
        return finish(f"{wh} {clause.head.lower_} {subj} like {extra}") if False else ""
    tag = clause.head.tag_
    who = clause.subject_head
    if (
        tag == "VBP"
        and who is not None
        and (who.tag_ in ("NN", "NNP") or who.lower_ in ("he", "she", "it"))
    ):
        tag = "VBD"  # "Tam swam" tagged VBP: one subject never takes VBP, so it is past
    elif tag == "VBP" and is_past_form(clause.head.text):
        tag = "VBD"  # "the frogs leapt" tagged VBP: "leapt" is never a present
    return finish(f"{wh} {do_support(tag)} {subj} do {extra}")


def _by_form(clause: Clause) -> str:
    """The pronoun the subject's own form calls for when the resolver has none: the
    story's "he", "she" or "they" there; "they" for a plural; "it" for a thing the story
    makes a character ("What will the Kettle do after it …?"); "" for a person or an
    animal, whom "it" would belittle."""
    head = clause.subject_head
    if head is None and clause.head.dep_ == "conj":  # "looked down … and frowned"
        head = next((c for c in clause.head.head.children if c.dep_ == "nsubj"), None)
    if head is not None and head.lower_ in ("he", "she", "they"):
        return head.lower_  # the story's own word for them here
    if head is not None and head.tag_ in ("NNS", "NNPS"):
        return "they"
    if (
        head is None
        or head.tag_ not in ("NN", "NNP")
        # "the Kite" is a thing a fable writes with a capital (the tagger may call it a
        # person); "Ada" is a name.
        or not any(c.dep_ == "det" and c.lower_ == "the" for c in head.children)
        or head.lemma_.lower() in ANIMATE
        or head.lower_ in ANIMATE
    ):
        return ""
    return "it"


def happened(clause: Clause) -> str:
    """ "What happened when …", or "What happens when Hattie comes back?" in a story told
    in the present."""
    first = clause.aux[0] if clause.aux else clause.head
    present = first.tag_ in ("VBZ", "VBP") and not is_past_form(first.text)
    return "What happens" if present else "What happened"


def state(
    clause: Clause,
    skip: set[int] | None = None,
    tense_past: bool = False,
    resolver: Resolver | None = None,
    same_as: str = "",
    name_objects: bool = False,
    limit: int = REMINDER_TAIL,
) -> str:
    """The clause as a declarative phrase with its subject resolved: "the fox ran away".
    A moment restated in a question keeps ``REMINDER_TAIL`` words of its predicate; a key
    passes ``limit=ANSWER_TAIL``, and is cut only where a child can read it whole. Where
    the question already names the subject (``same_as``), a pronoun reads better ("What
    did the fox do after he ran away?"); ``name_objects`` names whom it is done to too
    ("after he waved to the little boy"), for a moment read far from its text."""
    if not clause.subject_text:
        return ""
    subject = clause.subject_text
    tail = words(
        short_tail([t for t in clause.tail if t.i not in (skip or set())], limit=limit),
        clause=clause if name_objects else None,
        resolver=clause.resolver,
    )
    if same_as and one_character(subject, same_as) and resolver is not None:
        subject = resolver.pronoun_for(same_as) or _by_form(clause) or ""
        if not subject and not clause.aux and clause.head.pos_ == "VERB":
            # "What did the old Owl do after sitting on a branch?", not "after the old Owl
            # sat": a character the story gives no "he" or "she" is not named twice.
            lemma = lemma_of(clause.head.text, clause.head.lemma_)
            return " ".join(p for p in (ing_of(lemma), tail) if p).rstrip(" ,;:.!?")
        subject = subject or clause.subject_text
    elif same_as and resolver is not None and subject.startswith(possessive(same_as) + " "):
        # "What did the heron do until her wings ached?", not "the heron's wings".
        own = POSSESSIVE_FORM.get(resolver.pronoun_for(same_as))
        if own:
            subject = own + subject[len(possessive(same_as)) :]
    # "only the Crab was left": the word that tells how few stays in the answer.
    first = min((t.i for t in clause.subject), default=clause.head.i)
    focus = [
        t
        for t in clause.front + clause.subject + clause.aux
        if t.lower_ in ("only", "even")
        and t.dep_ == "advmod"
        and t.i <= first
        and t.nbor().lower_ not in MARKERS  # "Only when he swept did he see": when, not who
    ]
    if focus and not subject.lower().startswith(focus[0].lower_):
        subject = f"{focus[0].lower_} {subject}"
    # "Only when he swept the floor did he put his hand to his neck": "he put", told.
    inverted = {t.i for t in clause.aux if t.lemma_ == "do" and t.i < first}
    aux = words([t for t in clause.aux if t.i not in inverted and t.lower_ not in WEIGHING])
    head = clause.head.text
    if inverted and not clause.negated:
        head = past_of(lemma_of(clause.head.text, clause.head.lemma_))
    # "watched them go": what was seen, told as the event it is ("when they went").
    # A present the story tells in ("she trots along the hedge") stays present: "What does
    # Hattie do after she trots along the hedge?".
    elif tense_past and not clause.aux and clause.head.tag_ == "VB":
        head = past_of(lemma_of(clause.head.text, clause.head.lemma_))
    elif not clause.aux and clause.head.tag_ == "VBG":
        # A participle phrase given a subject ("alighting upon the bank") is told as the
        # event it is: "when he alighted upon the bank", not "when he alighting".
        head = past_of(lemma_of(clause.head.text, clause.head.lemma_))
    if clause.head.lower_ == "'s":
        head = "is"
    text = " ".join(p for p in (subject, aux, head, tail) if p)
    return " ".join(text.split()).rstrip(" ,;:.!?")


__all__ = [
    "ANSWER_TAIL",
    "ask",
    "ask_subject",
    "ask_do",
    "state",
    "happened",
    "words",
    "finish",
    "short_tail",
]
