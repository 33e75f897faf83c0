"""How a story closes: its last sentence of narration and, for a fable, its moral.

"How does the story end?" is answered by what last happened, not by the moral, the
narrator's aside or a line of speech; "What lesson does the story teach?" by a closing
general truth ("Those who laugh at others may one day need their help.").
"""

from __future__ import annotations

import re

from qg_studio import lang
from qg_studio.generation.items import found_item
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.binding import thing_it
from qg_studio.reading.grammar import OBJECT_PRONOUNS
from qg_studio.reading.lexicon import DISCOURSE_ADVERBS
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import TIME_WORDS
from qg_studio.reading.moments import done_long_before
from qg_studio.reading.noun_phrases import SUBJECT_ROLES
from qg_studio.reading.subjects import possessive
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.text.parse import gap

_SINGLE_QUOTE = re.compile(r"[,;.!?]'|(?:^|\s)'[A-Za-z]")  # 'Keep it well,' cried the farmer
NARRATOR = ("i", "we")  # outside quotes, the one telling the story
# A printed moral is the fable's own word on its lesson, the one question every fable set
# wants: it outranks the ending (0.8), which a set about the whole story may take instead.
LESSON_CONFIDENCE = 0.9
# A fable that closes on three lines of speech has no narrated ending: the narration
# before them tells the middle, and keying "How does the story end?" with it is wrong.
ENDING_REACH = 3
GESTURES = lang.words("gesture_verbs.txt")
OWNERS = lang.function_words("possessives")  # "Her grandmother laughed": whose, named
LINKS = tuple(tuple(p.split()) for p in lang.words("closing_links.txt")) + tuple(
    (w,) for w in DISCOURSE_ADVERBS
)
_HABIT = lang.function_words("habit_times")  # "Sometimes, on moonlit nights, …" stays
_MORAL = re.compile(r"^\s*(the\s+)?moral\s*[:.-]\s*", re.I)
# "A small kindness, kept up faithfully, may save a life": an aside between commas,
# which the parser may take for the line's verb.
_ASIDE = re.compile(r",[^,]+,\s")


ANYONE = lang.function_words("anyone_words")
GENERIC_SUBJECTS = lang.function_words("generic_subjects")


def moral_line(section: Section) -> tuple[int, int] | None:
    """The span of a fable's closing moral: a last paragraph of one short sentence that
    states a general truth ("Those who laugh at others may one day need their help."),
    or one that starts "Moral:"."""
    text = section.text.rstrip()
    start = text.rfind("\n")
    last = text[start + 1 :].strip()
    if not last or start < 0:
        return None
    begin = text.index(last, start)
    if _MORAL.match(last):
        return begin, begin + len(last)
    plain = _ASIDE.sub(" ", last)
    if _a_lesson(last, text[:begin]) or (plain != last and _a_lesson(plain, text[:begin])):
        return begin, begin + len(last)
    return None


