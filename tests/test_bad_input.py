"""Hostile and broken stories: each ends in output or one plain line, never a traceback.

Every case goes through ``section``, ``generate`` and ``answer`` as a teacher runs them, and
through the app's upload path (``load_story_file`` with the bytes, then ``section_story``),
which must accept and refuse exactly what the command line does.
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from dataclasses import dataclass

import pytest
from bad_input_files import document_xml
from bad_input_files import docx_bomb
from bad_input_files import docx_of
from bad_input_files import entity_docx_bomb
from bad_input_files import lying_docx_bomb
from bad_input_files import spreadsheet

from qg_studio.cli import main
from qg_studio.ingest import MAX_DOCX_XML_BYTES
from qg_studio.ingest import MAX_TEXT_BYTES
from qg_studio.story import StoryInputError
from qg_studio.story import edit_section
from qg_studio.story import load_story_file
from qg_studio.story import section_story

STORY = (
    "Nell kept bees at the edge of the village. Every morning she walked to the hives "
    "with a pot of honey for the baker, who paid her in bread.\n\n"
    "One day the bees would not leave their hives. Nell sat beside them and listened, "
    "because her grandmother had said that bees hear the weather before people do.\n\n"
    "That night a storm broke over the hills. The river rose and the baker's oven was "
    "flooded, but Nell's bees were safe and dry. The next morning she brought the baker "
    "honey and a loaf of her own, and he laughed and said that the bees were wiser than "
    "the whole village."
)


@dataclass
class Case:
    name: str
    filename: str
    data: bytes
    refusal: str | None = None  # a piece of the one-line message; None: the story is used
    stdin: bool = False


def _words(n: int) -> str:
    base = STORY.replace("\n\n", " ").split()
    return " ".join(base[i % len(base)] for i in range(n))


def _cases() -> list[Case]:
    utf16 = STORY.encode("utf-16")
    half = len(STORY) // 2
    lone = (
        b"\xff\xfe"
        + STORY[:half].encode("utf-16-le")
        + b"\x00\xd8"
        + STORY[half:].encode("utf-16-le")
    )
    bad_utf8 = STORY.encode()
    paragraphs = STORY.split("\n\n")
    return [
        Case("empty", "empty.txt", b"", "empty"),
        Case("blank lines", "blank.txt", b" \n\t\r\n  \n", "empty"),
        Case(
            "binary", "noise.txt", bytes((i * 7919) % 256 for i in range(6000)), "not a text file"
        ),
        Case("a picture", "photo.txt", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "a picture"),
        Case("a PDF", "story.txt", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" + bytes(300), "a PDF"),
        Case("UTF-16 with BOM", "u16.txt", utf16),
        Case("UTF-16 with BOM, odd byte count", "u16odd.txt", utf16 + b"!"),
        Case("UTF-16 with BOM, lone surrogate", "u16lone.txt", lone),
        Case("UTF-16 without BOM", "u16be.txt", STORY.encode("utf-16-be")),
        Case("cp1252", "cp.txt", (STORY + " \u201cCaf\u00e9!\u201d she said.").encode("cp1252")),
        Case(
            "UTF-8 BOM and one invalid byte",
            "bom.txt",
            b"\xef\xbb\xbf" + bad_utf8[:100] + b"\xff" + bad_utf8[100:],
        ),
        Case("NUL bytes", "nul.txt", STORY.encode().replace(b". ", b".\x00 ")),
        Case("fake .docx", "story.docx", STORY.encode(), "not a Word document"),
        Case("spreadsheet named .docx", "story.docx", spreadsheet(), "not a Word document"),
        Case("docx bomb (50 MB of XML)", "bomb.docx", docx_bomb(), "unpacks to"),
        Case("docx bomb with lying headers", "liar.docx", lying_docx_bomb(), "not a Word document"),
        Case("docx entity expansion", "laughs.docx", entity_docx_bomb(), "not a Word document"),
        Case("a real .docx", "story.docx", docx_of(document_xml(paragraphs))),
        Case("50,000 words", "long.txt", _words(50_000).encode(), "50,000 words"),
        Case("one 3,000-word paragraph", "para.txt", _words(3_000).encode()),
        Case(
            "one 1,000,000-character token", "token.txt", b"x" * 1_000_000, "1,000,000 characters"
        ),
        Case(
            "over the size limit",
            "big.txt",
            (STORY + "\n\n").encode() * (MAX_TEXT_BYTES // len(STORY) + 1),
            "MB",
        ),
        Case(
            "French",
            "fr.txt",
            (
                "Le renard est parti dans la forêt avec son ami le corbeau "
                "pour chercher du fromage et du pain, mais ils ne trouvèrent "
                "rien. "
            ).encode()
            * 4,
            "English",
        ),
        Case(
            "Chinese without spaces",
            "zh.txt",
            "从前有一个养蜜蜂的老奶奶，她每天早上都去看她的蜂箱。".encode() * 20,
            "Chinese",
        ),
        Case(
            "Russian", "ru.txt", "Жила-была девочка, и у неё были пчёлы. ".encode() * 20, "Cyrillic"
        ),
        Case(
            "HTML",
            "story.html",
            (
                "<html><body><h1>The Bees</h1>"
                + "".join(f"<p>{p}</p>" for p in paragraphs)
                + "<script>alert(1)</script></body></html>"
            ).encode(),
        ),
        Case(
            "spreadsheet formulas",
            "formulas.txt",
            (
                '=HYPERLINK("http://x","click")\n\n+1+2\n\n' + STORY + "\n\n-2+3\n\n@SUM(A1:A9)"
            ).encode(),
        ),
        Case("three words", "three.txt", b"Cats eat fish.", "at least 20"),
        Case("numbers only", "numbers.txt", b"1 2 3 4 5 6 7 8 9 10 " * 5, "no words"),
        Case("cp1252 on stdin", "-", (STORY + " Caf\u00e9.").encode("cp1252"), stdin=True),
        Case("UTF-16 odd bytes on stdin", "-", utf16 + b"!", stdin=True),
        Case(
            "binary on stdin",
            "-",
            bytes((i * 7919) % 256 for i in range(6000)),
            "not a text file",
            stdin=True,
        ),
    ]


CASES = _cases()


def _run(capsys, monkeypatch, tmp_path, case: Case, argv: list[str]):
    if case.stdin:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(case.data)))
        target = "-"
    else:
        path = tmp_path / case.filename
        path.write_bytes(case.data)
        target = str(path)
    code = main([argv[0], target, *argv[1:]])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if case.refusal is None:
        assert code == 0, err
        return json.loads(out.strip().splitlines()[-1])
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert lines[0].startswith("qg-studio: error: ") and case.refusal in lines[0]
    return None


@pytest.mark.timeout(180)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_section_generate_and_answer_end_in_output_or_one_line(case, capsys, monkeypatch, tmp_path):
    sectioned = _run(capsys, monkeypatch, tmp_path, case, ["section", "--json"])
    generated = _run(capsys, monkeypatch, tmp_path, case, ["generate", "--count", "2", "--json"])
    answered = _run(
        capsys,
        monkeypatch,
        tmp_path,
        case,
        [
            "answer",
            "--question",
            "Why were the bees safe?",
            "--model",
            str(tmp_path / "no-model"),
            "--json",
        ],
    )
    if case.refusal is None:
        text = " ".join(s["text"] for s in sectioned["sections"])
        assert "honey" in text or "x" * 50 in text  # the story's words, decoded
        assert "\x00" not in text and "\ufeff" not in text
        # One reading, one word count, whichever command reads the file.
        assert generated["story"]["words"] == sectioned["story"]["words"]
        assert generated["items"] and answered["answers"]


@pytest.mark.parametrize(
    "case", [c for c in CASES if not c.stdin], ids=[c.name for c in CASES if not c.stdin]
)
def test_the_app_upload_accepts_and_refuses_as_the_command_line_does(case):
    try:
        sections = section_story(load_story_file(case.filename, case.data))
    except StoryInputError as exc:
        assert case.refusal is not None and case.refusal in str(exc), str(exc)
        assert "\n" not in str(exc)
    else:
        assert case.refusal is None and sections


def test_encodings_keep_every_readable_character():
    """One bad byte costs one character, not the story, and accents survive."""
    text = f"{STORY} “Café!”"
    assert load_story_file("cp.txt", text.encode("cp1252")) == text
    damaged = b"\xef\xbb\xbf" + text.encode()[:50] + b"\xff" + text.encode()[50:]
    assert load_story_file("bom.txt", damaged) == text[:50] + "\ufffd" + text[50:]
    odd = load_story_file("odd.txt", text.encode("utf-16") + b"!")
    assert odd == text + "\ufffd"


def test_pasted_text_meets_the_same_limits():
    """The Story page's paste box goes through section_story: the same checks apply."""
    for text, message in [
        ("x" * 1_000_000, "1,000,000 characters"),
        ("从前有一个养蜜蜂的老奶奶。" * 50, "Chinese"),
        ("Cats eat fish.", "at least 20"),
        (_words(31_000), "31,000 words"),
    ]:
        with pytest.raises(StoryInputError, match=message):
            section_story(text)


