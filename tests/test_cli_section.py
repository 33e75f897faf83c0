"""``qg-studio section``: the figures and the --json contract; one-line errors."""

from __future__ import annotations

import json

import pytest

from qg_studio.cli import main


def test_json_last_line_contract(tmp_path, story_text, capsys):
    path = tmp_path / "story.txt"
    path.write_text(story_text, encoding="utf-8")
    assert main(["section", str(path), "--grade", "3-5", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"grade", "fk_grade", "dale_chall", "words", "sentences", "verdict"} <= set(
        payload["story"]
    )
    sections = payload["sections"]
    assert [s["id"] for s in sections] == list(range(1, len(sections) + 1))
    for section in sections:
        assert section["words"] == len(section["text"].split())
        assert section["verdict"] in ("below", "in", "above")
        assert isinstance(section["grade"], float)


def test_plain_output_lists_every_section(tmp_path, story_text, capsys):
    path = tmp_path / "story.txt"
    path.write_text(story_text, encoding="utf-8")
    assert main(["section", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Story: 735 words")


@pytest.mark.parametrize(
    "content, name, message",
    [
        (b"", "empty.txt", "empty"),
        (bytes(range(256)) * 8, "noise.txt", "not a text file"),
        (b"plain text pretending", "fake.docx", "not a Word document"),
    ],
)
def test_bad_files_exit_2_with_one_line(tmp_path, capsys, content, name, message):
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["section", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_missing_file_and_bad_band(tmp_path, story_text, capsys):
    assert main(["section", str(tmp_path / "nope.txt")]) == 2
    path = tmp_path / "story.txt"
    path.write_text(story_text, encoding="utf-8")
    assert main(["section", str(path), "--grade", "10-12"]) == 2
    assert "K-8" in capsys.readouterr().err


def test_eval_sections_on_a_small_fairytaleqa_folder(tmp_path, story_text, capsys):
    import csv

    from qg_studio.story import parse_story
    from qg_studio.story import section_story

    folder = tmp_path / "section-stories" / "val"
    folder.mkdir(parents=True)
    sections = section_story(story_text)
    with open(folder / "fox-story.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["section", "text"])
        for s in sections:
            writer.writerow([s.id, s.text.replace("\n\n", "\n")])
    assert main(["eval", "sections", "--data", str(tmp_path), "--split", "val", "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    # Expert sections equal to our own: perfect agreement.
    assert result["boundary_f1"] == 1.0 and result["pk"] == 0.0
    assert result["stories"] == 1 and result["in_range"] == 1.0
    assert parse_story(story_text).title