def _a_lesson(last: str, before: str) -> bool:
    """Whether ``last`` states a general truth: advice, a truth told of anyone or of no
    one, in the present (``before``: the story's text, whose names point at its own)."""
    words = last.split()
    if (
        not 3 <= len(words) <= 25
        or last.count(".") > 1
        or last.endswith("?")
        or any(q in last for q in '"“”')
    ):
        return False
    from qg_studio.reading.analysis import analyse

    doc = analyse(last).doc
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if not roots:
        return False
    root = roots[0]
    if _advice(root) or _impersonal(root) or _about_anyone(doc) or _timeless(doc, before):
        return True
    # "A kind deed is remembered ...": a passive's "is" says the present as well.
    aux = [c for c in root.children if c.dep_ in ("aux", "auxpass")]
    present = root.tag_ in ("VBZ", "VBP") or any(
        a.tag_ == "MD" or a.tag_ in ("VBZ", "VBP") for a in aux
    )
    # "Work done slowly and well lasts longer …": the parser may make the participle that
    # describes the subject the root; the line's own verb, hung on it, tells its tense.
    if root.tag_ == "VBN" and any(c.tag_ in ("VBZ", "VBP") for c in root.children):
        present = True
    subject = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass", "csubj")]
    if root.pos_ == "NOUN":
        # "A climb that frightens many is finished by …": the parser may hang the whole
        # line from its first noun; the noun is then the subject, and the line's own tenses
        # say whether it is told in the present.
        tenses = {t.tag_ for t in doc}
        present, subject = bool(tenses & {"VBZ", "VBP", "MD"}) and "VBD" not in tenses, [root]
    # "Pride closes the ears": a bare abstract noun, with no article, states a truth too.
    # A sentence's first word is capitalised, so the tagger may take "Gratitude" for a
    # name; a name the story never used before is no character of it.
    noun_subject = bool(subject) and (
        (subject[0].pos_ == "NOUN" and subject[0].tag_ in ("NN", "NNS"))
        or (
            subject[0].tag_ in ("NNP", "NNPS")
            and subject[0].i == 0
            and subject[0].text not in before
        )
    )
    bare = noun_subject and not any(c.dep_ in ("det", "poss") for c in subject[0].children)
    generic = bool(subject) and (
        subject[0].dep_ == "csubj"  # "Being slow is no shame"
        or subject[0].tag_ in ("NNS",)
        or subject[0].pos_ == "ADJ"  # "Even the smallest can do …", "The wise listen"
        or subject[0].lower_ in GENERIC_SUBJECTS
        or any(c.lower_ in lang.function_words("generic_determiners") for c in subject[0].subtree)
        or bare
        or _defined_by_you(subject[0], before)
    )
    return present and generic


def _defined_by_you(noun, before: str) -> bool:
    """ "The work you cannot see is …", "The help you give …": a thing defined by what
    "you" do with it is anyone's (outside quotes, the narrator's "you" is the reader),
    unless the story told of it and the line points back at the story's past ("The well
    you see in the square today is the one they filled" is an aside; "The bread you share
    comes back to you" a lesson though the story told of bread)."""
    done = [
        c
        for c in noun.children
        if c.dep_ == "relcl" and any(s.dep_ == "nsubj" and s.lower_ == "you" for s in c.children)
    ]
    told = re.search(rf"\b{re.escape(noun.lower_)}\b", before.lower())
    # "you see" with no "not" points at a thing of the story; "you cannot see" does not
    seen = any(
        c.lemma_ in PERCEIVING and not any(n.dep_ == "neg" for n in c.children) for c in done
    )
    if told and (seen or any(t.tag_ in ("VBD", "VBN") for t in noun.doc)):
        return False
    return bool(done)


def _timeless(doc, before: str) -> bool:
    """ "Sharing costs little and gains a friend", however the parser reads it: told in the
    present, nothing in the past, and no one or nothing of the story pointed at ("the",
    "his", "he", a name the story used)."""
    pointing = any(
        t.lower_ in PRONOUNS
        or t.lower_ in OWNERS
        or t.lower_ == "the"
        or (t.pos_ == "PROPN" and t.text in before)
        for t in doc
    )
    tenses = {t.tag_ for t in doc}
    return bool(tenses & {"VBZ", "VBP"}) and not tenses & {"VBD", "VBN"} and not pointing


def _about_anyone(doc) -> bool:
    """ "Knowledge kept to oneself helps no one for long", "Those who have travelled the
    road know where it bends": said of anyone (a word for anyone, or a line that opens on
    "those who", "one who" …), in the present, whatever the parser made of the rest (it
    takes "know" after "the road" for a noun)."""
    present = any(t.tag_ in ("VBZ", "VBP", "MD") for t in doc)
    if any(t.lower_ in ANYONE for t in doc):
        return present
    # ("Those who stayed behind waited" is a story's own people, in the past.)
    opens_on_anyone = (
        len(doc) > 2 and doc[0].lower_ in GENERIC_SUBJECTS and doc[1].lower_ in ("who", "that")
    )
    return opens_on_anyone and present and not any(t.tag_ == "VBD" for t in doc)


