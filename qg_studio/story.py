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
from dataclasses import field
from types import MappingProxyType
from typing import Mapping
from typing import Sequence

# Reading and grading live in their own modules; their names stay importable from here.
from qg_studio.grading import GRADE_CUTOFF  # noqa: F401
from qg_studio.grading import GradeBand  # noqa: F401
from qg_studio.grading import GradeReport  # noqa: F401
from qg_studio.grading import grade_sections  # noqa: F401
from qg_studio.grading import readability  # noqa: F401
from qg_studio.ingest import MAX_STORY_WORDS  # noqa: F401
from qg_studio.ingest import MAX_WORDS  # noqa: F401
from qg_studio.ingest import MIN_STORY_WORDS  # noqa: F401
from qg_studio.ingest import MIN_WORDS  # noqa: F401
from qg_studio.ingest import TARGET_WORDS  # noqa: F401
from qg_studio.ingest import StoryInputError  # noqa: F401
from qg_studio.ingest import check_limits  # noqa: F401
from qg_studio.ingest import check_text  # noqa: F401
from qg_studio.ingest import decode_text  # noqa: F401
from qg_studio.ingest import load_story_file  # noqa: F401
from qg_studio.schema import Section

# -- cleaning -------------------------------------------------------------------------

_QUOTES = str.maketrans(
    {
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u2032": "'",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\t": " ",
        "\f": "\n",
        "\u200b": None,
        "\ufeff": None,
        # A stray control character (NUL from a bad copy) is never text,
        # and \x00 marks split paragraphs during sectioning.
        **{chr(c): None for c in (*range(9), 11, *range(14, 32), 127)},
    }
)
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
    if blocks and _title_line(blocks[0]):
        blocks[:1] = [blocks[0][:1], blocks[0][1:]]  # "The Paper Boat" over its first line
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
    """Join a paragraph that stops mid-sentence with the lower-case one that continues it.

    Linear in the text: a joined paragraph's end is its last part's, so only that part's
    last characters are read, and the parts are joined once (thousands of one-line
    paragraphs once took minutes)."""
    joined: list[list[str]] = []
    for para in paragraphs:
        if joined and para[:1].islower() and not _SENT_END.search(joined[-1][-1][-8:]):
            joined[-1].append(para)
        else:
            joined.append([para])
    return [" ".join(parts) for parts in joined]


def _title_line(block: list[str]) -> bool:
    """A title typed straight above the first paragraph, no blank line between: short
    beside the lines under it (a wrapped paragraph's first line is as long as the rest),
    and the paragraph opens as a sentence does."""
    if len(block) < 2 or not _is_title(block[0]):
        return False
    opens = block[1].lstrip("\"'")[:1]
    return opens.isupper() and len(block[0]) < 0.6 * max(len(line) for line in block[1:])


def _is_title(line: str) -> bool:
    words = line.split()
    return len(words) <= 12 and not _SENT_END.search(line) or (len(words) <= 8 and line.isupper())


# -- checks on the whole input ----------------------------------------------------------


def check_story(text: str) -> CleanStory:
    """Limits first (``ingest.check_text``), then the parse; :class:`StoryInputError` with a
    plain message on input QG Studio cannot use."""
    check_text(text)
    return parse_story(text)


# -- sectioning -----------------------------------------------------------------------

_TIME_SHIFT = re.compile(
    r"^(?:(?:and|but|so|now)\s+)?(?:the\s+next|next|one\s+(?:day|morning|evening|night|"
    r"time)|once|some\s+(?:time|days|years|weeks)|after|afterwards?|later|meanwhile|at\s+"
    r"(?:last|length|dawn|night|midnight|sunrise|sunset)|soon|early|in\s+the\s+"
    r"(?:morning|evening|night|meantime|spring|summer|autumn|winter)|that\s+(?:night|"
    r"evening|morning|day)|the\s+following|(?:many\s+)?years|long\s+ago|when\s+(?:the|"
    r"morning|night|evening|day)|on\s+the\s+(?:next|following|third|second)|by\s+and\s+by|"
    r"now\s+it\s+(?:happened|came)|it\s+(?:happened|came\s+to\s+pass)|the\s+(?:day|"
    r"night|morning|years?)\s+(?:after|passed|went))\b",
    re.I,
)
_PLACE_SHIFT = re.compile(
    r"^(?:when\s+(?:he|she|they)\s+(?:came|reached|arrived|got)|"
    r"(?:he|she|they)\s+(?:came|arrived)\s+(?:at|to)|on\s+(?:his|her|"
    r"their)\s+way)\b",
    re.I,
)
_QUOTE = re.compile(r'"')


