"""Declarative clauses → questions: wh-movement, subject–auxiliary inversion, do-support.

A :class:`Clause` is one verb with its subject, auxiliaries and the words after it,
taken from a spaCy parse of the section (so offsets stay in the section's text). The
``ask_*`` functions turn it into a question; ``state`` restates it as a clause ("the
fox ran away") for "What happened after ...?" questions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from qg_studio.generation.inflect import do_support, lemma_of, past_of
from qg_studio.generation.mentions import PRONOUNS, Resolver, mention_text

CLAUSE_DEPS = {"ROOT", "conj", "advcl", "ccomp", "parataxis"}
SUBJECT_DEPS = {"nsubj", "nsubjpass", "expl", "csubj"}
MARKERS = {"because", "when", "after", "before", "as", "since", "while", "until", "till",
           "if", "though", "although", "so", "that", "whenever", "once", "for", "unless",
           "where", "whereupon", "lest"}
_NEG = {"not": "n't", "n't": "n't", "never": None}
_CONTRACT = {"will": "won't", "can": "can't", "shall": "shan't", "am": "am not"}
# Openers that only link a clause to the one before it.
FILLERS = {"then", "so", "now", "and", "but", "thereupon", "however", "suddenly", "soon",
           "presently", "at", "once", "well", "oh", "ah", "yes", "no", "indeed", "still",
           "therefore", "thus", "meanwhile", "also", "again", "immediately", "finally"}


@dataclass
class Clause:
    head: object  # spaCy Token: the main verb (or copula)
    subject: list = field(default_factory=list)
    aux: list = field(default_factory=list)  # auxiliaries and negation before the head
    tail: list = field(default_factory=list)  # words after the head, in order
    front: list = field(default_factory=list)  # words before the subject ("One day, ...")
    marker: str = ""  # the connective that introduces it: because, when, so, ...
    subject_text: str = ""  # the subject, pronoun resolved
    inherited: bool = False  # subject taken from the clause this one is conjoined to
    resolver: object = None  # the section's pronoun resolver, for object pronouns

    @property
    def tokens(self) -> list:
        return sorted(self.front + self.subject + self.aux + [self.head] + self.tail,
                      key=lambda t: t.i) if not self.inherited else sorted(
            self.front + self.aux + [self.head] + self.tail, key=lambda t: t.i)

    @property
    def start_char(self) -> int:
        return min(t.idx for t in self.tokens)

    @property
    def end_char(self) -> int:
        last = max(self.tokens, key=lambda t: t.i)
        return last.idx + len(last.text)

    @property
    def passive(self) -> bool:
        return any(t.dep_ == "auxpass" for t in self.aux)

    @property
    def plural(self) -> bool:
        heads = [t for t in self.subject if t.dep_ in SUBJECT_DEPS]
        return bool(heads) and (heads[0].tag_ in ("NNS", "NNPS")
                                or heads[0].lower_ in ("they", "we", "you"))

    def has_subject(self) -> bool:
        return bool(self.subject_text)


def _subtree_minus(token, cut: set[int]) -> list:
    out = []
    stack = [token]
    while stack:
        t = stack.pop()
        if t.i in cut:
            continue
        out.append(t)
        stack.extend(t.children)
    return sorted(out, key=lambda t: t.i)


def _is_clause_head(t) -> bool:
    if t.dep_ not in CLAUSE_DEPS:
        return False
    if t.pos_ not in ("VERB", "AUX"):
        return False
    if t.dep_ == "conj" and t.head.pos_ not in ("VERB", "AUX"):
        return False
    if t.dep_ == "ccomp":
        return any(c.dep_ in SUBJECT_DEPS for c in t.children)
    return True


def clauses(sent, resolver: Resolver | None = None) -> list[Clause]:
    """The clauses of a sentence (a spaCy Span), in text order."""
    heads = [t for t in sent if _is_clause_head(t)]
    head_ids = {t.i for t in heads}
    out: list[Clause] = []
    for head in heads:
        out.append(build_clause(head, resolver, sent, head_ids, out))
    return out


def build_clause(head, resolver: Resolver | None, sent=None, head_ids: set[int] | None = None,
                 earlier: list[Clause] | None = None) -> Clause:
    """The clause headed by ``head``; subordinate clauses (``head_ids``) are left out."""
    sent = sent if sent is not None else head.sent
    if head_ids is None:
        head_ids = {t.i for t in sent if _is_clause_head(t)} - {head.i}
    cut = set()
    for child in head.children:
        # "thought that the queen was kind": what was thought stays in the clause,
        # or "Why did the girl think?" says nothing.
        if child.dep_ == "ccomp" and child.i > head.i:
            continue
        if child.i in head_ids or (child.dep_ == "cc" and child.i > head.i):
            cut.update(c.i for c in child.subtree)
    tokens = _subtree_minus(head, cut)
    clause = Clause(head=head, resolver=resolver)
    subj_heads = [c for c in head.children if c.dep_ in SUBJECT_DEPS]
    quoted = getattr(resolver, "quoted", set())
    if len(subj_heads) > 1 and head.i not in quoted:
        # '"Good-morning, Camel," said the Monkey' is parsed with two subjects: the one
        # in the quotes is called out, the speaker is the one outside.
        subj_heads = [c for c in subj_heads if c.i not in quoted] or subj_heads[-1:]
    subject_ids: set[int] = set()
    for s in subj_heads:
        subject_ids.update(c.i for c in s.subtree)
    for t in tokens:
        if t.i == head.i:
            continue
        if t.i in subject_ids:
            clause.subject.append(t)
        elif t.head.i == head.i and t.i < head.i and (
                t.dep_ == "mark" or (t.dep_ == "advmod" and t.tag_ == "WRB"
                                     and t.lower_ in MARKERS and head.dep_ != "ROOT")):
            clause.marker = t.lower_ if not clause.marker else clause.marker
        elif t.head.i == head.i and t.dep_ in ("aux", "auxpass", "neg") and t.i < head.i:
            clause.aux.append(t)
        elif t.i > head.i:
            clause.tail.append(t)
        elif subject_ids and t.i < min(subject_ids):
            clause.front.append(t)
        elif not subject_ids:
            clause.front.append(t)
        else:
            # An adverb between subject and verb ("he never came"): keep it with aux.
            clause.aux.append(t)
    if not clause.marker:
        for t in clause.front:
            if t.lower_ in ("so", "then") and t.dep_ in ("advmod", "cc", "mark"):
                clause.marker = t.lower_
                break
    if not clause.marker and head.dep_ == "conj":
        for c in head.head.children:
            if c.dep_ == "cc" and head.head.i < c.i < head.i:
                clause.marker = c.lower_
    clause.tail = _trim(clause.tail)
    if clause.subject:
        clause.subject_text = subject_phrase(clause.subject, resolver, sent)
    elif head.dep_ == "conj":
        # "He went home and slept": the conjoined verb shares the subject.
        for prior in reversed(earlier or []):
            if prior.head.i == head.head.i or prior.head.i < head.i:
                if prior.subject_text:
                    clause.subject_text = prior.subject_text
                    clause.subject = prior.subject
                    clause.inherited = True
                break
    elif head.dep_ in ("relcl", "acl") and resolver is not None:
        # "an old smith, working at his anvil": the noun is the subject.
        clause.subject_text = mention_text(list(head.head.subtree)[:0] or [head.head])
    return clause


def _trim(tokens: list) -> list:
    """Drop edge punctuation, quotes and dangling conjunctions from a word run."""
    while tokens and (tokens[-1].is_punct or tokens[-1].dep_ in ("cc", "mark")
                      or tokens[-1].lower_ in ("and", "but", "or", "then")):
        tokens = tokens[:-1]
    while tokens and (tokens[0].is_punct or tokens[0].dep_ == "cc"):
        tokens = tokens[1:]
    return tokens


def subject_phrase(tokens: list, resolver: Resolver | None, sent=None) -> str:
    """The subject as a question can say it: pronouns replaced by who they stand for."""
    tokens = _trim(list(tokens))
    # "On the way home Elsa passed ...": a stray lower-case word parsed onto a name.
    while len(tokens) > 1 and tokens[-1].pos_ == "PROPN" and tokens[0].text.islower() \
            and tokens[0].dep_ in ("compound", "npadvmod", "advmod") and tokens[0].pos_ != "DET":
        tokens = tokens[1:]
    if not tokens:
        return ""
    if len(tokens) == 1 and tokens[0].lower_ in PRONOUNS and resolver is not None:
        name = resolver.resolve(tokens[0])
        if name:
            return name
    if len(tokens) == 1 and tokens[0].lower_ in ("i", "we") and resolver is not None and sent is not None:
        who = resolver.speaker(sent)
        if who:
            return who
    parts = []
    for t in tokens:
        if t.dep_ == "poss" and t.lower_ in ("his", "her", "their") and resolver is not None:
            name = resolver.resolve(t)
            if name:
                parts.append(_possessive(name) + t.whitespace_)
                continue
        parts.append(t.text_with_ws)
    if tokens[0].lower_ in ("a", "an") and tokens[0].dep_ == "det":
        # In a question the character is already known: "the grey fox", not "a grey fox".
        parts[0] = "the "
    text = "".join(parts).strip()
    for q in ('"', "“", "”", "‘", "’"):
        text = text.replace(q, "")
    text = text.strip(" '")
    if not text:
        return ""
    if text.lower().startswith(tokens[0].lower_):
        return _lower_first(text, tokens[0])
    return text


UNUSABLE_SUBJECTS = {"you", "i", "we", "me", "us", "it", "this", "that", "what", "which",
                     "who", "one", "all", "none", "each", "these", "those", "yourself", "ye",
                     "thou", "there", "here", "something", "nothing", "anything", "everything",
                     "nobody", "no one", "everyone", "everybody", "someone", "somebody",
                     "anyone", "anybody", "the no one"}


def usable(clause: Clause) -> bool:
    """Whether a question built on this clause can stand without the story beside it."""
    subj = clause.subject_text
    if not subj:
        return False
    low = subj.lower()
    if low in UNUSABLE_SUBJECTS or low in PRONOUNS or len(subj.split()) > 8:
        return False
    heads = [t for t in clause.subject if t.dep_ in SUBJECT_DEPS]
    if heads and heads[0].pos_ not in ("NOUN", "PROPN", "PRON", "NUM", "ADJ"):
        return False
    words_low = set(low.replace(",", " ").split())
    if words_low & {"i", "you", "thou", "ye", "me", "my", "your", "thy", "we", "our", "and"} \
            and low not in ("you and i",):
        return False
    return True


def _possessive(name: str) -> str:
    return name + ("'" if name.endswith("s") else "'s")


def _lower_first(text: str, first) -> str:
    # Only function words lose their sentence-initial capital: "The king" → "the king",
    # but "Oonagh" (even when tagged a common noun) and "I" keep theirs.
    if first.pos_ in ("DET", "PRON", "ADP", "NUM", "ADJ") and first.text != "I" \
            and first.ent_type_ not in ("PERSON", "GPE", "LOC", "ORG", "NORP"):
        return text[:1].lower() + text[1:]
    return text


MAX_TAIL = 10


def short_tail(tokens: list, limit: int = MAX_TAIL) -> list:
    """A long predicate cut at its first comma, relative clause or aside: questions
    read best short, and experts keep only the words that pin the event down."""
    words_only = [t for t in tokens if not t.is_punct and not t.is_space]
    if len(words_only) <= limit:
        return tokens
    for n, t in enumerate(tokens):
        if n >= 3 and (t.text in (",", ";", ":", "--", "—") or t.dep_ in ("relcl", "appos")
                       and t.i > tokens[0].i + 2):
            cut = tokens[:n]
            if t.dep_ == "relcl":
                cut = [x for x in cut if not (x.head.i == t.i)]
            return cut
    return tokens[: limit + 2]


OBJECT_PRONOUNS = {"him", "her", "them"}


def words(tokens: list, skip: set[int] | None = None, clause: Clause | None = None) -> str:
    """The tokens as text; with ``clause``, an object pronoun that stands for someone
    other than the subject is named ("Who had woken the owl up?")."""
    skip = skip or set()
    kept = _trim([t for t in tokens if t.i not in skip and not t.is_space])
    resolver = clause.resolver if clause is not None else None
    parts = []
    for t in kept:
        text = t.text_with_ws
        if resolver is not None and t.lower_ in OBJECT_PRONOUNS and t.dep_ in (
                "dobj", "pobj", "dative", "iobj"):
            name = resolver.resolve(t)
            if name and name != clause.subject_text:
                text = name + t.whitespace_
        parts.append(text)
    text = "".join(parts).strip()
    text = text.replace(" ,", ",").replace(",,", ",").strip(" ,;:")
    for q in ('"', "“", "”", "‘", "’"):
        text = text.replace(q, "")
    while "  " in text:
        text = text.replace("  ", " ")
    return text.strip(" ,;:-")


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
    others = [t for t in clause.aux if t not in aux and t not in negs]
    head = clause.head
    if aux:
        first = aux[0]
        moved = first.lower_ if first.lower_ != "ca" else "can"
        if first.lower_ == "wo":
            moved = "will"
        rest = [t.text for t in aux[1:]]
    elif head.lemma_ == "be" or (head.lower_ in ("was", "were", "is", "are", "am")):
        moved = head.lower_
        rest = []
    else:
        moved = do_support(head.tag_)
        rest = []
    if negs and negs[0].lower_ in ("not", "n't"):
        moved = _CONTRACT.get(moved, moved + "n't") if moved != "am not" else moved
    return moved, [t.text for t in others] + rest


def _verb_after_aux(clause: Clause) -> str:
    head = clause.head
    if clause.aux and any(t.dep_ in ("aux", "auxpass") for t in clause.aux):
        return head.text
    if head.lemma_ == "be":
        return ""
    return lemma_of(head.text, head.lemma_)


def ask(clause: Clause, wh: str, gap: set[int] | None = None, subject: str | None = None,
        extra: str = "") -> str:
    """``wh`` + inverted clause, leaving out the tokens in ``gap``: "Why did the fox run?"."""
    subj = subject if subject is not None else clause.subject_text
    if not subj:
        return ""
    moved, rest = _aux_parts(clause)
    verb = _verb_after_aux(clause)
    tail = words(short_tail([t for t in clause.tail if t.i not in (gap or set())]), clause=clause)
    parts = [wh, moved, subj, *rest, verb, tail, extra]
    return finish(" ".join(p for p in parts if p))


def ask_subject(clause: Clause, wh: str = "Who", gap: set[int] | None = None,
                extra: str = "") -> str:
    """The subject is the answer: "Who won the match?" (no inversion)."""
    verb_words = [t for t in clause.aux if t.dep_ in ("aux", "auxpass", "neg")] + [clause.head]
    verb = " ".join(t.lower_ if t.lower_ != "n't" else "not" for t in verb_words)
    tail = words(short_tail([t for t in clause.tail if t.i not in (gap or set())]), clause=clause)
    # A plural subject's verb agrees with "who" as singular: "Who was ...?"
    verb = {"were": "was", "are": "is", "have": "has"}.get(verb, verb)
    return finish(" ".join(p for p in (wh, verb, tail, extra) if p))


def ask_do(clause: Clause, wh: str = "What", extra: str = "") -> str:
    """The predicate is the answer: "What did the fox do (when ...)?"."""
    subj = clause.subject_text
    if not subj:
        return ""
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
    return finish(f"{wh} {do_support(clause.head.tag_)} {subj} do {extra}")


def state(clause: Clause, skip: set[int] | None = None, tense_past: bool = False,
          resolver: Resolver | None = None, same_as: str = "") -> str:
    """The clause as a declarative phrase with its subject resolved: "the fox ran away".

    When the subject is the character the question already names (``same_as``), a
    pronoun reads better: "What did the fox do after he ran away?".
    """
    if not clause.subject_text:
        return ""
    subject = clause.subject_text
    if same_as and subject == same_as and resolver is not None:
        subject = resolver.pronoun_for(subject) or subject
    aux = words(clause.aux)
    head = clause.head.text
    if tense_past and not clause.aux and clause.head.tag_ in ("VBZ", "VBP"):
        head = past_of(lemma_of(clause.head.text, clause.head.lemma_))
    if clause.head.lower_ == "'s":
        head = "is"
    # A restated event is a reminder, not the news: keep it short.
    tail = words(short_tail([t for t in clause.tail if t.i not in (skip or set())], limit=7))
    text = " ".join(p for p in (subject, aux, head, tail) if p)
    return " ".join(text.split()).rstrip(" ,;:.!?")


__all__ = ["Clause", "clauses", "ask", "ask_subject", "ask_do", "state", "words", "finish",
           "subject_phrase", "mention_text"]
