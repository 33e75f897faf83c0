"""What a teacher gives (a file, an upload, standard input, a paste) → story text, or one line.

One way in for every source, so the CLI and the app accept and refuse the same things.
Every limit is checked before any parsing, and each costs at most one pass over bytes that
are already capped: a hostile upload is refused in milliseconds, never parsed.
"""

from __future__ import annotations

import codecs
import io
import re
import unicodedata
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

# Sections are what a teacher reads with the class; the story limits follow from them.
MIN_WORDS, MAX_WORDS, TARGET_WORDS = 100, 300, 140
MIN_STORY_WORDS = 20  # two sentences: the least there is to ask a question about
MAX_STORY_WORDS = 30_000  # beyond a class reading; 20,000 must still work
# 30,000 words of English are about 180,000 characters; spaCy refuses texts over 1,000,000.
MAX_STORY_CHARS = 500_000
MAX_TOKEN_CHARS = 200  # longer than any word, URL or name a story holds
MAX_TEXT_BYTES = 4 * 1024 * 1024  # MAX_STORY_CHARS in UTF-16, or non-Latin UTF-8, with room
MAX_DOCX_BYTES = 20 * 1024 * 1024  # a Word story with a few pictures in it
MAX_DOCX_XML_BYTES = 16 * 1024 * 1024  # document.xml of 30,000 heavily formatted words: ~6 MB

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_MAGIC = {
    b"%PDF": "a PDF",
    b"\xd0\xcf\x11\xe0": "an old Word (.doc) or Office file",
    b"\x89PNG": "a picture",
    b"\xff\xd8\xff": "a picture",
    b"GIF8": "a picture",
    b"{\\rtf": "a rich-text (.rtf) file",
}
_NOT_TEXT = (
    "is not a text file (it looks binary or uses an unknown encoding); save it as "
    ".txt or .docx and try again"
)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
_EN_COMMON = frozenset(
    """the and a to of was he she it in that his her i you they said
had with for on as but at not be is were her him them there then so all one when from
this what we my me have would do did no up out into could by an or are little their
""".split()
)


class StoryInputError(ValueError):
    """Input QG Studio cannot use; the message is one plain sentence for the teacher."""


# -- sources ------------------------------------------------------------------------------


def load_story_file(path: str | Path, data: bytes | None = None) -> str:
    """The text of a .txt (UTF-8, UTF-16, cp1252) or .docx story file.

    ``data`` lets the app pass an upload's bytes with its file name; a file on disk is
    measured before it is read.
    """
    path = Path(path)
    named_docx = path.suffix.lower() == ".docx"
    if data is None:
        try:
            _check_size(
                path.stat().st_size, MAX_DOCX_BYTES if named_docx else MAX_TEXT_BYTES, path.name
            )
            data = path.read_bytes()
        except OSError as exc:
            raise StoryInputError(f"cannot read {path.name}: {exc.strerror or exc}") from None
    zipped = data[:2] == b"PK" and path.suffix.lower() not in (".txt", ".text", ".md")
    return story_from_bytes(data, path.name, docx=named_docx or zipped)


def read_stream(stream: BinaryIO, name: str = "standard input") -> str:
    """The text of a story piped in; no more than the limit is ever read."""
    data = stream.read(MAX_DOCX_BYTES + 1)
    return story_from_bytes(data, name, docx=data[:2] == b"PK")


def story_from_bytes(data: bytes, name: str, docx: bool = False) -> str:
    """Bytes of a story (a Word file when ``docx``) → its text, size checked first."""
    _check_size(len(data), MAX_DOCX_BYTES if docx else MAX_TEXT_BYTES, name)
    return docx_text(data, name) if docx else decode_text(data, name)


def _check_size(size: int, limit: int, name: str) -> None:
    if size > limit:
        raise StoryInputError(
            f"{name} is {_mb(size)}; QG Studio takes stories up to "
            f"{_mb(limit)} (about {MAX_STORY_WORDS:,} words)"
        )


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB" if size >= 1024 * 1024 else f"{size / 1024:.0f} KB"


# -- decoding -----------------------------------------------------------------------------


def decode_text(data: bytes, name: str = "the file") -> str:
    """Bytes in any encoding a teacher's computer writes → text; never a decoding error.

    A byte that does not decode becomes U+FFFD, so one bad byte costs one character, not
    the story; text with too many of them, or with control characters, is refused as binary.
    """
    if not data.strip():
        raise StoryInputError(f"{name} is empty")
    for magic, kind in _MAGIC.items():
        if data.startswith(magic):
            raise StoryInputError(
                f"{name} is {kind}, not a story; save it as .txt or .docx and try again"
            )
    for bom, encoding in (
        (codecs.BOM_UTF32_LE, "utf-32-le"),
        (codecs.BOM_UTF32_BE, "utf-32-be"),
        (codecs.BOM_UTF8, "utf-8"),
        (codecs.BOM_UTF16_LE, "utf-16-le"),
        (codecs.BOM_UTF16_BE, "utf-16-be"),
    ):
        if data.startswith(bom):
            text = data[len(bom) :].decode(encoding, errors="replace")
            break
    else:
        if _looks_utf16(data):
            text = data.decode(
                "utf-16-le" if data[1::2].count(0) > data[0::2].count(0) else "utf-16-be",
                errors="replace",
            )
        else:
            text = _utf8_or_cp1252(data)
    if _binary_share(text) > 0.02:
        raise StoryInputError(f"{name} {_NOT_TEXT}")
    return text