def _advice(root) -> bool:
    """Advice given to anyone: an imperative ("Look before you leap.", "Never trust a
    flatterer.", "Do not count your chickens …") or a verbless infinitive ("Better to be
    safe than sorry.")."""
    if any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children):
        return False
    if root.tag_ in ("JJR", "JJ"):  # the parser may make "Better" the head
        return any(c.dep_ == "xcomp" and c.tag_ == "VB" for c in root.children)
    return root.tag_ == "VB"


def _impersonal(root) -> bool:
    """A truth told of no one, in the present: "It is wise to prepare today …", "In unity
    there is strength." ("It is said that …" reports; it tells no truth.)"""
    if root.tag_ not in ("VBZ", "VBP") or root.lemma_ != "be":
        return False
    kids = {c.dep_: c for c in root.children}
    if "expl" in kids and kids["expl"].lower_ == "there":
        # "There is still a bell in the tower": the story's own things are no truth.
        return not any(t.lower_ == "the" for t in root.doc)
    subject = kids.get("nsubj")
    if subject is None or subject.lower_ != "it" or "acomp" not in kids:
        return False
    # "It is wise to prepare …": the infinitive hangs from "is" or from "wise".
    heads = (root, kids["acomp"])
    return any(c.dep_ == "xcomp" and c.tag_ == "VB" for h in heads for c in h.children)


def _a_gesture(verb) -> bool:
    """ "looked back over the edge", not "turned and ran off into the wood"."""
    return verb.lemma_ in GESTURES and not any(
        c.dep_ == "conj" and c.pos_ == "VERB" and c.lemma_ not in GESTURES for c in verb.children
    )


def _closing_speech(analysis: Analysis, moral) -> int:
    """How many of the story's last sentences (before its moral) are speech."""
    count = 0
    for sent in reversed(analysis.sentences):
        if moral and sent.start_char >= moral[0]:
            continue
        if not any(t.i in analysis.quoted for t in sent):
            break
        count += 1
    return count


def ending(section: Section, analysis: Analysis, moral, ids) -> QAItem | None:
    """How the story ends: its last sentence of narration (not speech, not the moral, not
    the narrator's aside), among the story's last ``ENDING_REACH`` sentences."""
    passed = 0
    closing = _closing_speech(analysis, moral)
    for index in range(len(analysis.sentences) - 1, -1, -1):
        sent = analysis.sentences[index]
        if moral and sent.start_char >= moral[0]:
            continue
        passed += 1
        if passed > ENDING_REACH:
            return None
        # "For nobody doubts a boy who …", "I am sure the widow was proud of him":
        # the narrator's aside, not what happened.
        words = [t for t in sent if not t.is_punct and not t.is_space]
        if words and (
            words[0].lower_ == "for"
            or any(t.lower_ in NARRATOR for t in words if t.dep_ == "nsubj")
        ):
            continue
        # "'Keep it well,' cried the farmer": speech, whatever quotes it is set in.
        if _SINGLE_QUOTE.search(sent.text):
            continue
        if any(t.i in analysis.quoted for t in sent) or '"' in sent.text or "“" in sent.text:
            continue
        if len(sent.text.split()) > 30 or not any(t.pos_ in ("VERB", "AUX") for t in sent):
            continue
        # "It never ran dry, even in the hottest summers": a last word about a thing the
        # story's "it" can only guess at (the spring, the stone wall round it); the ending
        # is what its characters did last.
        # ("It was cold outside, and soon it began to snow" guesses at no thing.)
        if any(
            t.dep_ == "nsubj"
            and t.lower_ == "it"
            and not analysis.resolver.resolve(t)
            and thing_it(t, analysis.resolver.quoted)
            for t in sent.root.children
        ):
            continue
        if (
            closing
            and passed == closing + 1
            and (_a_gesture(sent.root) or done_long_before(sent.root))
        ):
            # The gesture the closing words are said with, or who says them, watching
            # ("An old Badger had watched it all from his burrow").
            continue
        return found_item(
            "How does the story end?",
            _told(sent, analysis),
            Element.OUTCOME,
            True,
            section,
            sent.start_char,
            sent.end_char,
            0.8,
            ids,
            rule="story.ending",
        )
    return None


