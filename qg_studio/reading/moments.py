"""Moments a question counts from: the event told just before a clause, and clauses that
are no event to count from (one under way, a participle, a habit, what had been done long
before), and a sentence that moves the story on in time. Apart from the clause builder
(:mod:`clauses`), which cuts sentences into clauses."""

from __future__ import annotations

from qg_studio import lang
from qg_studio.reading.animacy import MINDFUL_VERBS
from qg_studio.reading.animacy import WEATHER
from qg_studio.reading.clauses import Clause
from qg_studio.reading.clauses import usable
from qg_studio.reading.dialogue import tells_speech
from qg_studio.reading.lexicon import BODY_PARTS
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import SPEECH_VERBS
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.noun_phrases import head_noun

# Verbs whose bare pronoun object says nothing: perceiving, telling, knowing, loving.
CONTRASTS = lang.function_words("contrast_openers")
PAIRED_DOINGS = frozenset(lang.function_words("paired_doings"))
POSTURES = lang.words("posture_verbs.txt")
POINTING_VERBS = MINDFUL_VERBS | SPEECH_VERBS | PERCEIVING | {"love", "like", "hate"}
ARRIVALS = frozenset(lang.function_words("arrival_verbs"))  # "did not come": awaited


def a_posture(before: Clause, clause: Clause) -> bool:
    """``before`` is how ``clause``'s own subject held their body ("knelt down")."""
    return before.head.lemma_ in POSTURES and before.subject_text == clause.subject_text


def event_before(
    analysis,
    clause_list: list[Clause],
    clause: Clause,
    setting_off: bool = False,
) -> Clause | None:
    """The event told just before ``clause``: an earlier clause of its sentence, else
    the last clause of the sentence before (not speech). ``setting_off``: the moment
    that could have set off a feeling or a reaction, which one's own posture did not."""
    partner = bare_partner(clause_list, clause)
    earlier = [
        c
        for c in clause_list
        if c.head.i < clause.head.i
        and c is not partner
        and c.head.i not in analysis.quoted
        and c.head.lemma_ not in SAYING_VERBS
        and not tells_speech(c, analysis.quoted)
        and c.head.i not in {t.i for t in clause.tokens}
        and not c.scene
    ]
    # "She bent down and gave a shout of joy": her posture is no moment that set it off
    earlier = [c for c in earlier if not (setting_off and a_posture(c, clause))]
    same = [c for c in earlier if usable(c)]
    if same:
        return same[-1]
    if earlier or done_long_before(clause.head):
        # The event just before is in this sentence but cannot be read ("When a fox came
        # sniffing, Pip rolled into a ball"): the sentence before would answer wrongly; so
        # it would for a deed told after it was done ("She heard a cry. Pip had chased a
        # dragonfly").
        return None
    index = next((i for i, cl in enumerate(analysis.sentence_clauses) if clause in cl), 0)
    for j in range(index - 1, max(index - 2, -1), -1):
        prior = [
            c
            for c in analysis.sentence_clauses[j]
            if usable(c)
            and c.head.i not in analysis.quoted
            and c.head.lemma_ not in SAYING_VERBS
            and not tells_speech(c, analysis.quoted)
            and c.head.pos_ == "VERB"
            and len(c.tail) <= 16
            and not c.scene
        ]
        # The sentence's own events, not what is embedded in them ("asked her how
        # she had found her way": the asking happened, the finding is reported).
        main = [c for c in prior if c.head.dep_ in ("ROOT", "conj")]
        # "Bubba did not stop swimming until he reached the stone": what happened is the
        # reaching; what did not happen is no moment.
        # One who did not come when awaited is the moment, though ("The sky grew dark, and
        # still his father did not come. Tobin began to cry").
        told = [c for c in main or prior if not c.negated or awaited(c)] or [
            c for c in prior if not c.negated
        ]
        if told or main or prior:
            found = (told or main or prior)[-1]
            # "but she had watched him ring the bell a hundred times": what had been
            # done long before is the background, not the moment just before; "she heard
            # this" names nothing a child can place.
            return None if done_long_before(found.head) or says_nothing(found) else found
    return None


def awaited(clause: Clause) -> bool:
    """ "still his father did not come", "she never came back": no arrival is an event."""
    return clause.negated and clause.head.lemma_ in ARRIVALS


def bare_partner(clause_list: list[Clause], clause: Clause) -> Clause | None:
    """ "He tossed and turned on his bed", "ran and ran": a verb alone joined by "and" to
    one it is said with is one doing with it, no event before it ("snorted and went back
    underground" is two)."""
    head = clause.head
    return next(
        (
            c
            for c in clause_list
            if f"{c.head.lemma_} {head.lemma_}" in PAIRED_DOINGS | {f"{head.lemma_} {head.lemma_}"}
            and head.dep_ == "conj"
            and c.head.i == head.head.i
            and c.head.dep_ in ("ROOT", "conj")  # not "watched them go and sighed"
            and c.subject_text == clause.subject_text
            and not c.tail
            and [t.lower_ for t in c.head.doc[c.head.i + 1 : head.i]] == ["and"]
        ),
        None,
    )


