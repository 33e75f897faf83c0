"""One text layer: sentences, stop words, stems and the answer kind each have one home
(qg_studio/text/, qg_studio/answer_kind.py), and the word lists are data files that load
and ship with the package."""

from __future__ import annotations

import ast
import fnmatch
import re
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from qg_studio import lang
from qg_studio.answer_kind import answer_kind
from qg_studio.schema import AnswerKind
from qg_studio.schema import Section
from qg_studio.text import words as text_words
from qg_studio.text.evidence import best_sentence
from qg_studio.text.parse import get_nlp
from qg_studio.text.sentences import sentence_start
from qg_studio.text.sentences import sentences

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "qg_studio"
FILES = sorted(PACKAGE.rglob("*.py"))

# The few places allowed their own rule, each with its reason in a comment there.
SENTENCE_RULE_HOMES = {
    "qg_studio/text/sentences.py",
    "qg_studio/models/prompts.py",  # training windows: must cut exactly as the trained models saw
    "qg_studio/story.py",  # the sectioner's "line ends a sentence" feature, not a splitter
}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def test_only_the_text_layer_cuts_sentences_with_a_regex():
    found = []
    for path in FILES:
        for node in ast.walk(_tree(path)):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and "[.!?]" in node.value
                and _rel(path) not in SENTENCE_RULE_HOMES
            ):
                found.append(f"{_rel(path)}:{node.lineno}")
    assert not found, f"a sentence rule outside qg_studio/text/: {found}"


def test_the_check_sees_a_sentence_regex(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text('import re\n_S = re.compile(r"(?<=[.!?])\\s+")\n', encoding="utf-8")
    assert any(
        isinstance(n, ast.Constant) and "[.!?]" in str(n.value) for n in ast.walk(_tree(sample))
    )


def test_no_module_keeps_its_own_stop_words_stemmer_or_answer_kind():
    stop_sets, stemmers, kinds, spacy_stop = [], [], [], []
    for path in FILES:
        rel = _rel(path)
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if (
                        isinstance(target, ast.Name)
                        and "STOP" in target.id.upper()
                        and isinstance(node.value, (ast.Set, ast.Call, ast.List))
                        and not (
                            isinstance(node.value, ast.Call)
                            and getattr(node.value.func, "id", "") == "stop_words"
                        )
                    ):
                        stop_sets.append(f"{rel}:{node.lineno}")
            elif isinstance(node, ast.FunctionDef):
                if "stem" in node.name and not rel.startswith("qg_studio/text/"):
                    stemmers.append(f"{rel}:{node.name}")
                if node.name == "answer_kind" and rel != "qg_studio/answer_kind.py":
                    kinds.append(rel)
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module == "spacy.lang.en.stop_words"
                and not rel.startswith("qg_studio/text/")
            ):
                spacy_stop.append(rel)
    assert not stop_sets, f"stop-word lists outside text.words.stop_words: {stop_sets}"
    assert not stemmers, f"stemmers outside text.words.stem: {stemmers}"
    assert not kinds, f"answer_kind defined outside qg_studio/answer_kind.py: {kinds}"
    assert not spacy_stop, f"spaCy's stop words read outside text.words: {spacy_stop}"


def test_one_formula_guard():
    homes = [
        _rel(p)
        for p in FILES
        if re.search(r"^FORMULA_STARTS\s*=", p.read_text(encoding="utf-8"), re.M)
    ]
    assert homes == ["qg_studio/export/safety.py"]


TRICKY = (
    'The fox ran. "Stop!" cried the hen. "Who goes there?" Mr. Fox said nothing.\n\n'
    "Then all was quiet\n\n"
    "\u201cCome back,\u201d said the hen. \u201cPlease!\u201d The fox did not."
)


def test_sentences_keep_speech_with_its_tag_and_split_paragraphs():
    assert [TRICKY[a:b] for a, b in sentences(TRICKY)] == [
        "The fox ran.",
        '"Stop!" cried the hen.',  # speech goes on into its lower-case tag
        '"Who goes there?"',
        "Mr. Fox said nothing.",  # a title's full stop ends nothing
        "Then all was quiet",  # a paragraph ends a sentence without a stop
        "\u201cCome back,\u201d said the hen.",
        "\u201cPlease!\u201d",
        "The fox did not.",
    ]
    assert sentence_start(TRICKY, TRICKY.index("hen")) == TRICKY.index('"Stop')


