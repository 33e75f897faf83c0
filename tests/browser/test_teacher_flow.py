"""A teacher's whole session in a real browser: story → generate → curate → worksheet."""

from __future__ import annotations

import re

import openpyxl
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from streamlit_helpers import open_page
from streamlit_helpers import wait_for_app

pytestmark = pytest.mark.browser

STORY = """The Lantern and the Fox

Once upon a time a poor miller lived near the dark forest with his daughter Greta. Every
morning Greta carried bread to the market in a wooden cart, and every evening she gave
the last loaf to whoever was hungriest. The villagers loved her, because she was kind to
every creature she met. One winter the river froze and the great wheel of the mill stopped
turning. Without the wheel there was no flour, and without flour there was no money. The
miller sat by the cold fire and held his head in his hands. Greta watched him for a long
time. She wanted to help him, but she did not know how.

The next morning Greta walked into the forest to gather firewood. The snow was deep and the
trees were silent. Near an old oak she found a red fox caught in a hunter's trap. The fox
was trembling with cold and fear. "Please help me," said the fox. "If you open this trap, I
will repay you." Greta knelt in the snow and pulled the iron jaws apart with all her
strength. The fox sprang free and licked its wounded leg. "Your father's wheel will turn
again," said the fox, "if you bring me a feather from the king's falcon." Before Greta
could ask another question, the fox vanished between the trees.

Greta went home and thought about the strange task. She was afraid, because the king lived
far away and his falcon was guarded by soldiers. Still, she packed bread and a warm shawl,
kissed her father goodbye, and set out along the frozen road. After three days of walking
she reached the king's castle. The walls were high and grey, and a tall guard stood at the
gate. Greta told him honestly why she had come. The guard laughed at her, but an old woman
who swept the courtyard heard the story and led Greta to the tower, where the falcon had
just dropped a long grey feather. That night Greta gave the feather to the fox by the
frozen river, and in the morning the great wheel of the mill began to turn again.
"""


def _select(page, label: str, option: str) -> None:
    """Pick ``option`` in the Streamlit selectbox labelled ``label``."""
    box = page.get_by_label(label, exact=True)
    box.click()
    page.get_by_role("option", name=option).first.click()
    wait_for_app(page)


def _question_options(page) -> list[str]:
    """The entries of the "Question to review" list, as the teacher sees them."""
    picker = page.get_by_label("Question to review", exact=True)
    texts: list[str] = []
    for _ in range(6):  # a rerun that lands while the list is open closes it: try again
        wait_for_app(page)
        picker.click()
        try:
            page.get_by_role("option").first.wait_for(timeout=5_000)
        except PlaywrightTimeout:
            continue
        page.wait_for_timeout(300)  # the list renders all its options after the first
        texts = page.get_by_role("option").all_inner_texts()
        if texts:
            break
    page.keyboard.press("Escape")
    assert texts, "the Question to review list never opened"
    return [t.split(". ", 1)[1] for t in texts]


def test_story_generate_curate_export_worksheet(page, go, app_url, tmp_path):
    # 1. Story: a new project, the story pasted and sectioned.
    go("")
    page.get_by_placeholder("e.g. Class 3B").fill("Browser flow")
    page.get_by_role("button", name="Create").click()
    wait_for_app(page)
    expect(page.get_by_label("Project", exact=True)).to_have_value("Browser flow (0 stories)")
    page.get_by_label("…or paste it here").fill(STORY)
    page.get_by_role("button", name="Section the story").click()
    wait_for_app(page)
    page.get_by_text("Edit sections").wait_for()

    # 2. Generate on the Generate page.
    go("generate")
    page.get_by_role("button", name="Generate questions").click()
    wait_for_app(page, timeout=120_000)
    page.get_by_text(re.compile(r"^\d+ new questions$")).wait_for()

    # 3. Curate: drop the first question, edit the second, add one by hand.
    go("curate")
    before = _question_options(page)
    assert len(before) >= 3
    page.get_by_text("Drop", exact=True).first.click()
    wait_for_app(page)
    _select(page, "Question to review", f"2. {before[1]}")
    field = page.get_by_label("Question", exact=True)
    expect(field).to_have_count(1, timeout=30_000)  # the old editor is gone
    expect(field).to_have_value(before[1])  # the second question's editor
    edited = "What did Greta carry to the market every morning?"
    field.fill(edited)
    field.press("Enter")
    wait_for_app(page)
    expect(page.get_by_label("Question to review", exact=True)).to_have_value(
        f"2. {edited}", timeout=30_000
    )  # saved, and listed under its new text
    page.get_by_text("Add a question by hand").click()
    page.get_by_label("Your question").fill("Who laughed at Greta at the gate?")
    page.get_by_label("Answer (leave empty to let the answerer answer)").fill("the guard")
    page.get_by_role("button", name="Add question").click()
    wait_for_app(page)
    page.get_by_text("Added “Who laughed at Greta at the gate?”").wait_for()

    # 4. Close the tab mid-curation and open the app again: every edit is there.
    context = page.context
    page.close()
    page = context.new_page()
    page.set_default_timeout(45_000)
    open_page(page, app_url, "curate")
    after = _question_options(page)
    assert after[0] == before[0] and after[1] == edited
    assert after[-1] == "Who laughed at Greta at the gate?"
    assert page.get_by_role("radio", name="Drop").first.is_checked()  # item 1 is shown

    # 5. Export the worksheet and read the downloaded file. The question she typed is kept,
    # so Export starts on the kept questions only; she asks for every one not dropped.
    open_page(page, app_url, "export")
    kept_only = page.get_by_label("Only the questions I marked Keep")
    expect(kept_only).to_be_checked()
    kept_only.uncheck(force=True)
    wait_for_app(page)
    with page.expect_download() as download:
        page.get_by_role("button", name=re.compile(r"Download .*worksheet\.xlsx")).click()
    path = tmp_path / "worksheet.xlsx"
    download.value.save_as(path)
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Worksheet", "Answer key", "Teacher"]
    key = {row[1]: row[2] for row in wb["Answer key"].iter_rows(min_row=3, values_only=True)}
    assert key["Who laughed at Greta at the gate?"] == "the guard"
    assert edited in key and before[0] not in key  # edited kept, dropped left out
    assert len(key) == len(before)  # one dropped, one added
    student = [c.value for c in wb["Worksheet"]["B"] if c.value]
    assert any("Greta walked into the forest" in t for t in student)
