"""FairytaleQA import/export round trip, StoryQA and HF exports, validation and stats.

The fixture folder is written by the tests (original text, no dataset rows) with the
quirks the real files have: both column orders, an extra column, CRLF line endings,
no final newline, "5, 6" citations, a whitespace answer, a "doubt" label.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from qg_studio.cli import main
from qg_studio.data.fairytaleqa import read_split
from qg_studio.data.fairytaleqa import read_story
from qg_studio.data.fairytaleqa import write_split
from qg_studio.data.projects import export_project
from qg_studio.data.projects import import_story
from qg_studio.data.stats import split_stats
from qg_studio.data.validation import AnnotationError
from qg_studio.data.validation import build_item
from qg_studio.data.validation import validate_row
from qg_studio.schema import Section
from qg_studio.store import Store

SECTIONS_A = [
    "Once a miller lived by a cold river.\nHe had one grey donkey and a small red boat.",
    "One morning a fox came to the mill and asked for bread. The miller gave him a loaf.",
    "The fox ran to the forest, happy, and told the bears that the miller was kind.",
]
SECTIONS_B = [
    "A girl named Ilse kept geese on the hill above the village.",
    "When the storm came she hid the geese in the old church, and all of them lived.",
]
HEADER = (
    "question_id,local-or-sum,cor_section,attribute1,attribute2,question,ex-or-im1,"
    "answer1,answer2,answer3,ex-or-im2,answer4,answer5,answer6"
)
ALT_HEADER = (
    "question_id,local-or-sum,cor_section,ex-or-im1,attribute1,attribute2,question,"
    "answer1,answer2,answer3,ex-or-im2,answer4,answer5,answer6,comments"
)


def _csv(rows: list[list[str]], newline: str = "\n", final: bool = True) -> bytes:
    buf = io.StringIO(newline="")
    csv.writer(buf, lineterminator=newline).writerows(rows)
    text = buf.getvalue()
    return (text if final else text[: -len(newline)]).encode("utf-8")


def write_fixture(root: Path, split: str = "val") -> Path:
    (root / "section-stories" / split).mkdir(parents=True)
    (root / "questions" / split).mkdir(parents=True)
    (root / "section-stories" / split / "miller-and-fox-story.csv").write_bytes(
        _csv([["section", "text"]] + [[str(i), t] for i, t in enumerate(SECTIONS_A, 1)])
    )
    (root / "questions" / split / "miller-and-fox-questions.csv").write_bytes(
        _csv(
            [
                HEADER.split(","),
                [
                    "1",
                    "local",
                    "1",
                    "setting",
                    "",
                    "Where did the miller live?",
                    "explicit",
                    "by a cold river",
                    "",
                    "",
                    "explicit",
                    "by a cold river",
                    "",
                    "",
                ],
                [
                    "2",
                    "summary",
                    "2, 3",
                    "causal relationship",
                    "feeling",
                    "Why did the fox tell the bears the miller was kind?",
                    "implicit",
                    "because the miller gave him bread",
                    " ",
                    "",
                    "implicit",
                    "the miller fed him",
                    "",
                    "he was generous",
                ],
                [
                    "3",
                    "local",
                    "2,3",
                    "Action",
                    "",
                    "What did the miller give the fox?",
                    "explicit",
                    "a loaf",
                    "bread",
                    "",
                    "doubt",
                    "",
                    "",
                    "",
                ],
            ],
            final=False,
        )
    )
    (root / "section-stories" / split / "goose-girl-story.csv").write_bytes(
        _csv(
            [["section", "text"]] + [[str(i), t] for i, t in enumerate(SECTIONS_B, 1)],
            newline="\r\n",
        )
    )
    (root / "questions" / split / "goose-girl-questions.csv").write_bytes(
        _csv(
            [
                ALT_HEADER.split(","),
                [
                    "1",
                    "local",
                    "1",
                    "explicit",
                    "character",
                    "",
                    "Who kept geese?",
                    "Ilse",
                    "",
                    "",
                    "explicit",
                    "a girl named Ilse",
                    "",
                    "",
                    "checked twice",
                ],
                [
                    "7",
                    "local",
                    "2",
                    "implicit",
                    "outcome resolution",
                    "prediction",
                    "What happened to the geese after the storm?",
                    "they all lived",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                ],
            ],
            newline="\r\n",
        )
    )
    (root / "story_meta.csv").write_bytes(
        _csv(
            [
                ["filename", "origin", "split", "sections", "words", "questions"],
                ["miller-and-fox", "test-book", split, "3", "999", "3"],
                ["goose-girl", "test-book", split, "2", "998", "2"],
            ]
        )
    )
    return root


def _parsed(path: Path) -> list[list[str]]:
    return [r for r in csv.reader(io.StringIO(path.read_text(encoding="utf-8"), newline="")) if r]


def _data_files(root: Path, split: str) -> list[Path]:
    return sorted(
        p.relative_to(root)
        for sub in ("questions", "section-stories")
        for p in (root / sub / split).glob("*.csv")
    )


@pytest.fixture
def fixture_dir(tmp_path) -> Path:
    return write_fixture(tmp_path / "ftqa")


def test_import_then_export_reproduces_every_file(fixture_dir, tmp_path, capsys):
    assert main(["data", "import", str(fixture_dir), "--split", "val"]) == 0
    out = tmp_path / "out"
    assert (
        main(
            [
                "data",
                "export",
                "imported:val",
                "--format",
                "fairytaleqa",
                "--out",
                str(out),
                "--json",
            ]
        )
        == 0
    )
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["stories"] == 2 and summary["qa_pairs"] == 5
    files = _data_files(fixture_dir, "val")
    assert files == _data_files(out, "val") and len(files) == 4
    for rel in files:
        assert _parsed(out / rel) == _parsed(fixture_dir / rel), rel
        # line endings, a missing final newline and the column order come back too
        assert (out / rel).read_bytes() == (fixture_dir / rel).read_bytes(), rel
    # story_meta.csv lists the exported stories (in story order) with their original rows
    assert sorted(_parsed(out / "story_meta.csv")) == sorted(
        _parsed(fixture_dir / "story_meta.csv")
    )


def test_import_keeps_order_ids_and_second_annotator(fixture_dir):
    store = Store()
    story = read_story(fixture_dir, "val", "miller-and-fox")
    result = import_story(store, story)
    items = store.list_items(result.story_id)
    assert [i.ref for i in items] == ["1", "2", "3"]
    assert items[1].sections == [2, 3] and items[1].element2.value == "feeling"
    assert items[1].second_answers == ["the miller fed him", "he was generous"]
    assert items[1].second_explicitness.value == "implicit"
    assert items[2].second_explicitness is None  # "doubt" is kept in the row, not the item
    stored = store.get_story(result.story_id)
    assert [s.text for s in stored.sections] == SECTIONS_A
    assert store.created_by(items[0].id) == "fairytaleqa"


def test_edits_new_and_dropped_items_reach_the_export_with_provenance(fixture_dir, tmp_path):
    store = Store()
    result = import_story(store, read_story(fixture_dir, "val", "miller-and-fox"))
    first, second, third = store.list_items(result.story_id)
    store.update_item(second.id, "teacher:ana", answers=["he got bread"], sections=[2])
    store.update_item(third.id, "teacher:ana", status="dropped")
    new, _ = build_item(
        {
            "question": "Who came to the mill?",
            "answers": ["a fox"],
            "element": "character",
            "explicitness": "explicit",
            "scope": "local",
            "sections": [2],
        },
        store.get_story(result.story_id).sections,
    )
    store.add_items(result.story_id, [new], actor="annotator:bo")

    exported = export_project(store, result.project_id)
    from qg_studio.data.export import write_export

    write_export(tmp_path / "out", exported, "fairytaleqa")
    header, *body = _parsed(tmp_path / "out/questions/val/miller-and-fox-questions.csv")
    rows = [dict(zip(header, r)) for r in body]
    original = _parsed(fixture_dir / "questions/val/miller-and-fox-questions.csv")
    assert list(rows[0].values()) == original[1]  # untouched row, exactly
    assert rows[1]["answer1"] == "he got bread" and rows[1]["answer2"] == ""
    assert rows[1]["cor_section"] == "2" and rows[1]["attribute2"] == "feeling"
    assert rows[1]["answer6"] == "he was generous"  # the second pass is untouched
    assert [r["question_id"] for r in rows] == ["1", "2", "4"]  # dropped left out, new id
    assert rows[2]["question"] == "Who came to the mill?" and rows[2]["ex-or-im2"] == ""
    prov = _parsed(tmp_path / "out/provenance/val/miller-and-fox-provenance.csv")
    header = prov[0]
    prov = [dict(zip(header, r)) for r in prov[1:]]
    assert [(p["origin"], p["edited"]) for p in prov] == [
        ("dataset", "no"),
        ("dataset", "yes"),
        ("person", "no"),
    ]
    assert prov[1]["edited_by"] == "teacher:ana" and prov[2]["created_by"] == "annotator:bo"
    # the sidecar is beside the layout: the folder still reads as FairytaleQA
    assert [len(s.questions) for s in read_split(tmp_path / "out", "val")] == [3]


def test_storyqa_and_hf_exports(fixture_dir, tmp_path):
    store = Store()
    result = import_story(store, read_story(fixture_dir, "val", "miller-and-fox"))
    exported = export_project(store, result.project_id)
    from qg_studio.data.export import write_export

    write_export(tmp_path / "sq", exported, "storyqa")
    lines = [json.loads(x) for x in (tmp_path / "sq/val.jsonl").read_text().splitlines()]
    assert [x["answer_kind"] for x in lines] == ["extractive", "abstractive", "extractive"]
    assert [x["in_story"] for x in lines] == [True, False, True]
    assert lines[1]["context"] == SECTIONS_A[1] + "\n" + SECTIONS_A[2]
    assert lines[0]["provenance"]["origin"] == "dataset"

    write_export(tmp_path / "hf", exported, "hf")
    table = _parsed(tmp_path / "hf/val.csv")
    assert table[0] == [
        "story_name",
        "story_section",
        "question",
        "answer1",
        "answer2",
        "local-or-sum",
        "attribute",
        "ex-or-im",
        "ex-or-im2",
    ]
    assert table[2][4] == "the miller fed him" and table[2][6] == "causal relationship"
    records = [json.loads(x) for x in (tmp_path / "hf/val.jsonl").read_text().splitlines()]
    assert records[0]["story_section"] == SECTIONS_A[0]

    # a teacher set gets provenance columns after the fixed ones
    store.add_items(
        result.story_id,
        [
            build_item(
                {
                    "question": "Did the fox get bread?",
                    "answers": ["yes"],
                    "element": "action",
                    "explicitness": "implicit",
                    "sections": "2",
                },
                store.get_story(result.story_id).sections,
            )[0]
        ],
        actor="embedded",
    )
    write_export(tmp_path / "hf2", export_project(store, result.project_id), "hf")
    table = _parsed(tmp_path / "hf2/val.csv")
    assert table[0][-3:] == ["origin", "created_by", "edited"]
    assert table[-1][-3:] == ["engine", "embedded", "no"]
    write_export(tmp_path / "sq2", export_project(store, result.project_id), "storyqa")
    last = json.loads((tmp_path / "sq2/val.jsonl").read_text().splitlines()[-1])
    assert last["answer_kind"] == "yesno"


def test_cells_that_look_like_formulas_are_written_as_text_and_read_back(tmp_path):
    store = Store()
    project = store.create_project("formulas")
    sections = [Section(1, "The sum was =1+1 on the slate.")]
    story_id = store.add_story(project, "Slate", sections[0].text, sections)
    item, _ = build_item(
        {
            "question": '=HYPERLINK("x")',
            "answers": ["-1", "'=q"],
            "element": "action",
            "explicitness": "implicit",
            "sections": [1],
        },
        sections,
    )
    store.add_items(story_id, [item], actor="teacher")
    from qg_studio.data.export import write_export

    write_export(tmp_path / "out", export_project(store, project), "fairytaleqa")
    raw = _parsed(tmp_path / "out/questions/train/slate-questions.csv")[1]
    assert raw[5] == '\'=HYPERLINK("x")' and raw[7] == "'-1" and raw[8] == "''=q"
    back = read_split(tmp_path / "out", "train")[0].questions[0]
    assert back.row["question"] == '=HYPERLINK("x")' and back.answers == ["-1", "'=q"]


def test_invalid_annotations_are_refused_naming_the_field():
    sections = [Section(1, SECTIONS_A[0]), Section(2, SECTIONS_A[1])]
    good = {
        "question": "Where did the miller live?",
        "answers": ["by a cold river"],
        "element": "setting",
        "explicitness": "explicit",
        "scope": "local",
        "sections": [1],
    }
    item, warnings = build_item(good, sections)
    assert item.sections == [1] and warnings == []
    cases = [
        ({"element": "villain"}, "element"),
        ({"sections": [5]}, "sections"),
        ({"sections": []}, "sections"),
        ({"answers": [""]}, "answer1"),
        ({"question": "  "}, "question"),
        ({"explicitness": "maybe"}, "explicitness"),
        ({"element2": "hero"}, "element2"),
        ({"second_explicitness": "implicit"}, "answer4"),
    ]
    for change, field in cases:
        with pytest.raises(AnnotationError) as err:
            build_item({**good, **change}, sections)
        assert [i.field for i in err.value.issues] == [field], change
        assert str(err.value).startswith(field + ":")
    item, warnings = build_item({**good, "second_answers": ["by a cold river"]}, sections)
    assert [(w.field, w.level) for w in warnings] == [("second explicitness", "warning")]
    # an explicit answer that is not in the cited section is let through with a warning
    item, warnings = build_item({**good, "answers": ["by the sea"]}, sections)
    assert item is not None and [(w.field, w.level) for w in warnings] == [("answer1", "warning")]
    assert "not a span of section(s) 1" in warnings[0].message


def test_validate_row_names_the_columns():
    sections = [Section(1, SECTIONS_A[0])]
    issues = validate_row(
        {
            "question": "Q?",
            "attribute1": "hero",
            "ex-or-im1": "explicit",
            "local-or-sum": "local",
            "cor_section": "1, 4",
            "answer1": "a miller",
        },
        sections,
    )
    assert sorted(i.field for i in issues) == ["attribute1", "cor_section"]


def test_a_bad_row_imports_nothing_of_its_story(fixture_dir, capsys):
    path = fixture_dir / "questions/val/goose-girl-questions.csv"
    path.write_bytes(path.read_bytes().replace(b"outcome resolution", b"villainy"))
    assert main(["data", "import", str(fixture_dir), "--split", "val"]) == 2
    err = capsys.readouterr().err
    assert "goose-girl-questions.csv row 3" in err and "villainy" in err
    assert Store().list_projects() == []  # all or nothing: no story half-imported


def test_stats_figures(fixture_dir, capsys):
    stats = split_stats(read_split(fixture_dir, "val"))
    assert stats["stories"] == 2 and stats["qa_pairs"] == 5
    assert stats["sections_per_story"] == 2.5
    assert stats["elements"]["action"] == 0.2 and stats["elements"]["character"] == 0.2
    assert stats["explicit_share"] == 0.6
    assert stats["questions_per_section"] == 1.0
    assert stats["two_annotator_pairs"] == 3  # rows with answer4
    assert main(["data", "stats", str(fixture_dir), "--split", "val", "--json"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert list(last)[:5] == [
        "stories",
        "qa_pairs",
        "sections_per_story",
        "elements",
        "explicit_share",
    ]
    assert last["qa_pairs"] == 5 and 0 < last["agreement_rouge_l"] < 1


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["data", "stats", str(tmp_path), "--split", "val"]) == 2
    assert "no FairytaleQA stories" in capsys.readouterr().err
    assert main(["data", "export", "nope", "--format", "hf", "--out", str(tmp_path)]) == 2
    assert "no project named 'nope'" in capsys.readouterr().err
    Store().create_project("Empty")
    assert main(["data", "export", "Empty", "--format", "hf", "--out", str(tmp_path)]) == 2
    assert "hold no stories" in capsys.readouterr().err


def test_write_split_of_read_split_is_identity(fixture_dir, tmp_path):
    stories = read_split(fixture_dir, "val")
    write_split(tmp_path / "copy", "val", stories)
    for rel in _data_files(fixture_dir, "val"):
        assert (tmp_path / "copy" / rel).read_bytes() == (fixture_dir / rel).read_bytes()


def test_data_validate_reports_rows_by_column(fixture_dir, capsys):
    assert main(["data", "validate", str(fixture_dir), "--split", "val", "--json"]) == 1
    out = capsys.readouterr().out
    assert "miller-and-fox-questions.csv row 4: error: ex-or-im2: unknown label 'doubt'" in out
    assert json.loads(out.strip().splitlines()[-1])["by_field"] == {
        "error:ex-or-im2": 1,
        "warning:answer2": 1,
    }  # answer2 is only a space


def test_story_names_that_would_leave_the_folder_are_refused(fixture_dir, tmp_path, capsys):
    assert main(["data", "import", str(fixture_dir), "--split", "val"]) == 0
    assert (
        main(
            [
                "data",
                "export",
                "all",
                "--format",
                "fairytaleqa",
                "--out",
                str(tmp_path / "out"),
                "--split",
                "../escape",
            ]
        )
        == 2
    )
    assert "must not contain /" in capsys.readouterr().err
    assert not (tmp_path / "escape").exists()
