"""The clauses of a parsed sentence: one verb with its subject, auxiliaries and the words after it.

A :class:`Clause` is taken from a spaCy parse of the section (offsets stay in its text),
with its subject as a question can say it (pronouns resolved through the section's
:class:`~qg_studio.reading.mentions.Resolver`); :mod:`.grammar` makes it a question.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from qg_studio import lang
from qg_studio.reading.animacy import MINDFUL_VERBS
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.ellipsis import gapped
from qg_studio.reading.lexicon import DISCOURSE_ADVERBS
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import SPEECH_VERBS
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.lexicon import unreal
from qg_studio.reading.mentions import Resolver
from qg_studio.reading.noun_phrases import for_to
from qg_studio.reading.noun_phrases import mention_text
from qg_studio.reading.noun_phrases import no_clause_of_its_own
from qg_studio.reading.noun_phrases import watched
from qg_studio.reading.subjects import SUBJECT_DEPS
from qg_studio.reading.subjects import subject_phrase
from qg_studio.reading.subjects import trim
from qg_studio.text.parse import opens_concession

CLAUSE_DEPS = {"ROOT", "conj", "advcl", "ccomp", "parataxis"}
MARKERS = lang.words("clause_markers.txt")
INVERTED_VERBS = lang.words("inverted_verbs.txt")
WAYS = ("out", "in", "up", "down", "away", "off", "over")  # "out ran a mouthful of paint"


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
    scene: bool = False  # "in it lay the ring": who is where, no event to count from

    @property
    def tokens(self) -> list:
        return (
            sorted(
                self.front + self.subject + self.aux + [self.head] + self.tail, key=lambda t: t.i
            )
            if not self.inherited
            else sorted(self.front + self.aux + [self.head] + self.tail, key=lambda t: t.i)
        )

    @property
    def start_char(self) -> int:
        return min(t.idx for t in self.tokens)

    @property
    def end_char(self) -> int:
        last = max(self.tokens, key=lambda t: t.i)
        return last.idx + len(last.text)

    @property
    def negated(self) -> bool:
        if any(t.dep_ == "neg" or t.lower_ == "never" for t in self.aux + self.tail[:2]):
            return True
        # "could find nothing to eat" tells of what did not happen, as "not" does.
        return any(
            t.dep_ == "dobj" and t.head.i == self.head.i and t.lower_ in ("nothing", "nobody")
            for t in self.tail
        )

    @property
    def tail_words(self) -> int:
        """How many words follow the verb (punctuation not counted)."""
        return len([t for t in self.tail if not t.is_punct])

    @property
    def passive(self) -> bool:
        return any(t.dep_ == "auxpass" for t in self.aux)

    @property
    def plural(self) -> bool:
        heads = [t for t in self.subject if t.dep_ in SUBJECT_DEPS]
        return bool(heads) and (
            heads[0].tag_ in ("NNS", "NNPS") or heads[0].lower_ in ("they", "we", "you")
        )

    @property
    def subject_head(self):
        """The subject's head word (the noun or pronoun doing it), or None."""
        return next((t for t in self.subject if t.dep_ in ("nsubj", "nsubjpass")), None)

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
    if t.dep_ not in CLAUSE_DEPS or _from_to(t) or no_clause_of_its_own(t):
        return False
    if t.pos_ not in ("VERB", "AUX"):
        return False
    if t.dep_ == "conj" and (t.head.pos_ not in ("VERB", "AUX") or for_to(t.head)):
        return False  # "waited for her mother to come and fetch her": all one wait
    if t.dep_ == "ccomp":
        return any(c.dep_ in SUBJECT_DEPS for c in t.children)
    return not for_to(t)


def _from_to(t) -> bool:
    """ "went from flower to flower", the second "flower" parsed as a verb: a way, no clause."""
    doc = t.doc
    return (
        t.tag_ == "VB"
        and t.i >= 3
        and doc[t.i - 1].lower_ == "to"
        and doc[t.i - 2].lower_ == t.lower_
        and doc[t.i - 3].lower_ == "from"
    )


def clauses(sent, resolver: Resolver | None = None) -> list[Clause]:
    """The clauses of a sentence (a spaCy Span), in text order."""
    heads = [t for t in sent if _is_clause_head(t)]
    head_ids = {t.i for t in heads}
    out: list[Clause] = []
    for head in heads:
        out.append(build_clause(head, resolver, sent, head_ids, out))
    return out


