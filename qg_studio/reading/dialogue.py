"""Speech in a story: what is quoted, whom a speaker calls out to, and greetings.

None of it names a character by itself: "Good-morning, Camel" greets, and "Camel" there
is called out to, not someone acting.
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import SPEECH_VERBS

# Greetings and thanks in dialogue are parsed as nouns, even names ("Good-morning,
# Camel"): none of them is a character.
GREETINGS = lang.words("greetings.txt")
QUOTE_MARKS = ('"', "“", "”", "``", "''")
# Verbs that tell speech a quotation holds ("said", "told", "asked"), the speaker's tag.
TELLING = SAYING_VERBS | SPEECH_VERBS


def is_greeting(head) -> bool:
    """ "Good-morning", "Good day", "Farewell": a greeting, never a character."""
    word = head.lower_
    if word in GREETINGS and (word not in lang.function_words("times_of_day") or _after_good(head)):
        return True
    return (
        word == "good"
        and head.i + 1 < len(head.doc)
        and head.doc[head.i + 1].lower_ in GREETINGS | {"-"}
    )


def _after_good(head) -> bool:
    doc = head.doc
    for back in (1, 2):
        j = head.i - back
        if j >= 0 and doc[j].lower_ == "good":
            return True
        if j < 0 or doc[j].text != "-":
            break
    return False


def quoted_tokens(doc) -> set[int]:
    """Indexes of the tokens inside quotation marks (someone's speech)."""
    inside, out = False, set()
    singles = not any(t.text in QUOTE_MARKS for t in doc)
    for t in doc:
        if singles and t.text in ("'", "\u2018", "\u2019") and _single_quote(t, inside):
            inside = not inside
            continue
        if t.text in QUOTE_MARKS:
            inside = not inside if t.text in ('"', "``", "''") else t.text == "“"
            continue
        if t.is_space and "\n" in t.text:
            inside = False  # a paragraph break closes an unbalanced quote
        if inside:
            out.add(t.i)
    return out


def _single_quote(t, inside: bool) -> bool:
    """ "'Bad is the road,' said the Owl": a single quote mark that opens speech (a space
    before it, a word after) or closes it (after the speech's last stop), not the
    apostrophe of "the dogs' bones" or "'Tis"."""
    doc = t.doc
    nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
    prev = doc[t.i - 1] if t.i > 0 else None
    if not inside:
        spaced = prev is None or bool(prev.whitespace_) or prev.is_space
        return (
            spaced
            and not t.whitespace_
            and nxt is not None
            and nxt.is_alpha
            and (nxt.lower_ not in ("tis", "twas", "twere"))
        )
    return prev is not None and prev.text in ",.!?;:" and not prev.whitespace_


# What a call can be: a name or a noun ("Camel", "old friend"), or a word the parser took
# for an adjective ("Dear").
CALLED = ("NOUN", "PROPN", "ADJ")


def is_vocative(token, quoted: set[int]) -> bool:
    """A name the speaker calls out ("Good-morning, Camel," / "Thank you, Heron"):
    set off by commas or quotes inside speech. The parser often makes it a subject."""
    if token.i not in quoted or token.pos_ not in CALLED:
        return False  # '"That," said the Raven, "is my payment"': no one is called "That"
    doc = token.doc
    # The call's own words just before it ("old friend"), not what the parser hung on
    # it from further back ("You worry too much, old friend": "too much" on "friend").
    start = token.i
    while start > 0 and doc[start - 1].head.i == token.i and not doc[start - 1].is_punct:
        start -= 1
    while start > 0 and doc[start - 1].is_space:
        start -= 1  # a paragraph break before '"Slowcoach!"' opens the call as a comma does
    before = doc[start - 1] if start > 0 else None
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    opens = (
        before is None
        or before.is_punct
        or before.lower_ in GREETINGS
        or before.lower_ in lang.function_words("vocative_openers")
    )
    closes = after is None or after.text in (",", "!", "?", ".", '"', "”", ";")
    return opens and closes


def tells_speech(clause, quoted: set[int]) -> bool:
    """The clause's verb opens or closes a quotation ("she begged, 'give me a few
    acorns'"; '"Stay in the barn," they told Dot'): it tells speech, whatever the verb,
    and its words are no deed."""
    if any(t.i in quoted for t in clause.tail):
        return True
    if clause.head.i not in quoted and any(t.i in quoted for t in clause.subject):
        return True  # '"A good friend!" sang the valley': the words parsed as who sang
    first = min((t.i for t in clause.subject), default=clause.head.i)
    before = [t for t in clause.head.doc[clause.head.sent.start : first] if not t.is_space]
    closed = bool(before) and (before[-1].i in quoted or before[-1].text in QUOTE_MARKS)
    return closed and clause.head.lemma_ in TELLING


def all_speech(sent, quoted: set[int]) -> bool:
    """Whether a sentence is all someone's speech, no narration in it."""
    return all(t.i in quoted or t.is_punct or t.is_space for t in sent)
