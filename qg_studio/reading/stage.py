"""Who holds the stage where a section ends: what the next section's pronouns go on from.

Sections are parsed one at a time, but a story does not restart at a section break: "He
saddled it at dawn" opens a section whose "he" was named in the one before.
"""

from __future__ import annotations

from dataclasses import dataclass


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
