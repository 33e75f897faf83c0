"""Every export read back by the reader a platform or a teacher would use."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
import zipfile

import openpyxl
import pytest
from export_story import HOSTILE_TEXTS
from export_story import hostile_items
from export_story import items
from export_story import sections
from moodle_readers import read_aiken
from moodle_readers import read_gift
from moodle_readers import read_moodle_xml
from moodle_readers import right_answers
from moodle_readers import shown

from qg_studio.export import FORMATS
from qg_studio.export import export_story
from qg_studio.export.platforms import KAHOOT_HEADER
from qg_studio.export.quizset import TEMPLATES
from qg_studio.export.worksheet import WorksheetOptions

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
CP = "{http://www.imsglobal.org/xsd/imscp_v1p1}"


@pytest.fixture(scope="module")
def story():
    secs = sections()
    return secs, items(secs)


def _book(data: bytes):
    return openpyxl.load_workbook(io.BytesIO(data))


def _csv(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def _exported(all_items):
    return [i for i in all_items if i.status.value != "dropped"]


# -- the worksheet --------------------------------------------------------------------


def test_worksheet_has_student_key_and_teacher_sheets(story):
    secs, its = story
    result = export_story("xlsx", "Greta and the gold", secs, its)
    wb = _book(result.data)
    assert wb.sheetnames == ["Worksheet", "Answer key", "Teacher"]
    student = [c.value for c in wb["Worksheet"]["B"] if c.value]
    assert "Greta and the gold" in student[0]
    assert secs[0].text in student and secs[1].text in student  # the story, numbered
    numbers = [c.value for c in wb["Worksheet"]["A"] if c.value]
    assert numbers[:2] == [1, 2]  # section numbers as in the tool
    exported = _exported(its)
    assert f"{len(exported)}." in numbers and f"{len(exported) + 1}." not in numbers
    assert "What did the king say about the weather?" not in student  # dropped
    # each question is followed by empty answer lines with a bottom border
    ws = wb["Worksheet"]
    q_row = next(c.row for c in ws["B"] if c.value == "Who rode past the mill?")
    assert ws.cell(q_row + 1, 2).value in (None, "") and ws.cell(q_row + 1, 2).border.bottom.style
    key = wb["Answer key"]
    assert [c.value for c in key[2]] == ["#", "Question", "Answer", "Section"]
    by_question = {r[1]: r for r in key.iter_rows(min_row=3, values_only=True)}
    assert by_question["Who rode past the mill?"][2] == "the king"
    number = by_question["Who rode past the mill?"][0]
    assert ws.cell(q_row, 1).value == f"{number}."  # same numbering as the student sheet
    teacher = wb["Teacher"]
    header = [c.value for c in teacher[2]]
    row = next(
        r
        for r in teacher.iter_rows(min_row=3, values_only=True)
        if r[2] == "Who rode past the mill?"
    )
    record = dict(zip(header, row))
    assert record["Element"] == "character" and record["Explicitness"] == "explicit"
    assert "the king rode past the mill" in record["Evidence"]
    assert record["Engine"] == "embedded" and record["Confidence"] == 0.9


def test_worksheet_print_setup_and_options(story):
    secs, its = story
    a4 = _book(export_story("xlsx", "T", secs, its).data)
    letter = _book(
        export_story(
            "xlsx",
            "T",
            secs,
            its,
            worksheet=WorksheetOptions(paper="letter", questions_only=True, show_element=True),
        ).data
    )
    for wb, size in ((a4, 9), (letter, 1)):  # openpyxl: 9 = A4, 1 = Letter
        for ws in wb.worksheets:
            assert int(ws.page_setup.paperSize) == size
            assert ws.sheet_properties.pageSetUpPr.fitToPage
            assert int(ws.page_setup.fitToWidth) == 1 and int(ws.page_setup.fitToHeight) == 0
    assert a4["Answer key"].print_title_rows == "$2:$2"
    assert a4["Teacher"].page_setup.orientation == "landscape"
    cell = next(c for c in a4["Worksheet"]["B"] if c.value == secs[0].text)
    assert cell.alignment.wrap_text and a4["Worksheet"].row_dimensions[cell.row].height > 40
    texts = [c.value for c in letter["Worksheet"]["B"] if c.value]
    assert secs[0].text not in texts  # questions only
    assert any(t.startswith("Who rode past the mill?") and "(character)" in t for t in texts)


def test_worksheet_kept_only_and_layout_from_template(story, tmp_path):
    secs, its = story
    text = (TEMPLATES / "worksheet.toml").read_text()
    custom = tmp_path / "school.toml"
    custom.write_text(text.replace('title = "Reading comprehension"', 'title = "Year 3 reading"'))
    wb = _book(
        export_story(
            "xlsx", "T", secs, its, kept_only=True, worksheet=WorksheetOptions(template=custom)
        ).data
    )
    student = [c.value for c in wb["Worksheet"]["B"] if c.value]
    assert student[0] == "Year 3 reading: T"
    assert "How did Greta feel in the room?" not in student  # unreviewed, not kept


# -- Kahoot and Quizizz ---------------------------------------------------------------


def test_kahoot_header_row_8_and_right_answer(story):
    secs, its = story
    result = export_story("kahoot", "T", secs, its)
    ws = _book(result.data).active
    assert [ws.cell(8, c).value for c in range(2, 9)] == KAHOOT_HEADER
    assert ws.cell(8, 1).value is None
    rows = [r for r in ws.iter_rows(min_row=9, values_only=True) if r[1]]
    by_question = {r[1]: r for r in rows}
    row = by_question["Who rode past the mill?"]
    answers = list(row[2:6])
    assert answers[int(row[7]) - 1] == "the king"
    assert sum(a is not None and a != "" for a in answers) == 4
    assert row[6] in (5, 10, 20, 30, 60, 90, 120, 240)
    yes_no = by_question["Was the miller proud?"]
    assert yes_no[2:4] == ("Yes", "No") and yes_no[7] == "1"
    for r in rows:
        assert len(r[1]) <= 120 and all(len(a or "") <= 75 for a in r[2:6])
    # the long open prediction question is listed as skipped, not silently lost
    assert any("What do you think" in s for s in result.report.skipped)
    assert result.report.written == len(rows) == 5


def test_kahoot_shortens_to_its_limits_and_says_so(story):
    secs, its = story
    long = items(secs)[0]
    long.question = "Who, " + "on a very bright and windy morning, " * 5 + "rode past the mill?"
    result = export_story("kahoot", "T", secs, [long])
    ws = _book(result.data).active
    assert len(ws.cell(9, 2).value) <= 120 and ws.cell(9, 2).value.endswith("…")
    assert result.report.shortened and "Q1 question" in result.report.shortened[0]
    assert any("shortened" in w for w in result.report.warnings())


def test_quizizz_choices_and_open_questions(story):
    secs, its = story
    ws = _book(export_story("quizizz", "T", secs, its).data).active
    header = [c.value for c in ws[1]]
    assert header[:8] == [
        "Question Text",
        "Question Type",
        "Option 1",
        "Option 2",
        "Option 3",
        "Option 4",
        "Option 5",
        "Correct Answer",
    ]
    rows = {r[0]: dict(zip(header, r)) for r in ws.iter_rows(min_row=2, values_only=True)}
    mc = rows["Why did the little man spin the straw?"]
    assert mc["Question Type"] == "Multiple Choice"
    assert mc[f"Option {mc['Correct Answer']}"] == "because she gave him her necklace"
    open_q = next(v for k, v in rows.items() if k.startswith("What do you think"))
    assert open_q["Question Type"] == "Open-Ended"
    assert "spin even more straw" in open_q["Answer explanation"]
    assert len(rows) == len(_exported(its))


# -- Blooket and Gimkit -----------------------------------------------------------------


def test_blooket_csv(story):
    secs, its = story
    rows = _csv(export_story("blooket", "T", secs, its).data)
    assert rows[0][0] == "Blooket\nImport Template"
    assert rows[1][:3] == ["Question #", "Question Text", "Answer 1"]
    assert rows[1][7] == "Correct Answer(s)\n(Only include Answer #)"
    data = {r[1]: r for r in rows[2:]}
    row = data["Where did the miller live?"]
    assert row[1 + int(row[7])] == "near the dark forest"
    assert [int(r[0]) for r in rows[2:]] == list(range(1, len(rows) - 1))
    assert all(int(r[6]) <= 300 for r in rows[2:])


def test_gimkit_csv(story):
    secs, its = story
    rows = _csv(export_story("gimkit", "T", secs, its).data)
    assert rows[0][0] == "Gimkit Spreadsheet Import Template"
    assert rows[1] == [
        "Question",
        "Correct Answer",
        "Incorrect Answer 1",
        "Incorrect Answer 2 (Optional)",
        "Incorrect Answer 3 (Optional)",
    ]
    data = {r[0]: r for r in rows[2:]}
    assert data["How did Greta feel in the room?"][1] == "frightened"
    wrong = data["How did Greta feel in the room?"][2:]
    assert "frightened" not in wrong and all(wrong)


# -- Moodle -------------------------------------------------------------------------------


def test_gift_grammar_and_right_answers(story):
    secs, its = story
    parsed = read_gift(export_story("gift", "T", secs, its).data.decode("utf-8"))
    assert len(parsed) == len(_exported(its))
    by_text = {q["text"]: q for q in parsed}
    mc = by_text["Who rode past the mill?"]
    assert mc["type"] == "multichoice" and right_answers(mc) == ["the king"]
    assert len(mc["answers"]) == 4
    essay = next(q for t, q in by_text.items() if t.startswith("What do you think"))
    assert essay["type"] == "essay" and "spin even more straw" in shown(*essay["feedback"])


def test_aiken_grammar(story):
    secs, its = story
    result = export_story("aiken", "T", secs, its)
    parsed = read_aiken(result.data.decode("utf-8"))
    q = next(q for q in parsed if q["text"] == "Where did the miller live?")
    assert q["answer"] == "near the dark forest"
    assert len(parsed) == result.report.written and result.report.skipped


def test_moodle_xml(story):
    secs, its = story
    data = export_story("moodle-xml", "T", secs, its).data
    ET.fromstring(data)  # well-formed for any XML parser too
    questions = read_moodle_xml(data)
    assert len(questions) == len(_exported(its))
    for q in questions:
        if q["type"] == "multichoice":
            right = [t for f, t in q["answers"] if f == 1.0]
            expected = next(i for i in its if i.question == q["text"]).answer
            assert right == ([expected] if expected != "yes" else ["Yes"])
            assert len(q["answers"]) >= 2
    assert {q["type"] for q in questions} == {"multichoice", "essay"}
    essay = next(q for q in questions if q["type"] == "essay")
    assert "spin even more straw" in essay["graderinfo"]


def test_qti_package(story):
    secs, its = story
    archive = zipfile.ZipFile(io.BytesIO(export_story("qti", "T", secs, its).data))
    manifest = ET.fromstring(archive.read("imsmanifest.xml"))
    resources = manifest.findall(f"{CP}resources/{CP}resource")
    item_files = [r.get("href") for r in resources if r.get("type") == "imsqti_item_xmlv2p1"]
    assert len(item_files) == len(_exported(its))
    assert set(item_files) | {"test.xml", "imsmanifest.xml"} == set(archive.namelist())
    test = ET.fromstring(archive.read("test.xml"))
    refs = [r.get("href") for r in test.iter(f"{QTI}assessmentItemRef")]
    assert refs == item_files
    seen = set()
    for href in item_files:
        item = ET.fromstring(archive.read(href))
        assert item.tag == f"{QTI}assessmentItem"
        correct = item.find(f"{QTI}responseDeclaration/{QTI}correctResponse/{QTI}value").text
        choice = item.find(f".//{QTI}choiceInteraction")
        if choice is not None:
            prompt = choice.find(f"{QTI}prompt").text
            options = {c.get("identifier"): c.text for c in choice.findall(f"{QTI}simpleChoice")}
            expected = next(i for i in its if i.question == prompt).answer
            assert options[correct].lower() == expected.lower()
            assert item.find(f"{QTI}responseProcessing") is not None
            seen.add("choice")
        else:
            assert item.find(f".//{QTI}extendedTextInteraction") is not None
            assert "spin even more straw" in correct
            seen.add("open")
    assert seen == {"choice", "open"}


# -- hostile text -------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_hostile_story_exports_without_formulas_or_broken_files(fmt):
    secs = sections(HOSTILE_TEXTS)
    its = hostile_items(secs)
    result = export_story(fmt, '=HYPERLINK("http://x","y") 😀 שלום', secs, its)
    data = result.data
    texts: list[str] = []
    if result.filename.endswith(".xlsx"):
        wb = _book(data)
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                for cell in row:
                    assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
                    if isinstance(cell.value, str):
                        texts.append(cell.value)
        # text that looks like a formula is marked so re-editing keeps it text
        flagged = [
            c
            for ws in wb.worksheets
            for row in ws.iter_rows()
            for c in row
            if isinstance(c.value, str) and c.value[:1] in "=+-@"
        ]
        assert flagged and all(c.quotePrefix for c in flagged)
    elif fmt in ("blooket", "gimkit"):
        rows = _csv(data)
        for row in rows:
            for cell in row:
                assert cell[:1] not in ("=", "+", "-", "@", "\t", "\r", "'"), cell
                texts.append(cell)
    elif fmt == "gift":
        parsed = read_gift(data.decode("utf-8"))
        assert len(parsed) == result.report.written
        texts += [q["text"] for q in parsed] + [a for q in parsed for _, _, a in q["answers"]]
        sing = next(q for q in parsed if q["text"].startswith("What did Greta sing"))
        assert sing["text"] == "What did Greta sing {to} herself: ~=#?"
        assert right_answers(sing) == ["مرحبا"]
    elif fmt == "aiken":
        parsed = read_aiken(data.decode("utf-8"))
        texts += [q["text"] for q in parsed] + [o for q in parsed for o in q["options"]]
    elif fmt == "moodle-xml":
        parsed = read_moodle_xml(data)
        texts += [q["text"] for q in parsed] + [a for q in parsed for _, a in q["answers"]]
    else:
        archive = zipfile.ZipFile(io.BytesIO(data))
        for name in archive.namelist():
            root = ET.fromstring(archive.read(name))
            texts += [t.text or "" for t in root.iter()]
    joined = "\n".join(texts)
    assert "😀" in joined and ("שלום" in joined or fmt in ("aiken",))
    assert 'HYPERLINK("http://x","y")' in joined
    assert result.report.written >= 4


def test_a_long_answer_with_a_short_one_beside_it_stays_a_choice_question():
    """The worksheet keeps the teacher's full answer; a quiz takes the short one she gave
    beside it instead of dropping the question as an essay."""
    from qg_studio.export.quizset import prepare
    from qg_studio.export.quizset import quiz_key
    from qg_studio.schema import QAItem

    secs = sections()
    full = (
        "a little man who came in at midnight and spun all of the straw into gold because "
        "she gave him her necklace"
    )
    item = QAItem(
        "Who helped Greta?", [full, "a little man"], "character", "explicit", sections=[2]
    )
    [question] = prepare([item], secs)
    assert question.answer == "a little man" and question.options
    assert question.options[question.correct] == "a little man"
    assert quiz_key([full], 15) == full  # none short given: the full one, an open question