def build_clause(
    head,
    resolver: Resolver | None,
    sent=None,
    head_ids: set[int] | None = None,
    earlier: list[Clause] | None = None,
) -> Clause:
    """The clause headed by ``head``; subordinate clauses (``head_ids``) are left out."""
    sent = sent if sent is not None else head.sent
    if head_ids is None:
        head_ids = {t.i for t in sent if _is_clause_head(t)} - {head.i}
    cut = set()
    for child in head.children:
        # "thought that the queen was kind": what was thought stays in the clause,
        # or "Why did the girl think?" says nothing.
        if child.dep_ == "ccomp" and child.i > head.i and not run_on(child):
            continue
        # "from flower to flower and carried …": the deed joined on the way is cut too.
        for c in [child, *(child.children if _from_to(child) else ())]:
            if c.i in head_ids or (c.dep_ == "cc" and _joins_a_clause(c, head_ids)):
                cut.update(x.i for x in c.subtree)
    tokens = _subtree_minus(head, cut)
    inverted = _inverted(head)
    clause = Clause(head=head, resolver=resolver, scene=bool(inverted))
    subj_heads = [c for c in head.children if c.dep_ in SUBJECT_DEPS] or inverted
    quoted = getattr(resolver, "quoted", set())
    if len(subj_heads) > 1 and head.i not in quoted:
        # '"Good-morning, Camel," said the Monkey' is parsed with two subjects: the one
        # in the quotes is called out, the speaker is the one outside.
        subj_heads = [c for c in subj_heads if c.i not in quoted] or subj_heads[-1:]
    if len(subj_heads) > 1:
        # "One wet morning, after a night of rain, the lane was deep in mud": the time
        # parsed as a second subject is when, not who.
        subj_heads = [c for c in subj_heads if c.lemma_.lower() not in TIME_WORDS] or subj_heads
    subject_ids: set[int] = set()
    for s in subj_heads:
        subject_ids.update(c.i for c in s.subtree)
    for t in tokens:
        if t.i == head.i:
            continue
        if t.i in subject_ids:
            clause.subject.append(t)
        elif (
            t.head.i == head.i
            and t.i < head.i
            and (
                # "every night after that a lamb went missing": "after that" is "then",
                # no clause marker.
                (t.dep_ == "mark" and not any(c.dep_ == "pobj" for c in t.children))
                or (
                    t.dep_ == "advmod"
                    and t.tag_ == "WRB"
                    and t.lower_ in MARKERS
                    and head.dep_ != "ROOT"
                )
            )
        ):
            clause.marker = t.lower_ if not clause.marker else clause.marker
        elif t.head.i == head.i and t.dep_ in ("aux", "auxpass", "neg") and t.i < head.i:
            clause.aux.append(t)
        elif t.i > head.i:
            clause.tail.append(t)
        elif subject_ids and t.i < min(subject_ids):
            clause.front.append(t)
        elif not subject_ids:
            clause.front.append(t)
        elif t.lower_ not in DISCOURSE_ADVERBS:
            # An adverb between subject and verb ("he never came"): keep it with aux. A
            # linking one ("the goat, however, climbed") means nothing in a question.
            clause.aux.append(t)
    if clause.marker == "as" and any(
        t.lower_ in ("if", "though") and t.dep_ == "mark" and t.head.i == head.i
        for t in head.children
    ):
        # "The cat acted as if she did not hear": a manner, neither a reason nor a time.
        clause.marker = "as if"
    if not clause.marker:
        for t in clause.front:
            if t.lower_ in ("so", "then") and t.dep_ in ("advmod", "cc", "mark"):
                clause.marker = t.lower_
                break
    if not clause.marker and head.dep_ == "conj":
        for c in head.head.children:
            if c.dep_ == "cc" and head.head.i < c.i < head.i:
                clause.marker = c.lower_
    clause.tail = trim(clause.tail)
    if clause.subject and clause.front and clause.front[-1].lower_ == "at":
        # "At last green shoots pushed up", parsed as "last green shoots".
        while clause.subject and clause.subject[0].lower_ in ("last", "first", "once"):
            clause.front.append(clause.subject.pop(0))
    if clause.subject:
        clause.subject_text = subject_phrase(clause.subject, resolver, sent)
    elif head.dep_ == "conj" and _joined(head):
        # "He went home and slept": the conjoined verb shares the subject.
        first = head.head
        # "The Goose watched them go and sighed", "ran as fast as his legs could carry him
        # and grabbed the string": a past deed the parse joins to a bare verb (what was
        # watched, what legs could do) is the deed of the verb above it.
        owner = first.head if head.tag_ == "VBD" and first.tag_ == "VB" else None
        while owner is not None and owner.pos_ not in ("VERB", "AUX") and owner.head.i != owner.i:
            owner = owner.head
        # "Lin watched her go and felt glad": the verb joined to, not a clause inside it.
        joined_to = [c for c in earlier or [] if c.head.i == first.i]
        for prior in (joined_to if owner is None else []) or list(reversed(earlier or [])):
            if owner is not None and prior.head.i != owner.i:
                continue
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