def test_a_parsed_story_has_exactly_the_rules_sentences():
    # One rule: the generator reads doc.sents, the answerers cut raw text (a sentence of
    # the doc also holds the spaces after it, as spaCy's tokens do).
    doc = get_nlp()(TRICKY)
    parsed = [(s.start_char, s.start_char + len(s.text.rstrip())) for s in doc.sents]
    assert parsed == sentences(TRICKY)


def test_words_keep_contractions_and_possessives_whole():
    assert text_words.words("The Fox\u2019s den? She didn't know 12 ways.") == [
        "the", "fox's", "den", "she", "didn't", "know", "12", "ways",
    ]  # fmt: skip
    # Content words drop the possessive and stem: "fox's dens" matches "the fox's den".
    assert text_words.content_words("the fox's dens") == ["fox", "den"]
    # ...and keep what a child's question hinges on, which spaCy's list drops.
    assert text_words.content_words("Who did he give it back to first?") == [
        "give",
        "back",
        "first",
    ]


def test_the_best_sentence_is_the_one_sharing_the_rare_words():
    section = Section(3, "The hen sang. The fox hid the golden egg under a stone. It rained.")
    found = best_sentence("Where did the fox hide the egg?", [section])
    assert found is not None and found.section == 3
    assert found.text == "The fox hid the golden egg under a stone."
    assert section.text[found.start : found.end] == found.text


def test_a_hard_wrapped_line_is_not_a_sentence():
    # A story pasted from a book breaks its lines mid-sentence.
    text = (
        "When the feast was over, and everybody had gone to rest, all but the\n"
        "Miller and his old dog, the Miller walked back to the mill.\n"
        "He lit the lamp."
    )
    assert [text[a:b] for a, b in sentences(text)] == [
        text[: text.index("He lit")].strip(),
        "He lit the lamp.",
    ]


def test_stop_words_stems_and_numbers():
    w = text_words
    assert "the" in w.stop_words() and "fox" not in w.stop_words()
    # The measured lists keep words spaCy drops: "give" matters to a question about a gift.
    assert "give" in w.stop_words() and "give" not in w.stop_words("retrieval")
    assert w.stem("walked") == w.stem("walking") == "walk"
    assert w.like_num("twelve") and w.like_num("12") and not w.like_num("twelfth-night")


def test_answer_kind_from_question_and_from_answer():
    assert answer_kind("Did the fox run away?") is AnswerKind.YESNO
    assert answer_kind("Was the hen brave or afraid?") is AnswerKind.EXTRACTIVE
    assert answer_kind("What will the hen do next?") is AnswerKind.ABSTRACTIVE
    assert answer_kind(answer="Yes, she will", explicitness="implicit") is AnswerKind.YESNO
    assert answer_kind(answer="no one came", explicitness="explicit") is AnswerKind.EXTRACTIVE
    # With the text: an explicit answer that is not in it is written, not copied.
    assert (
        answer_kind(answer="a red cart", explicitness="explicit", text="The fox ran off.")
        is AnswerKind.ABSTRACTIVE
    )


DATA_FILES = sorted(
    p for p in (PACKAGE / "lang" / "en").iterdir() if p.suffix in (".txt", ".json", ".tsv")
)


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_every_data_file_loads_and_ships(path):
    if path.suffix == ".json":
        assert lang.data(path.name)
    elif path.suffix == ".tsv":
        assert lang.table(path.name)
    else:
        assert lang.text(path.name).strip()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = package_data["tool"]["setuptools"]["package-data"]["qg_studio"]
    assert any(fnmatch.fnmatch(f"lang/en/{path.name}", g) for g in globs), (
        f"{path.name} would not install: add it to [tool.setuptools.package-data]"
    )


def test_the_lexicons_hold_what_the_engines_rely_on():
    from qg_studio.answering.feeling import feeling_answer
    from qg_studio.reading.dialogue import GREETINGS
    from qg_studio.reading.lexicon import feeling_word

    assert feeling_word("tremble", "trembling") == "afraid"  # shown, by lemma
    assert feeling_word("happy", "happy") == "happy"  # named
    assert feeling_answer("How did the trolls feel?", "the trolls screamed") == "scared"
    assert "good-morning" in GREETINGS
    assert lang.table("feelings.tsv") is lang.table("feelings.tsv")  # loaded once


