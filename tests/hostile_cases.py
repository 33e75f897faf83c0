"""The hostile corpus: inputs and machine states a careless or hostile user brings to the
command line, each of which must end in one error line and an exit status, quickly.

A case is (name, make, argv, status): ``make(folder, env)`` builds what the case needs in
``folder`` and sets environment variables in ``env``; it returns the argv (with the
folder's paths) and may return a cleanup. Used by ``tests/test_hostile.py`` (in-process,
every case in the default suite) and ``benchmarks/bench_hostile.py`` (each case in a
fresh process, timed).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

FABLE = (
    "The Ant and the Dove\n\nA thirsty ant went to the river to drink. The water swept "
    "her away, and she was about to drown. A dove sat in a tree over the river. She saw "
    "the ant and dropped a leaf into the water. The ant climbed onto the leaf and floated "
    "to the bank. Soon after, a hunter came and aimed his net at the dove. The ant saw him "
    "and bit his heel. The hunter jumped, and the dove flew away safe.\n"
)
STORE = "qg_studio.sqlite3"


@dataclass
class Case:
    name: str
    make: Callable[[Path, dict], list[str] | tuple[list[str], Callable[[], None]]]
    status: int  # 1: the machine or the store; 2: the input or the arguments
    stdin: str | None = None  # a file to read standard input from


def _story(folder: Path) -> Path:
    path = folder / "fable.txt"
    path.write_text(FABLE, encoding="utf-8")
    return path


def _home(folder: Path, env: dict) -> Path:
    home = folder / "home"
    home.mkdir(exist_ok=True)
    env["QG_STUDIO_HOME"] = str(home)
    return home


def _export(folder: Path) -> list[str]:
    return ["export", "1", "--format", "xlsx", "--out", str(folder / "out.xlsx")]


def store_random_bytes(folder, env):
    (_home(folder, env) / STORE).write_bytes(os.urandom(6000))
    return _export(folder)


def store_truncated(folder, env):
    home = _home(folder, env)
    db = sqlite3.connect(home / STORE)
    db.execute("CREATE TABLE filler(x)")
    db.executemany("INSERT INTO filler VALUES (?)", [("x" * 500,)] * 400)
    db.commit()
    db.close()
    data = (home / STORE).read_bytes()
    (home / STORE).write_bytes(data[:1024] + os.urandom(len(data) // 2))
    return _export(folder)


def store_is_a_folder(folder, env):
    (_home(folder, env) / STORE).mkdir()
    return _export(folder)


def home_is_a_file(folder, env):
    path = folder / "not-a-folder"
    path.write_text("x")
    env["QG_STUDIO_HOME"] = str(path / "deeper")
    return _export(folder)


def store_from_a_newer_version(folder, env):
    db = sqlite3.connect(_home(folder, env) / STORE)
    db.execute("PRAGMA user_version=999")
    db.close()
    return _export(folder)


def store_locked_by_another_process(folder, env):
    from ftqa_files import tiny_split

    home = _home(folder, env)
    from qg_studio.store import Store

    Store(home / STORE).close()  # a real store, then another program holds its write lock
    env["QG_STUDIO_BUSY_TIMEOUT_MS"] = "300"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3,sys,time; db=sqlite3.connect(sys.argv[1], isolation_level=None);"
            "db.execute('BEGIN EXCLUSIVE'); print('held', flush=True); time.sleep(60)",
            str(home / STORE),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    holder.stdout.readline()  # the lock is held from here on
    data = tiny_split(folder / "ftqa")
    return ["data", "import", str(data), "--split", "train"], holder.kill


def ftqa_story_file_is_a_folder(folder, env):
    from ftqa_files import tiny_split

    data = tiny_split(folder / "ftqa")
    story = next((data / "section-stories" / "train").glob("*-story.csv"))
    story.unlink()
    story.mkdir()
    return ["eval", "sections", "--data", str(data), "--split", "train"]


def ftqa_cell_of_2_mb(folder, env):
    from ftqa_files import tiny_split

    data = tiny_split(folder / "ftqa")
    story = next((data / "section-stories" / "train").glob("*-story.csv"))
    story.write_text('section,text\n1,"' + "word " * 400_000 + '"\n', encoding="utf-8")
    return ["eval", "sections", "--data", str(data), "--split", "train"]


def _bad_header(folder):
    from ftqa_files import tiny_split

    data = tiny_split(folder / "ftqa")
    questions = next((data / "questions" / "train").glob("*-questions.csv"))
    questions.write_text("nothing,like,it\n1,2,3\n", encoding="utf-8")
    story = next((data / "section-stories" / "train").glob("*-story.csv"))
    story.write_text("chapter,words\n1,Once there was a fox.\n", encoding="utf-8")
    return data


def ftqa_bad_header_eval_sections(folder, env):
    return ["eval", "sections", "--data", str(_bad_header(folder)), "--split", "train"]


def ftqa_bad_header_eval_qg(folder, env):
    return ["eval", "qg", "--data", str(_bad_header(folder)), "--split", "train"]


def export_id_past_any_row(folder, env):
    _home(folder, env)
    return ["export", "99999999999999999999999", "--format", "xlsx", "--out", str(folder / "o")]


def elements_below_zero(folder, env):
    _home(folder, env)
    return ["generate", str(_story(folder)), "--elements", "character=-2"]


def limit_below_one(folder, env):
    return ["eval", "qg", "--data", str(folder), "--limit", "-1"]


def input_dev_zero(folder, env):
    return ["section", "/dev/zero"]


def input_a_fifo(folder, env):
    fifo = folder / "story.txt"
    os.mkfifo(fifo)
    return ["section", str(fifo)]


def input_a_folder(folder, env):
    return ["section", str(folder)]


def question_of_120k_characters(folder, env):
    return ["answer", str(_story(folder)), "--question", "Why did the fox " * 7_500 + "?"]


def export_stdin_dev_zero(folder, env):
    return ["export", "-", "--format", "xlsx", "--out", str(folder / "out.xlsx")]


def docx_of_15_mb_text(folder, env):
    from bad_input_files import document_xml
    from bad_input_files import docx_of

    path = folder / "huge.docx"
    path.write_bytes(docx_of(document_xml(["The fox ran to the barn. " * 40] * 15_000)))
    return ["section", str(path)]


def thirteen_thousand_paragraphs(folder, env):
    path = folder / "lines.txt"
    path.write_text("\n\n".join(["the fox ran and the hen sat"] * 13_000), encoding="utf-8")
    return ["section", str(path)]


def empty_file(folder, env):
    path = folder / "empty.txt"
    path.write_bytes(b"")
    return ["generate", str(path)]


def binary_file(folder, env):
    path = folder / "photo.txt"
    path.write_bytes(b"\x89PNG\r\n" + os.urandom(5000))
    return ["section", str(path)]


CASES = [
    Case("store: random bytes", store_random_bytes, 1),
    Case("store: truncated", store_truncated, 1),
    Case("store: a folder in its place", store_is_a_folder, 1),
    Case("store: QG_STUDIO_HOME under a file", home_is_a_file, 1),
    Case("store: written by a newer version", store_from_a_newer_version, 1),
    Case("store: locked by another process", store_locked_by_another_process, 1),
    Case("FairytaleQA: a story file that is a folder", ftqa_story_file_is_a_folder, 2),
    Case("FairytaleQA: a 2 MB cell", ftqa_cell_of_2_mb, 2),
    Case("FairytaleQA: bad headers (eval sections)", ftqa_bad_header_eval_sections, 2),
    Case("FairytaleQA: bad headers (eval qg)", ftqa_bad_header_eval_qg, 2),
    Case("export: an id past any row", export_id_past_any_row, 2),
    Case("generate: --elements character=-2", elements_below_zero, 2),
    Case("eval qg: --limit -1", limit_below_one, 2),
    Case("section: /dev/zero", input_dev_zero, 2),
    Case("section: a FIFO", input_a_fifo, 2),
    Case("section: a folder", input_a_folder, 2),
    Case("answer: a 120,000-character question", question_of_120k_characters, 2),
    Case("export: /dev/zero on stdin", export_stdin_dev_zero, 2, stdin="/dev/zero"),
    Case("section: a .docx of 15 MB of text", docx_of_15_mb_text, 2),
    Case("section: 13,000 one-line paragraphs", thirteen_thousand_paragraphs, 2),
    Case("generate: an empty file", empty_file, 2),
    Case("section: a binary file", binary_file, 2),
]
