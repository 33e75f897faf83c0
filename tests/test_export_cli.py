"""``qg-studio export`` from a saved project and from ``generate --json`` output."""

from __future__ import annotations

import csv
import json

import openpyxl
import pytest
from export_story import items
from export_story import sections

from qg_studio.cli import main
from qg_studio.store import Store


def _generate_output(tmp_path):
    secs = sections()
    payload = {
        "story": {"title": "Greta"},
        "sections": [s.to_dict() for s in secs],
        "items": [i.to_dict() for i in items(secs)],
    }
    path = tmp_path / "generated.json"
    # generate prints a human summary first and the JSON object on the last line
    path.write_text("10 questions for 2 sections\n" + json.dumps(payload) + "\n")
    return path


def test_export_from_generate_json(tmp_path, capsys):
    out = tmp_path / "sheets" / "greta.xlsx"
    code = main(
        [
            "export",
            str(_generate_output(tmp_path)),
            "--format",
            "xlsx",
            "--out",
            str(out),
            "--paper",
            "letter",
            "--questions-only",
            "--show-element",
            "--json",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["written"] == 6 and summary["out"] == str(out)
    wb = openpyxl.load_workbook(out)
    student = [c.value for c in wb["Worksheet"]["B"] if c.value]
    assert student[0].endswith("Greta")
    assert any(t.startswith("Who rode past the mill?") and "(character)" in t for t in student)
    assert int(wb["Worksheet"].page_setup.paperSize) == 1


def test_export_from_saved_project_kept_only(tmp_path, capsys):
    secs = sections()
    with Store() as store:
        project = store.create_project("Year 3")
        story = store.add_story(project, "Greta", "\n\n".join(s.text for s in secs), secs)
        store.add_items(story, items(secs), actor="embedded")
    out = tmp_path / "g.csv"
    assert main(["export", "Year 3", "--format", "gimkit", "--out", str(out), "--kept-only"]) == 0
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines()))
    questions = [r[0] for r in rows[2:]]
    assert "Who rode past the mill?" in questions
    assert "How did Greta feel in the room?" not in questions  # not kept
    err = capsys.readouterr().err
    assert "skipped in Gimkit" in err and "What do you think" in err


def test_bad_input_is_one_line(tmp_path, capsys):
    assert (
        main(["export", "No such project", "--format", "gift", "--out", str(tmp_path / "x.gift")])
        == 2
    )
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no project named" in err
    bad = tmp_path / "bad.json"
    bad.write_text("not json at all")
    assert main(["export", str(bad), "--format", "gift", "--out", str(tmp_path / "x")]) == 2
    assert "no JSON object" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_out_folder_gets_the_formats_extension_and_title_is_used(tmp_path):
    assert (
        main(
            [
                "export",
                str(_generate_output(tmp_path)),
                "--format",
                "gift",
                "--out",
                str(tmp_path / "quiz") + "/",
                "--title",
                "Year 3: Greta",
            ]
        )
        == 0
    )
    text = (tmp_path / "quiz" / "Year-3-Greta-gift.gift.txt").read_text(encoding="utf-8")
    assert text.startswith("// Year 3: Greta")


def _payload(tmp_path, **changes):
    secs = sections()
    payload = {
        "story": {"title": "Greta"},
        "sections": [s.to_dict() for s in secs],
        "items": [i.to_dict() for i in items(secs)],
    }
    for key, value in changes.items():
        if key.startswith("item2_"):
            payload["items"][1][key[6:]] = value
        else:
            payload[key] = value
    return payload


DEEP = "[" * 100000 + "]" * 100000


@pytest.mark.parametrize(
    "changes,words",
    [
        ({"item2_question": None}, ["item 2", "'question'", "null"]),
        ({"item2_question": 42}, ["item 2", "'question'", "number"]),
        ({"item2_question": ["Who?"]}, ["item 2", "'question'", "list"]),
        ({"item2_question": float("nan")}, ["item 2", "'question'", "NaN"]),
        ({"item2_answers": "the king"}, ["item 2", "'answers'"]),
        ({"item2_answers": [None]}, ["item 2", "'answers[1]'", "null"]),
        ({"item2_sections": "1,2"}, ["item 2", "'sections'", "text"]),
        ({"item2_sections": [float("nan")]}, ["item 2", "'sections[1]'", "NaN"]),
        ({"item2_scores": {"confidence": float("nan")}}, ["item 2", "scores.confidence", "NaN"]),
        ({"item2_element": "weather"}, ["item 2", "weather"]),
        ({"item2_evidence": [{"section": "x"}]}, ["item 2", "evidence[1]"]),
        ({"sections": "Once upon a time"}, ["'sections'", "text"]),
        ({"sections": [{"id": 1, "text": None}]}, ["section 1", "'text'", "null"]),
        ({"items": {"question": "Who?"}}, ["'items'", "object"]),
        ({"items": [[[[[[["deep"]]]]]]]}, ["item 1", "list"]),
        ({"story": "Greta"}, ["'story'", "text"]),
        ({"story": {"title": 7}}, ["'title'", "number"]),
    ],
)
def test_malformed_set_is_one_line_naming_item_and_field(tmp_path, capsys, changes, words):
    path = tmp_path / "set.json"
    path.write_text(json.dumps(_payload(tmp_path, **changes)))
    out = tmp_path / "x.gift.txt"
    assert main(["export", str(path), "--format", "gift", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert all(word in err for word in words), err
    assert not out.exists()


def test_set_that_is_not_utf8_is_one_line(tmp_path, capsys):
    path = tmp_path / "set.json"
    path.write_bytes(b'\xff\xfe{\x00"\x00i\x00')
    assert main(["export", str(path), "--format", "gift", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "not UTF-8" in err


def test_set_nested_very_deep_is_one_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text('{"items": ' + DEEP + "}")
    assert main(["export", str(path), "--format", "xlsx", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "nested too deeply" in err