def _inverted(head) -> list:
    """ "Under the bridge lived a troll", "and in it lay the ring": after a fronted place
    the one who is there comes after the verb, parsed as its object."""
    fronted = any(
        (c.dep_ == "prep" or (c.dep_ in ("advmod", "prt") and c.lower_ in WAYS)) and c.i < head.i
        for c in head.children
    )
    if head.lemma_.lower() not in INVERTED_VERBS or not fronted:
        return []
    return [c for c in head.children if c.dep_ == "dobj" and c.i > head.i][:1]


def run_on(ccomp) -> bool:
    """ "when he saw her he hissed at her", with no comma, parsed as what he saw: a
    perceiving verb that has its object takes no clause after it, which is the sentence's
    own next clause."""
    head = ccomp.head
    return (
        head.lemma_.lower() in PERCEIVING
        and any(c.dep_ == "dobj" and c.i < ccomp.i for c in head.children)
        and not any(c.dep_ == "mark" for c in ccomp.children)
    )


def time_of(head):
    """The verb a "when" or "after" clause headed by ``head`` tells the time of: the one
    it hangs from, unless joined to the clause before ("…, and when he saw her he hissed"
    is the time of the hissing, parsed as what he saw, not of what went before)."""
    if head.dep_ == "conj":
        return next((c for c in head.children if c.dep_ == "ccomp" and run_on(c)), None)
    return head.head


def _joins_a_clause(cc, head_ids: set[int]) -> bool:
    """An "and" that joins another clause goes with it; one before a word that is not a
    clause ("looked at the string and frowned", "frowned" tagged an adjective) stays in
    the predicate, or it reads "looked at the string frowned". It joins the conjunct
    nearest after it: in "scrambled this way and that, and his heart pounded" the first
    "and" joins "that", not the clause after it."""
    first = cc.head
    nearest = min(
        (c for c in first.children if c.dep_ == "conj" and c.i > cc.i),
        key=lambda c: c.i,
        default=None,
    )
    return cc.i > first.i and nearest is not None and nearest.i in head_ids


def _joined(verb) -> bool:
    """A conjoined verb the text joins to its first as "and" or a comma does: "He went
    home and slept", "got up, dressed". A parse may make a verb far off in another
    clause a conjunct ("She woke the cat, who woke the dog, who barked until the baker
    himself came running"): with nothing joining them, it shares no subject."""
    first = verb.head
    if any(c.dep_ == "cc" and first.i < c.i < verb.i for c in first.children):
        return True
    before = verb.doc[verb.left_edge.i - 1] if verb.left_edge.i > 0 else None
    return before is not None and (before.is_punct or before.dep_ == "cc")


UNUSABLE_SUBJECTS = lang.words("unusable_subjects.txt")
HYPOTHETICAL = ("might", "may", "mightst")
QUANTIFIERS = ("all", "both", "each")
EMBEDDED_ASKING = ("whether", "if", "where", "how", "why")  # a question inside a clause
NOBODY = lang.function_words("negative_quantifiers")
STAND_IN_OBJECTS = ("so", "same", "it", "that", "this", "likewise")


