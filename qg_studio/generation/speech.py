"""What a character says: a fable told mostly in speech is told by its speeches.

"What did the Lamp say to the candles? – Look at me. I am brighter than the sun" asks what
a line of speech tells, keyed with the speaker's own words (a call such as "Please, good
Owl," left out). The speaker is the subject of the verb the quotation hangs from, whatever
the verb ("complained", "begged", "boasted"), outside the quotation marks; a speech that
runs on into the next sentence, with no narration between, is one speech. (A speech
with no verb of its own, after a sentence of narration, is nobody's for sure: not asked.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field

from qg_studio import lang
from qg_studio.generation.items import found_item
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.binding import thing_named
from qg_studio.reading.dialogue import is_greeting
from qg_studio.reading.dialogue import is_vocative
from qg_studio.reading.lexicon import PERCEIVING
from qg_studio.reading.lexicon import SPEECH_VERBS
from qg_studio.reading.noun_phrases import head_noun
from qg_studio.reading.noun_phrases import mention_text
from qg_studio.reading.noun_phrases import watched
from qg_studio.reading.subjects import as_known
from qg_studio.reading.subjects import possessive
from qg_studio.schema import Element
from qg_studio.schema import QAItem
from qg_studio.schema import Section

# A speech is asked about when it says something: not "Go back," nor a greeting.
MIN_WORDS = 5
# A key a child reads aloud: the speech's first sentences up to this many words.
MAX_WORDS = 25
# Below a deed the text tells (0.65): a set takes a speech where deeds run short.
CONFIDENCE = 0.5
THINKING = lang.function_words("thinking_verbs")
# A reason a character gives when asked is the story's own answer to a why: above a
# speech, as high as a deed.
ASKED_WHY_CONFIDENCE = 0.65
_WHY_YOU = re.compile(
    r"^why (do|does|did|are|is|were|was|have|has|can|could|will|would) you\b", re.I
)
# The story's question is asked in its own past: "Why do you hide …?" → "Why did the Owl
# hide …?"; "Why are you …?" → "Why was (were) the Owl …?".
_PAST = {"do": "did", "does": "did", "have": "had", "has": "had", "is": "was", "are": "was"}
_PAST_PLURAL = {**_PAST, "are": "were", "is": "were", "was": "were"}
_YOUR = {"he": ("him", "his", "himself"), "she": ("her", "her", "herself")}


@dataclass
class Speech:
    who: str
    verb: object  # the spaCy token the quotation hangs from
    tokens: list = field(default_factory=list)  # the quoted words, in order
    starts: set = field(default_factory=set)  # where a sentence of it that ran on starts


def speech_items(section: Section, analysis: Analysis) -> list[QAItem]:
    found = speeches(analysis)
    said = [_words(analysis, speech) for speech in found]  # each speech read once
    out = [_item(section, analysis, speech, words) for speech, words in zip(found, said)]
    out += [
        _asked_why(section, analysis, ask, reply, asked, replied)
        for ask, reply, asked, replied in zip(found, found[1:], said, said[1:])
    ]
    return [i for i in out if i is not None]


def speeches(analysis: Analysis) -> list[Speech]:
    """Each speech of the section, with who says it."""
    found: list[Speech] = []
    quoted = analysis.quoted
    runs_on = False  # the sentence before was a speech: one with no narration goes on it
    untold: list = []  # a speech with no tag yet: '"Why do you wait?" Tova asked.'
    for sent in analysis.doc.sents:
        said = [t for t in sent if t.i in quoted and not t.is_space]
        if not said:
            runs_on = False
            tag = _tag(analysis, sent) if untold else None
            if tag is not None:
                found.append(Speech(tag[0], tag[1], untold))
            untold = []
            continue
        untold = []
        told = [t for t in sent if t.i not in quoted and not (t.is_punct or t.is_space)]
        if not told and runs_on:
            found[-1].starts.add(said[0].i)
            found[-1].tokens += said  # '"Look at me," said the Lamp. "I am brighter …"'
            continue
        verb = next(
            (
                t
                for t in told
                if t.pos_ == "VERB"
                and (t.lemma_ in SPEECH_VERBS or any(c.i in quoted for c in t.children))
            ),
            None,
        )
        who = _speaker(analysis, verb) if verb is not None else None
        runs_on = bool(who)
        if who:
            found.append(Speech(who, verb, said))
        elif not told:
            untold = said
    return found


def _tag(analysis: Analysis, sent) -> tuple[str, object] | None:
    """The speaker and verb of a sentence that is only a speech tag ("Tova asked.",
    "whispered the smallest cup."), which the parser split from the quotation before it
    ended in "?" or "!"; None for a sentence that tells anything more."""
    verb = sent.root
    words = [t for t in sent if not (t.is_punct or t.is_space)]
    if verb.pos_ != "VERB" or verb.lemma_ not in SPEECH_VERBS or len(words) > 4:
        return None
    who = _speaker(analysis, verb)
    return (who, verb) if who else None


def _speaker(analysis: Analysis, verb) -> str | None:
    """The verb's subject outside the quotation: whoever speaks is a character, a lamp
    or a kite as much as a fox. In a tag set after the quotation ("whispered the
    smallest cup") the parser may take the speaker for an object."""
    quoted = analysis.quoted
    inverted = verb.i > 0 and verb.doc[verb.i - 1].is_punct
    for child in verb.children:
        if child.i in quoted:
            continue
        if child.dep_ == "nsubj" and child.lower_ in PRONOUNS:
            return analysis.resolver.resolve(child)
        subject = child.dep_ == "nsubj" or (inverted and child.dep_ == "dobj" and child.i > verb.i)
        if subject and child.pos_ in ("NOUN", "PROPN"):
            # "said the Magpie one autumn day", parsed with "day" for the subject:
            # the phrase up to its first someone.
            left = [t for t in child.subtree if t.i <= child.i]
            end = next(
                (
                    t.i
                    for t in left
                    if t.pos_ in ("NOUN", "PROPN")
                    and is_someone(t)
                    and not (t.dep_ == "compound" and t.head.pos_ == "PROPN")  # "Grandfather Frog"
                ),
                child.i,
            )
            return _owned(analysis, [t for t in left if t.i <= end])
    return None


def _addressee(analysis: Analysis, verb, speaker: str) -> str:
    """Whom the speech is said to, as the narration tells it: "said to the candles",
    "told the Bear" (not the speaker of "asked the Wren")."""
    for child in verb.children:
        if child.i in analysis.quoted:
            continue
        if child.dep_ == "prep" and child.lower_ == "to":
            obj = next((c for c in child.children if c.dep_ == "pobj"), None)
        elif child.dep_ in ("dobj", "dative") and verb.lemma_ in ("tell", "ask"):
            obj = child
        else:
            continue
        # "told him": a pronoun beside the speaker's own name is too often resolved to it;
        # whoever is spoken to is someone, the cups on a shelf too.
        if obj is None or obj.lower_ in PRONOUNS or obj.pos_ not in ("NOUN", "PROPN"):
            continue
        # "a passing Swallow": the question names whom the reader has met.
        aside = {x.i for t in obj.children if t.dep_ == "relcl" for x in t.subtree}
        named = mention_text([t for t in obj.subtree if t.i not in aside])
        # '"Why so gloomy?" asked a Crab who lived among the stones': the tag set after
        # the speech is parsed with the speaker for an object.
        if head_noun(named) != head_noun(speaker):
            return named
    return ""


def _owned(analysis: Analysis, phrase: list) -> str:
    """The speaker's phrase with its owner named: "said her father" is Ines' father."""
    said = mention_text(phrase)
    first = phrase[0]
    owner = analysis.resolver.resolve(first) if first.dep_ == "poss" else None
    if owner and said.lower().startswith(first.lower_ + " "):
        return possessive(as_known(owner)) + said[len(first.text) :]
    return said


def _words(analysis: Analysis, speech: Speech) -> str:
    """The speech as the speaker says it, without its opening call ("Please, good Owl,")."""
    tokens = [t for t in speech.tokens if t.text not in ('"', "“", "”", "'")]
    # A call opens the speech up to a comma: "Neighbour," / "Please, good Owl,".
    for _ in range(2):
        comma = next((n for n, t in enumerate(tokens[:6]) if t.text == ","), None)
        if comma is None or not any(
            is_vocative(w, analysis.quoted) or is_greeting(w) or w.lower_ == "please"
            for w in tokens[:comma]
        ):
            break
        tokens = tokens[comma + 1 :]
    # Words the quotation marks or the narration stood between are still two words; the
    # comma that handed a sentence to its speech tag ends it where the speech runs on.
    pieces = []
    for n, t in enumerate(tokens):
        after = tokens[n + 1] if n + 1 < len(tokens) else None
        apart = after is not None and after.i != t.i + 1
        text = t.text
        if t.text == "," and after is not None and after.i in speech.starts:
            text = "."
        elif t.text == "," and apart and after.text[:1].islower() and after.pos_ != "CCONJ":
            # '"That," said the Raven, "is my payment"': one sentence the tag cut in two
            # (a comma before "and" is the speaker's own: "Take it, and go").
            text = ""
        pieces.append(text + (" " if t.whitespace_ or apart else ""))
    text = "".join(pieces).strip()
    sentences, count = [], 0
    for sent in _sentences(text):
        n = len(sent.split())
        if sentences and count + n > MAX_WORDS:
            break
        sentences.append(sent)
        count += n
    said = " ".join(sentences).strip(" ,;:")
    return said[:1].upper() + said[1:]


def _sentences(text: str) -> list[str]:
    from qg_studio.text.sentences import sentences

    return [text[a:b].strip() for a, b in sentences(text) if text[a:b].strip()]


def _item(section: Section, analysis: Analysis, speech: Speech, said: str) -> QAItem | None:
    if len(said.split()) < MIN_WORDS or len(said.split()) > MAX_WORDS + 5:
        return None
    asks = said.rstrip().endswith("?") or speech.verb.lemma_ == "ask"
    to = _addressee(analysis, speech.verb, speech.who)
    if speech.verb.lemma_ in THINKING:  # '"I wish I could help," thought the Cloud': unsaid
        question = f"What did {speech.who} {speech.verb.lemma_}?"
    elif asks:
        question = f"What did {speech.who} ask{' ' + to if to else ''}?"
    else:
        question = f"What did {speech.who} say{' to ' + to if to else ''}?"
    start = speech.tokens[0].idx
    last = speech.tokens[-1]
    return found_item(
        question,
        said,
        Element.ACTION,
        True,
        section,
        start,
        last.idx + len(last.text),
        CONFIDENCE,
        rule="action.said",
    )


def _asked_why(
    section: Section, analysis: Analysis, ask: Speech, reply: Speech, asked: str, answer: str
) -> QAItem | None:
    """A why asked in dialogue and answered by the next speech: '"Why do you hide so many
    acorns?" … "In winter the woods will be bare," said the Owl' gives "Why did the Owl
    hide so many acorns? – In winter the woods will be bare"."""
    if reply.who == ask.who:
        return None
    line = next((x for x in _sentences(asked) if _WHY_YOU.match(x)), None)
    if line is None or not line.endswith("?"):
        return None
    found = _WHY_YOU.match(line)
    aux = found.group(1).lower()
    told = analysis.resolver.pronoun_for(reply.who)
    # One whose sex the story never tells is still one: "Why was the Mole …?".
    pronoun = told or "they"
    _, their, themselves = _YOUR.get(pronoun, ("them", "their", "themselves"))
    aux = (_PAST_PLURAL if told == "they" else _PAST).get(aux, aux)
    if aux == "were" and told != "they":
        aux = "was"
    rest = line[found.end() :].rstrip("?").strip()
    # "when you could fly" is said of the one asked: "when she could fly".
    for you, said in (("yourself", themselves), ("your", their), ("you", pronoun)):
        rest = re.sub(rf"\b{you}\b", said, rest, flags=re.I)
    # "Why do you feed me?" is asked of the asker: "Why did the heron feed the otter?".
    for me, said in (("myself", ask.who), ("my", possessive(ask.who)), ("me|I", ask.who)):
        rest = re.sub(rf"\b({me})\b", said, rest)
    if re.search(r"\bit\b", rest, flags=re.I):
        thing = _thing_before(analysis, ask)
        if not thing:
            return None
        rest = re.sub(r"\bit\b", thing, rest, flags=re.I)
    if not rest:
        return None
    if len(answer.split()) < MIN_WORDS - 2:
        return None
    last = reply.tokens[-1]
    return found_item(
        f"Why {aux} {reply.who} {rest}?",
        answer,
        Element.CAUSAL,
        True,
        section,
        reply.tokens[0].idx,
        last.idx + len(last.text),
        ASKED_WHY_CONFIDENCE,
        rule="causal.asked_why",
    )


def _thing_before(analysis: Analysis, speech: Speech) -> str:
    """The thing an "it" in a question points back to: what the sentence before the speech
    told was seen ("he saw the lamp still burning on the sill. 'Why do you light it every
    night?'": the lamp), or "" where it told of none (a gate opened is no sure "it")."""
    start = speech.tokens[0].sent.start
    if start == 0:
        return ""
    seen = [
        t
        for t in analysis.doc[start - 1].sent
        if (
            (t.dep_ == "nsubj" and watched(t.head) and t.head.head.lemma_ in PERCEIVING)
            or (t.dep_ == "dobj" and t.head.lemma_ in PERCEIVING)
        )
        and t.pos_ == "NOUN"
        and t.i not in analysis.quoted
        and not analysis.resolver.is_character(t)
    ]
    if not seen:
        return ""
    return thing_named(seen[-1])