def _utf8_or_cp1252(data: bytes) -> str:
    """UTF-8 unless the bytes read better as Windows' cp1252 (é written as one byte)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - data.count("\ufffd".encode())
    decoded = sum(1 for ch in text if ord(ch) > 127 and ch != "\ufffd")
    # A UTF-8 file with a stray byte keeps its accents; cp1252 makes none of them valid UTF-8.
    return text if decoded >= bad else data.decode("cp1252", errors="replace")


def _looks_utf16(data: bytes) -> bool:
    sample = data[:2000]
    return len(sample) >= 4 and sample.count(0) > len(sample) // 4


def _binary_share(text: str) -> float:
    if not text:
        return 0.0
    sample = text[:200_000]  # enough to tell; binary is binary throughout
    bad = len(_CONTROL.findall(sample)) + sample.count("\ufffd")
    return bad / len(sample)


# -- Word files ---------------------------------------------------------------------------


def docx_text(data: bytes, name: str) -> str:
    """The paragraphs of a .docx, read without ever unpacking more than the cap.

    The size the zip declares is checked before anything is inflated, the read stops at
    that size even if the declaration lies, and the XML is streamed by a parser that
    refuses entity and DTD tricks (``defusedxml``).
    """
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import ParseError
    from defusedxml.ElementTree import iterparse

    not_word = f"{name} is not a Word document (.docx) that can be opened"
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        info = archive.getinfo("word/document.xml")
        if info.file_size > MAX_DOCX_XML_BYTES:
            raise StoryInputError(
                f"{name} unpacks to {_mb(info.file_size)} of text, more than any story "
                f"(QG Studio takes up to {MAX_STORY_WORDS:,} words)"
            )
        with archive.open(info) as member:
            # Never inflate past the declared size: a header that understates it fails
            # the zip's own CRC check after those few bytes.
            xml = member.read(info.file_size + 1)
    except StoryInputError:
        raise
    except (
        zipfile.BadZipFile,
        KeyError,
        OSError,
        EOFError,
        RuntimeError,
        NotImplementedError,
        zlib.error,
        ValueError,
    ):
        raise StoryInputError(not_word) from None
    paragraphs: list[str] = []
    pieces: list[str] = []
    try:
        for _, element in iterparse(io.BytesIO(xml), events=("end",), forbid_dtd=True):
            tag = element.tag
            if tag == f"{_W}t":
                pieces.append(element.text or "")
            elif tag == f"{_W}tab":
                pieces.append("\t")
            elif tag in (f"{_W}br", f"{_W}cr"):
                pieces.append("\n")
            elif tag == f"{_W}p":
                paragraphs.append("".join(pieces))
                pieces.clear()
                element.clear()
    except (ParseError, DefusedXmlException, ValueError):
        raise StoryInputError(not_word) from None
    text = "\n\n".join(p for p in paragraphs if p.strip())
    if not text.strip():
        raise StoryInputError(f"{name} holds no text")
    return text


# -- limits on the text ---------------------------------------------------------------------


def check_text(text: str) -> None:
    """Refuse text QG Studio cannot use, cheapest checks first, before any parsing."""
    if not text or not text.strip():
        raise StoryInputError("the story is empty: paste or upload some text")
    check_limits(text)
    words = text.split()
    if len(words) > MAX_STORY_WORDS:
        raise StoryInputError(
            f"the story has {len(words):,} words; QG Studio takes up to "
            f"{MAX_STORY_WORDS:,} — split it into chapters"
        )
    if not any(ch.isalpha() for ch in text):
        raise StoryInputError("the story has no words")
    if len(words) < MIN_STORY_WORDS:
        raise StoryInputError(
            f"the story has {len(words)} word{'s' * (len(words) != 1)}; QG Studio needs at "
            f"least {MIN_STORY_WORDS} to ask about (a section is {MIN_WORDS}–{MAX_WORDS} words)"
        )
    plain = [w.strip(".,;:!?\"'()\u201c\u201d\u2018\u2019").lower() for w in words]
    if sum(1 for w in plain if w in _EN_COMMON) / len(plain) < 0.08:
        raise StoryInputError(
            "the text does not look like English; QG Studio writes "
            "questions for English stories only"
        )


def check_limits(text: str) -> None:
    """The limits any text a teacher gives must meet, a whole story or one edited section:
    size, control characters, script and longest token, each one pass over the text."""
    if len(text) > MAX_STORY_CHARS:
        longest = max(map(len, text.split()), default=0)
        if longest > MAX_TOKEN_CHARS:
            raise StoryInputError(_token_message(longest))
        raise StoryInputError(
            f"the text has {len(text):,} characters; QG Studio takes up "
            f"to {MAX_STORY_CHARS:,} (about {MAX_STORY_WORDS:,} words) — "
            "split it into chapters"
        )
    if _binary_share(text) > 0.02:
        raise StoryInputError(
            "the text holds control characters: it looks like a binary file, not a story"
        )
    script = _other_script(text)
    if script:
        raise StoryInputError(
            f"the text is written mostly in {script} script, not English; "
            "QG Studio writes questions for English stories only"
        )
    long_token = re.search(r"\S{%d,}" % (MAX_TOKEN_CHARS + 1), text)
    if long_token:
        raise StoryInputError(_token_message(len(long_token.group())))


def _token_message(length: int) -> str:
    return (
        f"the text holds one 'word' of {length:,} characters; words longer than "
        f"{MAX_TOKEN_CHARS} characters are not story text — is this the right file?"
    )


def _other_script(text: str) -> str | None:
    """The script most letters are written in, when it is not Latin (Chinese has no spaces
    for a word count to notice)."""
    sample = text[:100_000]
    letters = [ch for ch in sample if ch.isalpha()]
    latin = sum(1 for ch in letters if ch < "\u0250")
    if not letters or latin >= 0.8 * len(letters):
        return None
    other = next(ch for ch in letters if ch >= "\u0250")
    return unicodedata.name(other, "another").split()[0].title().replace("Cjk", "Chinese/Japanese")