def usable(clause: Clause) -> bool:
    """Whether a question built on this clause can stand without the story beside it."""
    subj = clause.subject_text
    if not subj:
        return False
    low = subj.lower()
    if low in UNUSABLE_SUBJECTS or low in PRONOUNS or len(subj.split()) > 8:
        return False
    first, *rest = low.split()
    if first in ("his", "her", "its", "their") and rest:
        return False  # "Where were their crews asleep?": whose, the story did not tell
    if first in PRONOUNS and all(w in QUANTIFIERS or w in PRONOUNS for w in rest):
        # "they both", "they all": a pronoun the story did not resolve; "he she": two
        # subjects the parser ran together.
        return False
    heads = [t for t in clause.subject if t.dep_ in SUBJECT_DEPS]
    if heads and heads[0].pos_ not in ("NOUN", "PROPN", "PRON", "NUM", "ADJ"):
        return False
    if heads and (heads[0].lower_ in NOBODY or any(c.lower_ in NOBODY for c in heads[0].children)):
        return False  # "no frog came near her again": no one did, and no one can be asked
    if any(t.lower_ == "to" for t in clause.aux):
        return False  # "believed the pedlar to have found a key": no event was told
    if any(t.lower_ in HYPOTHETICAL for t in clause.aux):
        return False  # "so that they might see her every day": meant, not told
    aux = [t.lower_ for t in clause.aux]
    if "have" in aux and {"would", "'d", "could", "should"} & set(aux[: aux.index("have")]):
        return False  # "she'd have fallen, but the owl caught her": she did not
    head = clause.head
    if head.dep_ in ("ccomp", "xcomp") and unreal(head.head):
        return False  # "wishing she had taken the Minnow": she had not
    if _foretold(clause):
        return False  # "told him he would only tear the paper": said, not done
    if head.dep_ == "ccomp" and any(c.lower_ in EMBEDDED_ASKING for c in head.children):
        return False  # "to know whether they were lazy", "showed where it reached": not told
    if head.dep_ == "ccomp" and head.head.lemma_ in SPEECH_VERBS:
        return False  # "told his mother that a terrible beast lived there": said, not told as so
    if watched(head) and (head.tag_ == "VBN" or head.dep_ == "conj"):
        return False  # "found the little crab wedged under a stone": how, not what she did
    if head.dep_ == "advcl" and opens_concession(head.subtree):
        return False  # "however much water she gave them": what did not help, no deed
    if clause.marker in ("as", "than") and head.head.pos_ in ("ADV", "ADJ"):
        return False  # "as fast as his legs could carry him": a measure, not an event
    if clause.marker in ("as", "than") and _likened(head):
        return False  # "she was stubborn as he was strong": a likeness, not why nor when
    words_low = set(low.replace(",", " ").split())
    if words_low & set(lang.function_words("speakers")) and low not in ("you and i",):
        return False
    return not gapped(head) and not _described(clause) and not _stands_in(head)


def _likened(head) -> bool:
    mark = next((c for c in head.children if c.dep_ == "mark"), None)
    return mark is not None and mark.i > 0 and mark.nbor(-1).pos_ == "ADJ"


def _foretold(clause: Clause) -> bool:
    """What someone said or thought would, could or should happen: a clause with such a
    modal reported by a verb of saying or thinking (or an adjective: "sure", "afraid"), or
    joined to one that is."""
    if not any(t.lower_ in ("would", "could", "should", "might") for t in clause.aux):
        return False
    verb = clause.head
    while verb.dep_ == "conj" and verb.head.i != verb.i:
        verb = verb.head
    # "She was sure he would send her home": an adjective reports it as well, but not one
    # of degree ("so proud of her neck that she would not speak": she did not).
    by_adjective = verb.head.pos_ == "ADJ" and not any(
        c.lower_ in ("so", "such", "too") for c in verb.head.children
    )
    return verb.dep_ == "ccomp" and (
        verb.head.lemma_ in MINDFUL_VERBS | SPEECH_VERBS or by_adjective
    )


def _stands_in(verb) -> bool:
    """ "The Goat did as he said", "she did so", "he did the same": a "do" that stands
    in for a deed told elsewhere tells none ("What did the Fox do after the Goat did?")."""
    if verb.lemma_ != "do" or verb.pos_ == "AUX" and verb.dep_ == "aux":
        return False
    done = [c for c in verb.children if c.dep_ in ("dobj", "xcomp", "ccomp", "attr")]
    return all(c.lower_ in STAND_IN_OBJECTS for c in done)


def _described(clause: Clause) -> bool:
    """ "escaped into a bush, scratched and trembling": a bare participle after a comma,
    paired with an -ing word, tells how the subject was, not a deed ("he scratched");
    "ran, jumped and hid" are three deeds."""
    return not clause.tail and _description(clause.head)


def _description(verb) -> bool:
    if verb.dep_ != "conj":
        return False
    if verb.tag_ == "VBG" and not any(c.dep_ in ("dobj", "prep") for c in verb.children):
        return _description(verb.head)  # the "trembling" of "scratched and trembling"
    if verb.tag_ not in ("VBD", "VBN") or any(c.dep_ in ("dobj", "prep") for c in verb.children):
        return False
    linked = [t for t in verb.head.children if verb.head.i < t.i < verb.i and t.dep_ == "cc"]
    paired = [c for c in verb.children if c.dep_ == "conj" and c.tag_ in ("VBG", "JJ")]
    return not linked and bool(paired)