def test_a_short_story_is_sectioned_with_a_warning_about_its_grade(capsys, tmp_path):
    path = tmp_path / "short.txt"
    path.write_text(_words(30), encoding="utf-8")
    assert main(["section", str(path), "--json"]) == 0
    story = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["story"]
    assert story["words"] == 30
    assert any("fewer than one section" in w and "rough guess" in w for w in story["warnings"])


def test_docx_bomb_is_refused_before_it_is_unpacked(monkeypatch):
    """The declared size is enough to refuse; nothing is inflated."""
    opened = []
    monkeypatch.setattr(
        zipfile.ZipFile, "open", lambda *a, **k: opened.append(a) or pytest.fail("inflated")
    )
    with pytest.raises(StoryInputError, match="unpacks to"):
        load_story_file("bomb.docx", docx_bomb())
    assert not opened
    assert len(docx_bomb()) < 1_000_000 and MAX_DOCX_XML_BYTES < 50_000_000


def test_an_edited_section_meets_the_same_limits():
    sections = section_story(STORY)
    for text, message in [
        ("x" * 1_000_000, "1,000,000 characters"),
        ("Nell said: " + "y" * 300, "300 characters"),
        ("从前有一个养蜜蜂的老奶奶。" * 5, "Chinese"),
    ]:
        with pytest.raises(StoryInputError, match=message):
            edit_section(sections, 1, text)
    assert edit_section(sections, 1, "Nell smiled.")[0].text == "Nell smiled."
