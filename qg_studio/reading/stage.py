"""Who holds the stage where a section ends: what the next section's pronouns go on from.

Sections are parsed one at a time, but a story does not restart at a section break: "He
saddled it at dawn" opens a section whose "he" was named in the one before.
"""

from __future__ import annotations

from dataclasses import dataclass

from qg_studio.reading.dialogue import all_speech


@dataclass(frozen=True)
class OnStage:
    """A character the section before named, as the next section first sees it."""

    text: str
    gender: str
    plural: bool
    owned: bool
    subject: bool  # was last named holding the stage (a subject)
    last_sentence: bool  # named in the section's last sentence


@dataclass(frozen=True)
class Stage:
    """Who holds the stage where a section ends, and what the text has told of them:
    genders shown by pronouns, the pronoun each goes by, the names nouns were given, and
    the things made persons."""

    characters: tuple[OnStage, ...] = ()
    genders: tuple[tuple[str, str], ...] = ()
    pronouns: tuple[tuple[str, str], ...] = ()
    names: frozenset[str] = frozenset()
    aliases: tuple[tuple[str, str], ...] = ()
    # Things the fable gave a voice or a mind, capitalised ("the River heard"): characters.
    personae: frozenset[str] = frozenset()


# Characters carried over a section break are those its last sentences name: a "he"
# opening a section goes on from them, and reaching further back finds someone left
# scenes ago where the one meant is a noun no list knows ("the ferryman's ghost"). Read by hand on
# val, a carried "he" or "she" reached from the whole section was wrong 15 times of 53.
STAGE_SENTENCES = 3


def on_stage(mentions, doc, quoted: set[int]) -> tuple[OnStage, ...]:
    """The characters the last ``STAGE_SENTENCES`` sentences of narration name, latest
    last, from the resolver's ``(Mention, holds_stage)`` pairs."""
    sents = [s for s in doc.sents if s.text.strip()]
    last_start = sents[-1].start if sents else 0
    # Sentences of speech put no one off the stage: who called "Watch me, and you will
    # learn something" is who dives after it.
    told = [s for s in sents if not all_speech(s, quoted)]
    # A part with fewer sentences of narration keeps those carried into it: after
    # '"I will show you," said Sam.' the girl he spoke to is still there.
    recent = told[-STAGE_SENTENCES].start if len(told) >= STAGE_SENTENCES else float("-inf")
    latest: dict = {}
    for mention, subject in mentions:
        latest.pop(mention.text, None)
        if mention.index < recent:
            continue
        # A "they" opening a section is most often two characters named apart (on val
        # a carried group was right 6 times of 17); one named only in speech ('"Fetch
        # the lantern," called the keeper') is no one the narration goes on about.
        if not mention.plural and mention.index not in quoted:
            latest[mention.text] = (mention, subject)
    return tuple(
        OnStage(m.text, m.gender, m.plural, m.owned, subject, m.index >= last_start)
        for m, subject in latest.values()
    )