def _told(sent, analysis: Analysis) -> str:
    """The sentence as the story tells it (a clause rebuilt from the parse loses what
    reported speech and "whenever" clauses say), each one a pronoun stands for named
    where the sentence has not named them yet ("… and he was fat and cheerful when the
    Heron arrived", "… and told the fishermen who had really kept the lighthouse")."""
    words = []
    tokens = [t for t in sent if not t.is_space]
    for t in _without_links(tokens) or tokens:
        text = t.text
        subject = t.dep_ in SUBJECT_ROLES
        # "Her grandmother laughed", "Ines took her hand": whose, named.
        owner = t.dep_ == "poss" and t.lower_ in OWNERS
        # "told them who had kept the light": the one it was done to, named
        done_to = t.lower_ in OBJECT_PRONOUNS and t.dep_ in ("dobj", "dative", "pobj")
        # "all four of them": a part of those just named, said as it is
        done_to = done_to and not (t.head.lower_ == "of" and t.head.head.pos_ in ("NUM", "DET"))
        if (subject and (t.lower_ in PRONOUNS or t.lower_ == "it")) or owner or done_to:
            name = analysis.resolver.resolve(t) or thing_it(t, analysis.resolver.quoted)
            before = "".join(words).lower()
            if (
                name
                and name.lower() not in before
                and name.lower().removeprefix("the ") not in before
            ):
                text = possessive(name) if owner else name
        words.append(text + gap(t))
    told = "".join(words).strip().rstrip(".!").rstrip(" ,")
    return told[:1].upper() + told[1:]


def _without_links(tokens: list) -> list:
    """The sentence without what links it to the one before: a word such as "Then" or
    "Instead", a fronted time ("The next morning,") and a closing "after that"."""
    while True:
        link = _link_at(tokens, 0)
        if link:
            tokens = tokens[link:]
        elif (time := _fronted_time(tokens)) is not None:
            tokens = tokens[time:]
        else:
            break
        while tokens and tokens[0].text == ",":
            tokens = tokens[1:]
    end = len(tokens)
    while end and tokens[end - 1].is_punct:
        end -= 1
    # Closing, only a link of a few words: "… home soon" or "… it instead" say more.
    for link in (k for k in LINKS if len(k) > 1 or k == ("afterwards",)):
        if end > len(link) and _link_at(tokens, end - len(link)) == len(link):
            return tokens[: end - len(link)] + tokens[end:]
    return tokens


def _link_at(tokens: list, at: int) -> int:
    """The length of the link that starts at ``at``, or 0."""
    said = [t.lower_ for t in tokens[at : at + 3]]
    found = next((len(link) for link in LINKS if tuple(said[: len(link)]) == link), 0)
    # "After that night": a time the link's last word points to, not the link "after that"
    return 0 if found and tokens[at + found - 1].dep_ == "det" else found


def _fronted_time(tokens: list) -> int | None:
    """Past a one-off time that opens the sentence ("The next morning,", "That evening he"),
    or None."""
    end = next((i for i, t in enumerate(tokens[:7]) if t.text == ","), None)
    if end is None:
        # "The next morning he crowed again": the phrase the verb's noun of time heads.
        when = next((t for t in tokens[:4] if t.dep_ == "npadvmod"), None)
        if when is None and tokens[0].dep_ == "prep":
            when = tokens[0]  # "After that night the bell was quiet"
        if when is None or when.left_edge.i != tokens[0].i:
            return None
        end = when.right_edge.i - tokens[0].i + 1
    head = tokens[:end]
    if (
        end >= len(tokens) - 1
        or any(t.pos_ in ("VERB", "AUX", "PROPN", "PRON") for t in head)
        or any(t.lower_ in _HABIT for t in head)
        or not any(t.lower_ in TIME_WORDS for t in head)
    ):
        return None
    return end


def lesson(section: Section, moral, ids) -> QAItem | None:
    if not moral:
        return None
    start, end = moral
    answer = _MORAL.sub("", section.text[start:end])
    return found_item(
        "What lesson does the story teach?",
        answer,
        Element.OUTCOME,
        False,
        section,
        start,
        end,
        LESSON_CONFIDENCE,
        ids,
        rule="story.lesson",
    )