def done_by_the_feeler_to(cause: Clause, felt: Clause) -> bool:
    """ "Her uncle wrapped her in a blanket. He was cross with her": what one does to the
    one a feeling is about is no reason for it (the reason came before)."""
    resolve = felt.resolver.resolve if felt.resolver is not None else (lambda t: None)

    def who(t) -> str:
        return (resolve(t) or t.text).lower() if t.pos_ == "PRON" else t.text.lower()

    about = {
        who(o)
        for t in felt.tail
        if t.dep_ == "prep" and t.lower_ in ("with", "at", "about")
        for o in t.children
        if o.dep_ == "pobj"
    }
    done_to = {who(t) for t in cause.tail if t.dep_ in ("dobj", "dative") and t.head == cause.head}
    same = head_noun(cause.subject_text) == head_noun(felt.subject_text)  # "Greta's uncle"
    return same and bool(about & done_to)


def passed(clause: Clause) -> bool:
    """A state told as over at once ("He was cross with her for a moment, and then he
    laughed"): no state a deed after it follows from."""
    return "for a moment" in " ".join(t.lower_ for t in clause.tail)


def across_paragraphs(analysis, before: Clause, clause: Clause) -> bool:
    """Whether a paragraph break stands between two clauses: what the paragraph before
    ends on comes before, but is seldom why ("…noticed a maid. ¶ He ate his supper")."""
    return "\n" in analysis.text[before.end_char : clause.start_char]


def contrasted(before: Clause, clause: Clause) -> bool:
    """Whether ``clause`` opens a sentence that sets itself against what came before ("The
    hens gave him the best corn. But the old Goose only smiled"): no reaction to it."""
    first = next((t for t in clause.head.sent if not t.is_punct and not t.is_space), None)
    return (
        first is not None
        and first.lower_ in CONTRASTS
        and before.end_char <= clause.head.sent.start_char
    )


def done_long_before(verb) -> bool:
    """ "had watched", "had found": told now, done before the story's moment."""
    return verb.tag_ == "VBN" and any(c.lower_ in ("had", "'d") for c in verb.children)


def in_progress(clause: Clause) -> bool:
    """A doing told as under way ("was lying awake", "was sitting"): a scene, not an event."""
    head = clause.head
    # "was barking and growling": a verb joined to one under way is under way too.
    helpers = [*clause.aux, *(head.head.children if head.dep_ == "conj" else ())]
    return head.tag_ == "VBG" and any(t.lemma_ == "be" and t.dep_ == "aux" for t in helpers)


def the_scene(clause: Clause) -> bool:
    """What is so when something happens: a doing under way ("When the bell rang, the
    miller was lying awake") or one done before it ("He had not gone far when a glow came
    drifting toward him": the glow came)."""
    done_before = clause.head.tag_ == "VBN" and any(t.lower_ == "had" for t in clause.aux)
    return in_progress(clause) or done_before


def every_time(clause: Clause) -> bool:
    """ "Every evening she lit the lamp": what she always did, not what happened next."""
    return any(
        t.lower_ in ("every", "each") and t.head.lemma_.lower() in TIME_WORDS
        for t in clause.head.sent
    )


def undone(clause: Clause) -> bool:
    """ "before she could catch it, the stream carried it away": what one could not do
    before something else happened was not done, though it is a moment to tell time by."""
    return clause.marker == "before" and any(t.lower_ == "could" for t in clause.aux)


def no_event(clause: Clause) -> bool:
    """Neither an event to ask from nor an answer: a participle ("the children playing in
    the garden") or a habit ("they used to stop their games")."""
    if clause.head.tag_ in ("VBG", "VBN") and not clause.aux:
        return True
    return any(
        t.lemma_ == "use" and any(x.dep_ == "xcomp" for x in t.children)
        for t in [clause.head, *clause.tail]
    )