def test_the_feeling_table_is_the_one_home_of_feeling_words():
    rows = lang.table("feelings.tsv")
    words = [r["word"] for r in rows]
    assert len(words) == len(set(words)), "a feeling word twice in the table"
    table = set(words)
    # Every feeling a cue gives (a reaction, a causing verb, a deed done to someone) and
    # every feeling a shown word stands for is a word of the table, so they cannot drift.
    cues = lang.data("feeling_cues.json")
    given = {*cues["reactions"].values(), *cues["causing_verbs"].values()}
    given |= {*cues["done_to"].values(), *cues["done_to_theirs"].values()}
    given |= {*cues["lost_with"].values(), cues["given"]["feeling"]}
    given |= {r["feeling"] for r in rows}
    assert given <= table, f"feelings missing from feelings.tsv: {sorted(given - table)}"
    # A child's answer word is a feeling word, and each named one is its own feeling.
    assert all(r["feeling"] == r["word"] for r in rows if r["named"] and not r["shown"])


def test_a_line_break_inside_a_name_reads_as_one_space():
    from qg_studio.reading.analysis import analyse

    text = "The\r\npeople of the valley could not sleep. The old\nwoodcutter went home."
    subjects = [c.subject_text for cl in analyse(text).sentence_clauses for c in cl]
    assert subjects == ["the people of the valley", "the old woodcutter"]


def test_the_pipelines_components_say_what_they_need_and_set():
    # spaCy checks each component's requires against what runs before it.
    analysis = get_nlp().analyze_pipes(pretty=False)
    assert analysis["summary"]["qg_sentence_breaks"]["assigns"] == ["token.is_sent_start"]
    assert not any(analysis["problems"].values()), analysis["problems"]


def test_spacy_loads_without_torch_and_torch_still_loads_after(tmp_path):
    # A fresh process: sectioning must not pay for torch, and a model loaded later in the
    # same process still finds it.
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from qg_studio.text.parse import get_nlp\n"
        "assert [s.text for s in get_nlp()('It rained. We stayed in.').sents]\n"
        "print('torch' in sys.modules)\n"
        "import torch\n"
        "from transformers.utils import is_torch_available\n"
        "print(is_torch_available(), torch.zeros(2).sum().item())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path
    ).stdout.split()
    assert out == ["False", "True", "0.0"]


def test_a_past_with_one_consonant_after_one_short_syllable_keeps_its_verbs_e():
    doc = get_nlp()(
        "Sami stared at the moon. The wolf scared the sheep. The doctor cured him. "
        "The road was barred. The sky cleared. She poured the milk. The boat scraped the "
        "sand. He visited his aunt. The rabbit hopped away."
    )
    lemmas = {t.text: t.lemma_ for t in doc if t.tag_ in ("VBD", "VBN") and t.lower_.endswith("ed")}
    assert lemmas == {
        "stared": "stare",
        "scared": "scare",
        "cured": "cure",
        "barred": "bar",
        "cleared": "clear",
        "poured": "pour",
        "scraped": "scrape",
        "visited": "visit",
        "hopped": "hop",
    }


def test_a_day_before_a_name_is_the_time_and_the_name_the_subject():
    doc = get_nlp()("On Friday Marek walked past the mill. In May Tomas planted beans.")
    subjects = {t.head.text: t.text for t in doc if t.dep_ == "nsubj"}
    assert subjects == {"walked": "Marek", "planted": "Tomas"}
    assert [t.text for t in doc if t.dep_ == "pobj" and t.head.lower_ in ("on", "in")] == [
        "Friday",
        "May",
    ]


@pytest.mark.parametrize(
    "sentence, outcome, concession",
    [
        (
            "The seedlings drooped and turned brown, however much water she gave them.",
            "drooped",
            "gave",
        ),
        (
            "In August the leaves curled and fell, however much water she carried to them.",
            "curled",
            "carried",
        ),
        ("The door of the shed stayed shut, whatever the boy tried.", "stayed", "tried"),
    ],
)
def test_a_concession_is_a_clause_of_what_happened_not_its_root(sentence, outcome, concession):
    doc = get_nlp()(sentence)
    root = next(doc.sents).root
    assert root.text == outcome
    verb = next(t for t in doc if t.text == concession)
    assert verb.dep_ == "advcl" and verb.head.i in {root.i} | {c.i for c in root.children}


def test_what_did_not_help_is_asked_as_no_deed():
    from qg_studio.generation.embedded import EmbeddedGenerator
    from qg_studio.schema import GenerationRequest

    text = (
        "Mira planted three apple trees by the river. In August the leaves curled and fell, "
        "however much water she carried to them. When the frost came, the young trees "
        "cracked, however much straw she gave them."
    )
    items = EmbeddedGenerator().generate([Section(1, text)], GenerationRequest(count=None))
    answers = [i.answer for i in items]
    assert not [a for a in answers if "however" in a or a.startswith(("gave", "carried"))]
    assert "Mira" in {i.answer for i in items if i.question.startswith("Who planted")}