# How much each paragraph-break cue says an expert cuts there (log-odds): a logistic
# regression of expert cuts on the cues, fitted on 90 stories of the FairytaleQA train
# split. The cue logit adds them up in this order.
CUE_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "time_shift": 0.69,  # the next unit opens on a time ("The next morning")
        "place_shift": 0.68,  # ... or on a place
        "new_character": 0.22,  # it names someone not named before
        "inside_dialogue": -0.68,  # both sides are speech
        "exchange_end": 0.51,  # speech, then narration
        "exchange_start": -0.15,  # narration, then speech
        "overlap": -0.32,  # the two sides share their words
        "open_end": -1.96,  # the paragraph before ends on ":" or ","
        "conjunction_start": 0.34,  # the next opens with and/but/so/or/then
        "inside_paragraph": -2.03,  # the break is inside one paragraph
        "pronoun_start": -0.14,  # the next opens with a pronoun
        "sentence_end": 0.52,  # the unit before ends a sentence
    }
)


@dataclass(frozen=True)
class SectionerWeights:
    """The cue weights (:data:`CUE_WEIGHTS`) and a bias, scaled by ``cue_scale``, against a
    length prior around ``target`` words; the length prior and ``cue_scale`` were tuned on
    the same stories as the cues (``qg-studio eval sections --split train``)."""

    target: float = 125.0
    spread: float = 40.0
    out_of_range: float = 2.0
    cue_scale: float = 2.5
    cues: Mapping[str, float] = field(default_factory=lambda: CUE_WEIGHTS)
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
    # A cut before this unit would fall inside a character's speech: the paragraph before
    # ends with its quote still open (a speech that runs over paragraphs), never a cut.
    in_speech: bool = False


def section_story(text: str, weights: SectionerWeights | None = None) -> list[Section]:
    """Ordered sections (ids from 1) of a story given as plain text."""
    story = check_story(text)
    return section_paragraphs(story.paragraphs, weights)


def section_paragraphs(
    paragraphs: Sequence[str], weights: SectionerWeights | None = None
) -> list[Section]:
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
    from qg_studio.text.parse import get_nlp

    nlp = get_nlp()
    units: list[_Unit] = []
    seen: set[str] = set()
    # The tagger's PROPN marks new names well enough; skipping NER halves the time.
    docs = nlp.pipe(paragraphs, disable=["lemmatizer", "ner"], batch_size=64)
    open_speech = False  # the paragraph before ended inside a quote
    for para, doc in zip(paragraphs, docs):
        sentences = [s.text.strip() for s in doc.sents if s.text.strip()]
        pieces = (
            [para] if len(para.split()) <= 200 or len(sentences) < 2 else _split_long(sentences)
        )
        for index, piece in enumerate(pieces):
            names = {
                tok.text
                for tok in doc
                if tok.pos_ == "PROPN" and not tok.is_sent_start and tok.text in piece
            }
            new = names - seen
            seen |= names
            content = frozenset(
                tok.lower_ for tok in doc if tok.is_alpha and not tok.is_stop and tok.text in piece
            )
            units.append(
                _Unit(
                    text=("\x00" if index else "") + piece,
                    words=len(piece.split()),
                    dialogue=bool(_QUOTE.search(piece)) and len(piece.split()) < 80,
                    opener_time=bool(_TIME_SHIFT.match(piece)),
                    opener_place=bool(_PLACE_SHIFT.match(piece)),
                    new_names=len(new),
                    lemmas=content,
                    in_speech=open_speech if index == 0 else False,
                )
            )
        open_speech = _speaking_after(para, open_speech)
    return units


