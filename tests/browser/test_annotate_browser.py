"""An annotator's whole session in a real browser: upload a story CSV, write QA pairs
(one refused first), do the second annotator's pass, download the FairytaleQA zip, and
load it back with the readers and through ``qg-studio eval qa``."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import open_page
from conftest import wait_for_app

expect = pytest.importorskip("playwright.sync_api").expect

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = [
    "Once a miller lived by a cold river. He had one grey donkey and a small red boat.",
    "One morning a fox came to the mill and asked for bread. The miller gave him a loaf.",
    "The fox ran to the forest and told the bears that the miller was kind.",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.usefixtures("screenshot_on_request", "leave_the_store_as_found"),
]


def _settle(page) -> None:
    wait_for_app(page)


def _choose(page, testid: str, label: str, option: str) -> None:
    box = page.get_by_test_id(testid).filter(has_text=label).first
    choice = page.get_by_role("option", name=option, exact=True)
    for _ in range(3):  # a rerun that starts late can close the list just opened
        box.click()
        try:
            choice.wait_for(timeout=5_000)
            break
        except Exception:
            _settle(page)
    choice.click()
    if testid == "stMultiSelect":  # its list stays open; a selectbox's Escape would clear
        page.keyboard.press("Escape")
    _settle(page)


def _type(page, label: str, text: str, multiline: bool = False) -> None:
    box = page.get_by_label(label, exact=True)
    for attempt in range(3):  # the widget can be replaced by a rerun that starts late
        try:
            box.fill(text, timeout=15_000)
            box.press("Control+Enter" if multiline else "Enter", timeout=15_000)
            break
        except Exception:
            if attempt == 2:
                raise
            _settle(page)
    _settle(page)


def _write_pair(page, question: str, element: str, section: int, answer: str) -> None:
    _type(page, "Question", question, multiline=True)
    _choose(page, "stSelectbox", "Element", element)
    _choose(page, "stMultiSelect", "Sections", f"Section {section}")
    _type(page, "Answer 1", answer)
    page.get_by_role("button", name="Save QA pair").click()
    _settle(page)


def test_annotate_a_story_from_scratch_to_export(app_url, data_dir, page, tmp_path):
    story_csv = tmp_path / "miller-and-fox-story.csv"
    with open(story_csv, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(
            [["section", "text"]] + [[str(i), t] for i, t in enumerate(SECTIONS, 1)]
        )

    open_page(page, app_url, "annotate")
    opener = page.locator("details").filter(has_text="Open a FairytaleQA story")
    opener.wait_for()
    if not opener.evaluate("d => d.open"):  # folded once the store holds projects
        page.get_by_text("Open a FairytaleQA story").click()
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="Story CSV")
    uploader.locator("input[type=file]").set_input_files(str(story_csv))
    _settle(page)
    go = page.get_by_role("button", name="Open as a new project")
    expect(go).to_be_enabled()
    go.click()
    _settle(page)
    page.get_by_text("Sections (3)").wait_for()
    page.get_by_text("Section 2", exact=False).first.wait_for()

    # refused: no element, no section, no answer — each named, nothing saved
    _type(page, "Question", "Where did the miller live?", multiline=True)
    page.get_by_role("button", name="Save QA pair").click()
    _settle(page)
    for field in ("element:", "sections:", "answer1:"):
        page.get_by_text(field, exact=False).first.wait_for()
    assert page.get_by_label("Question", exact=True).input_value() == "Where did the miller live?"
    page.get_by_text("Nothing saved yet.").wait_for()

    _choose(page, "stSelectbox", "Element", "setting")
    _choose(page, "stMultiSelect", "Sections", "Section 1")
    _type(page, "Answer 1", "by a cold river")
    page.get_by_role("button", name="Save QA pair").click()
    _settle(page)
    page.get_by_text("QA pair saved.").wait_for()
    _write_pair(page, "What did the miller give the fox?", "action", 2, "a loaf")
    page.get_by_text("Saved QA pairs (2)").wait_for()

    # second annotator: the first answers are hidden, answer4 is recorded
    page.get_by_text("Second annotator", exact=True).click()
    _settle(page)
    page.get_by_role("button", name="Save second answers").wait_for()
    # expect() waits for the tab's rerun to finish before judging what is hidden.
    expect(page.get_by_label("Answer 1", exact=True)).to_have_count(0, timeout=30_000)
    expect(page.get_by_text("by a cold river", exact=True)).to_have_count(0, timeout=30_000)
    _type(page, "Answer 4", "near a cold river")
    page.get_by_role("button", name="Save second answers").click()
    _settle(page)
    page.get_by_text("Second answers saved.").wait_for()

    from qg_studio.store import DB_NAME
    from qg_studio.store import Store

    with Store(data_dir / DB_NAME) as store:
        project_id = max(p.id for p in store.list_projects() if p.name == "miller-and-fox")
        [stored] = store.list_stories(project_id)
        assert len(store.list_items(stored.id)) == 2

    # a fresh page load finds everything saved, then downloads the FairytaleQA folder
    open_page(page, app_url, "annotate")
    _choose(page, "stSelectbox", "Project", f"miller-and-fox (#{project_id})")
    page.get_by_text("Saved QA pairs (2)").wait_for()
    with page.expect_download() as info:
        page.get_by_test_id("stDownloadButton").filter(has_text="FairytaleQA (.zip)").click()
    archive = tmp_path / "export.zip"
    info.value.save_as(archive)
    folder = tmp_path / "exported"
    zipfile.ZipFile(archive).extractall(folder)

    from qg_studio.data.fairytaleqa import read_split

    [story] = read_split(folder, "train")
    assert story.name == "miller-and-fox"
    assert [s.text for s in story.sections] == SECTIONS
    rows = [q.row for q in story.questions]
    assert [(r["question"], r["attribute1"], r["cor_section"], r["answer1"]) for r in rows] == [
        ("Where did the miller live?", "setting", "1", "by a cold river"),
        ("What did the miller give the fox?", "action", "2", "a loaf"),
    ]
    assert rows[0]["answer4"] == "near a cold river" and rows[0]["ex-or-im2"] == "explicit"
    assert [q.question_id for q in story.questions] == ["1", "2"]
    provenance = (folder / "provenance/train/miller-and-fox-provenance.csv").read_text()
    assert "annotator:annotator" in provenance and "person" in provenance

    # the folder also goes through the QA evaluation, where that command exists
    from qg_studio.cli import build_parser

    try:
        build_parser().parse_args(["eval", "qa", "--data", str(folder), "--split", "train"])
    except SystemExit:
        pytest.skip("qg-studio eval qa is not available in this build")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "qg_studio",
            "eval",
            "qa",
            "--data",
            str(folder),
            "--split",
            "train",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "QG_STUDIO_HOME": str(data_dir), "HF_HUB_OFFLINE": "1"},
    )
    assert result.returncode == 0, result.stderr[-2000:]
    figures = json.loads(result.stdout.strip().splitlines()[-1])
    assert figures["n"] == 2 and 0.0 <= figures["rougeL_f"] <= 1.0
