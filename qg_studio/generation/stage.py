"""Who holds the stage where a section ends: what the next section's pronouns go on from.

Sections are parsed one at a time, but a story does not restart at a section break: "He
mounted it and rode away" opens a section whose "he" was named in the one before.
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
    genders shown by pronouns, the pronoun each goes by, and the names nouns were given."""

    characters: tuple[OnStage, ...] = ()
    genders: tuple[tuple[str, str], ...] = ()
    pronouns: tuple[tuple[str, str], ...] = ()
    names: frozenset[str] = frozenset()
    aliases: tuple[tuple[str, str], ...] = ()


# Characters carried over a section break: enough for a tale's cast on stage, few enough
# that a pronoun never reaches back to someone left scenes ago.
STAGE_SIZE = 6