_LAST_QUOTE_OPENS = re.compile(r'"[\w\'(\[]')  # a word right after it: it opens


def _speaking_after(text: str, speaking: bool) -> bool:
    """Whether a character is still speaking at the end of ``text``: its last quote mark
    opens a speech (a word follows it), or it has none and someone spoke before. A
    speech over several paragraphs opens each and closes only the last (`"When I was
    young…` / `"Then came the dry year…` / `…with it."`)."""
    last = text.rfind('"')
    if last < 0:
        return speaking
    return bool(_LAST_QUOTE_OPENS.match(text, last))


def _split_long(sentences: list[str]) -> list[str]:
    """Cut a long paragraph into pieces of about TARGET words, preferring event openers."""
    pieces: list[list[str]] = [[]]
    count = 0
    speaking = False  # a character's speech is open after the sentences so far
    for sentence in sentences:
        words = len(sentence.split())
        turn = bool(_TIME_SHIFT.match(sentence)) and count >= MIN_WORDS * 0.8
        # Inside a speech only when the piece would outgrow a section (a monologue of
        # several hundred words must be cut somewhere).
        held = speaking and count + words <= MAX_WORDS
        if pieces[-1] and (count + words > 180 or turn) and not held:
            pieces.append([])
            count = 0
        pieces[-1].append(sentence)
        count += words
        speaking = _speaking_after(sentence, speaking)
    if len(pieces) > 1 and sum(len(s.split()) for s in pieces[-1]) < 40:
        pieces[-2].extend(pieces.pop())
    return [" ".join(p) for p in pieces]


def _cut_score(units: list[_Unit], i: int, w: SectionerWeights) -> float:
    """Log-odds that an expert cuts before unit ``i``, times ``cue_scale``."""
    before, after = units[i - 1], units[i]
    head = after.text.lstrip("\x00")
    left = frozenset().union(*(u.lemmas for u in units[max(0, i - 2) : i]))
    right = frozenset().union(*(u.lemmas for u in units[i : i + 2]))
    overlap = len(left & right) / max(1, min(len(left), len(right)))
    cues = {
        "time_shift": after.opener_time,
        "place_shift": after.opener_place,
        "new_character": after.new_names > 0,
        "inside_dialogue": before.dialogue and after.dialogue,
        "exchange_end": before.dialogue and not after.dialogue,
        "exchange_start": after.dialogue and not before.dialogue,
        "overlap": overlap,
        "open_end": before.text.rstrip().endswith((":", ",")),
        "conjunction_start": bool(_CONJUNCTION.match(head)),
        "inside_paragraph": after.text.startswith("\x00"),
        "pronoun_start": bool(_PRONOUN.match(head)),
        "sentence_end": bool(_SENT_END.search(before.text.strip())),
    }
    logit = w.bias
    for name, weight in w.cues.items():
        logit += weight * cues[name]
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
            if i and units[i].in_speech:
                continue  # never inside a character's speech
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
    return renumber([*sections[:index], merged, *sections[index + 2 :]])


def split_section(
    sections: Sequence[Section], section_id: int, at: int | None = None
) -> list[Section]:
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
    return renumber(
        [*sections[:index], Section(0, first), Section(0, second), *sections[index + 1 :]]
    )


def edit_section(sections: Sequence[Section], section_id: int, text: str) -> list[Section]:
    index = _index(sections, section_id)
    if not text.strip():
        raise StoryInputError("a section cannot be empty; merge it instead")
    check_limits(text)  # an edit must not let in what the story's reading refused
    return renumber([*sections[:index], Section(0, text.strip()), *sections[index + 1 :]])


def _index(sections: Sequence[Section], section_id: int) -> int:
    for index, section in enumerate(sections):
        if section.id == section_id:
            return index
    raise StoryInputError(f"there is no section {section_id}")