def shifts_time(sent) -> bool:
    """The sentence moves the story on in time: it opens with a time ("The next day the
    Sparrow …", "A week later", "When winter came") or tells one come ("Winter came
    early that year", "Night fell")."""
    # "When winter came, the Cricket …": the subject of the sentence, not of its "when".
    inside = {d.i for t in sent if t.dep_ == "advcl" for d in t.subtree}
    subject = next(
        (t for t in sent if t.dep_ in ("nsubj", "nsubjpass") and t.i not in inside), None
    )
    if subject is None:
        return False
    opening = [t for t in sent if t.i < subject.left_edge.i]
    # "When she was well again, Lucia went …", "When winter came, ice covered the river":
    # a new time told by a clause before the subject ("while" and "as" keep the time;
    # "whenever" tells a habit).
    if any(
        t.lower_ in ("when", "after", "once")
        and t.dep_ in ("advmod", "mark")
        and t.head.dep_ == "advcl"
        for t in opening
    ):
        return True
    if subject.lemma_.lower() in TIME_WORDS | WEATHER:
        return sent.root.lemma_ in ("come", "fall", "pass", "arrive", "go")
    # "All night she shivered", "every morning": how long or how often, no move.
    if any(t.lower_ in ("all", "every", "each", "whole") for t in opening):
        return False
    return any(t.lemma_.lower() in TIME_WORDS and t.pos_ in ("NOUN", "PROPN") for t in opening)


def says_nothing(clause: Clause) -> bool:
    """ "She heard this", "he told him", "they loved her": what was perceived, said or
    felt is only a word that points ("lit it", after the lamp, is a deed; "ran away" has
    no object); "came there (to play)": where was told before, what for is the why."""
    if [t.lower_ for t in clause.tail] in (["there"], ["here"]):
        return True
    return (
        clause.head.lemma_ in POINTING_VERBS
        and any(t.dep_ == "dobj" for t in clause.tail)
        and all(t.pos_ in ("PRON", "DET", "PUNCT", "ADV", "PART") for t in clause.tail)
    )


def mocks(token) -> bool:
    """ "The boy laughed at the fox" mocks him, and so does a laugh its laugher follows
    with words to another ('The baker laughed. "You will be old before you finish," he
    said'): it shows no happiness, and what happened just before is not why (a feeling told
    with it can be: "proud, and she laughed at them")."""
    if token.lemma_ != "laugh":
        return False
    if any(c.lower_ == "at" for c in token.children):
        return True
    doc, laugher = token.doc, next((c for c in token.children if c.dep_ == "nsubj"), None)
    if laugher is None or token.sent.end >= len(doc):
        return False
    after = doc[token.sent.end].sent
    tag = next((t for t in after if t.dep_ == "ROOT" and t.lemma_ in SAYING_VERBS), None)
    speaker = next((c for c in tag.children if c.dep_ == "nsubj"), None) if tag else None
    return (
        speaker is not None
        and (speaker.lower_ in ("he", "she") or speaker.lemma_ == laugher.lemma_)
        and any(t.lower_ in ("you", "your") for t in after)
    )


def depicts(t, head) -> bool:
    """ "He sat there shaking", "lay weeping": how one sat is how one felt."""
    return (
        t.head.i == head.i
        and t.i > head.i
        and t.tag_ == "VBG"
        and t.dep_ in ("advcl", "xcomp")
        and not any(c.dep_ in ("nsubj", "dobj") for c in t.children)
    )


def names_one(clause: Clause) -> bool:
    """ "The loudest singer was Dov, who could make the windows rattle", "The best runner
    was a girl named Zora": a description given a name; asked of its subject it reads "Who
    was Dov, who …?". So is one told more of ("The first guest was a baker, who …")."""
    return clause.head.lemma_ == "be" and any(
        c.dep_ == "attr"
        and (
            c.pos_ == "PROPN"
            or any(a.lemma_ in ("name", "call") or a.dep_ == "relcl" for a in c.children)
        )
        for c in clause.head.children
    )


def brought_on(clause: Clause) -> bool:
    """ "Behind her was the boy's father with a bundle of cloth": one set at a place, the
    place before the verb and the subject after it; asked of its subject it loses the
    place ("Who was with a bundle of cloth?")."""
    head, who = clause.head, clause.subject_head
    return (
        head.lemma_ == "be"
        and who is not None
        and who.i > head.i
        and any(c.dep_ == "prep" and c.i < head.i for c in head.children)
    )


def reacting_one(clause: Clause) -> str:
    """Who reacts: the subject, or whose body part it is ("Jonas's hands shook as he mixed
    the flour": Jonas's own deed is no cause of it)."""
    head = clause.subject_head
    owner = next((c for c in head.children if c.dep_ == "poss"), None) if head is not None else None
    if owner is not None and head.lemma_.lower() in BODY_PARTS:
        r = clause.resolver
        return (r is not None and (r.resolve(owner) or r.name_of(owner))) or owner.text
    return clause.subject_text


def purpose(clause: Clause) -> bool:
    """ "lit a fire so that her husband could find his way home": what one hoped for, which
    may never have happened; no result of the deed."""
    hoping = ("could", "would", "might", "can", "will")
    return clause.marker == "so" and any(a.lower_ in hoping for a in clause.aux)
