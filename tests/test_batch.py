"""`qg-studio batch` on the local backend: a corpus in, a FairytaleQA dataset out.

One worker (the models in this process) keeps these quick; the pool and Ray backends
have their own modules.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from batch_stories import STORIES
from batch_stories import write_corpus

from qg_studio.batch.manifest import FAILED
from qg_studio.batch.manifest import Manifest
from qg_studio.batch.runner import run_batch
from qg_studio.batch.story import BatchSettings
from qg_studio.cli import main
from qg_studio.data.fairytaleqa import read_split

SETTINGS = BatchSettings(count=4)


def _batch(corpus, out, *extra: str, count: int | None = None, json_line: bool = True) -> int:
    """``qg-studio batch`` on one worker, quietly, as each test runs it."""
    args = ["batch", str(corpus), "--out", str(out), "--workers", "1", "--no-progress", *extra]
    if count is not None:
        args += ["--count", str(count)]
    return main(args + (["--json"] if json_line else []))


def _summary(capsys) -> dict:
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def _dataset(out: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Each story's section texts and question rows, as the files hold them."""
    return {
        s.name: (
            [x.text for x in s.sections],
            [json.dumps(q.row, sort_keys=True) for q in s.questions],
        )
        for s in read_split(out, "train")
    }


@pytest.fixture(scope="module")
def batch_out(tmp_path_factory):
    """One uninterrupted run over the three stories, through the command line."""
    corpus = write_corpus(tmp_path_factory.mktemp("corpus"))
    out = tmp_path_factory.mktemp("run") / "dataset"
    code = _batch(corpus, out, count=4)
    return corpus, out, code


def test_every_story_becomes_a_fairytaleqa_story_with_provenance(batch_out, capsys):
    corpus, out, code = batch_out
    assert code == 0
    stories = read_split(out, "train")
    assert sorted(s.name for s in stories) == sorted(STORIES)
    for story in stories:
        ids = {s.id for s in story.sections}
        assert 2 <= len(story.questions) <= 4
        for question in story.questions:
            assert question.row["question"].endswith("?")
            assert question.row["answer1"].strip()
            assert set(question.sections) <= ids
        # The sidecar the Annotate export writes: one row per question, same ids.
        provenance = out / "provenance" / "train" / f"{story.name}-provenance.csv"
        lines = provenance.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("question_id,origin,created_by,engine")
        assert [line.split(",")[0] for line in lines[1:]] == [
            q.question_id for q in story.questions
        ]
        # Whole-story questions name the story-level rules as their writer.
        unlike = [
            line
            for line in lines[1:]
            if not re.search(r",engine,(embedded|story-level),(embedded|story-level),no,,", line)
        ]
        assert not unlike
    assert not list(out.rglob("*.tmp"))


def test_the_summary_line_counts_what_the_files_hold(batch_out, tmp_path, capsys):
    corpus, out, _ = batch_out
    # Running the same command again does nothing more and reports the same totals.
    assert _batch(corpus, out, count=4) == 0
    summary = _summary(capsys)
    assert {k: summary[k] for k in ("stories", "done", "failed", "workers", "backend")} == {
        "stories": 3,
        "done": 3,
        "failed": 0,
        "workers": 1,
        "backend": "local",
    }
    assert summary["qa_pairs"] == sum(len(s.questions) for s in read_split(out, "train"))
    assert set(summary) == {
        "stories",
        "done",
        "failed",
        "qa_pairs",
        "seconds",
        "stories_per_min",
        "workers",
        "backend",
    }


def test_data_stats_and_eval_qa_run_on_the_result(batch_out, capsys):
    _, out, _ = batch_out
    qa_pairs = sum(len(s.questions) for s in read_split(out, "train"))
    assert main(["data", "stats", str(out), "--split", "train", "--json"]) == 0
    stats = _summary(capsys)
    assert stats["stories"] == 3 and stats["qa_pairs"] == qa_pairs
    assert (
        main(["eval", "qa", "--data", str(out), "--split", "train", "--given-sections", "--json"])
        == 0
    )
    result = _summary(capsys)
    assert result["n"] == qa_pairs
    # The engine's answers are spans of its sections: the span answerer finds most of them.
    assert result["rougeL_f"] > 0.3


def test_each_story_opens_for_review_as_the_annotate_page_opens_an_upload(batch_out, capsys):
    from qg_studio.data.fairytaleqa import parse_story
    from qg_studio.data.projects import import_story
    from qg_studio.store import Store

    _, out, _ = batch_out
    store = Store()
    for name in STORIES:
        story = parse_story(
            name,
            (out / "section-stories" / "train" / f"{name}-story.csv").read_bytes(),
            (out / "questions" / "train" / f"{name}-questions.csv").read_bytes(),
        )
        result = import_story(store, story)
        items = store.list_items(result.story_id)
        assert len(items) == len(story.questions) > 0
        assert [i.question for i in items] == [q.row["question"] for q in story.questions]
    # ...and all at once, as projects the Annotate page's picker lists.
    assert main(["data", "import", str(out), "--split", "train", "--json"]) == 0
    assert _summary(capsys)["stories"] == 3


def test_bad_files_are_listed_with_their_reason_and_the_run_goes_on(tmp_path, capsys):
    corpus = write_corpus(tmp_path / "corpus", docx_name=None)
    (corpus / "empty.txt").write_bytes(b"")
    (corpus / "noise.txt").write_bytes(bytes(range(256)) * 8)
    (corpus / "fake.docx").write_text("just text, not a Word file", encoding="utf-8")
    (corpus / "long.txt").write_text(
        ("The hen walked to the barn and the dog ran. " * 4000), encoding="utf-8"
    )
    out = tmp_path / "out"
    code = _batch(corpus, out, count=3)
    captured = capsys.readouterr()
    summary = json.loads(captured.out.strip().splitlines()[-1])
    assert code == 1
    assert (summary["stories"], summary["done"], summary["failed"]) == (7, 3, 4)
    assert sorted(s.name for s in read_split(out, "train")) == sorted(STORIES)
    manifest = Manifest(out)
    reasons = {r["key"]: r["reason"] for r in manifest.rows(FAILED)}
    manifest.close()
    assert set(reasons) == {"empty.txt", "noise.txt", "fake.docx", "long.txt"}
    assert "empty" in reasons["empty.txt"]
    assert "not a text file" in reasons["noise.txt"]
    assert "Word document" in reasons["fake.docx"]
    assert "40,000" in reasons["long.txt"]
    for key, reason in reasons.items():
        assert "\n" not in reason
        assert f"failed: {key}: {reason}" in captured.out


class _Crash(Exception):
    pass


def test_a_run_stopped_at_any_point_resumes_to_the_uninterrupted_result(
    batch_out, tmp_path, monkeypatch
):
    corpus, whole, _ = batch_out
    out = tmp_path / "out"
    # Stop 1: the driver dies right after the first story is recorded.
    seen = []

    def die_after_first(outcome):
        seen.append(outcome.key)
        raise _Crash

    with pytest.raises(_Crash):
        run_batch(corpus, out, SETTINGS, workers=1, progress=False, on_outcome=die_after_first)
    assert len(Manifest(out).statuses()) == 1
    # Stop 2: killed between writing a story's files and recording it done; a
    # temporary file of a half-written CSV is left behind too.
    real_record = Manifest.record

    def die_before_recording(self, *args, **kwargs):
        raise _Crash

    monkeypatch.setattr(Manifest, "record", die_before_recording)
    with pytest.raises(_Crash):
        run_batch(corpus, out, SETTINGS, workers=1, progress=False)
    monkeypatch.setattr(Manifest, "record", real_record)
    half = out / "questions" / "train" / "zz-questions.csv.tmp"
    half.write_text("question_id,local-or", encoding="utf-8")
    written = {p.name for p in (out / "section-stories" / "train").iterdir()}
    assert len(written) == 2  # one recorded story and one the manifest does not know

    summary = run_batch(corpus, out, SETTINGS, workers=1, progress=False)
    assert (summary["done"], summary["failed"]) == (3, 0)
    assert _dataset(out) == _dataset(whole)
    assert not list(out.rglob("*.tmp"))
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.csv")) == sorted(
        p.relative_to(whole).as_posix() for p in whole.rglob("*.csv")
    )


def test_resuming_with_other_settings_or_into_a_foreign_folder_is_refused(
    batch_out, tmp_path, capsys
):
    corpus, out, _ = batch_out
    assert _batch(corpus, out, count=7, json_line=False) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "count 4 (now 7)" in err
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me", encoding="utf-8")
    assert main(["batch", str(corpus), "--out", str(foreign), "--no-progress"]) == 2
    assert "not empty" in capsys.readouterr().err
    assert (foreign / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_ray_flag_without_ray_installed_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    corpus = write_corpus(tmp_path / "corpus", docx_name=None)
    out = tmp_path / "out"
    assert main(["batch", str(corpus), "--out", str(out), "--ray", "auto"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "pip install" in err[0] and "[ray]" in err[0]
    assert not out.exists()


def test_story_names_stay_unique_and_stable(tmp_path):
    from qg_studio.batch.corpus import find_stories

    (tmp_path / "sub").mkdir()
    for rel in ("tale.txt", "sub/tale.txt", "tale-2.txt", ".hidden.txt", "notes.pdf"):
        (tmp_path / rel).write_text("x", encoding="utf-8")
    jobs = find_stories(tmp_path)
    # Top-level files first: tale.txt keeps its own name.
    assert {j.key: j.name for j in jobs} == {
        "tale-2.txt": "tale-2",
        "tale.txt": "tale",
        "sub/tale.txt": "tale-3",
    }
    assert find_stories(tmp_path) == jobs


def test_a_fairytaleqa_folder_keeps_its_sections_names_and_splits(tmp_path, capsys):
    from qg_studio.data.fairytaleqa import FtqaStory
    from qg_studio.data.fairytaleqa import write_split
    from qg_studio.schema import Section

    corpus = tmp_path / "ftqa"
    for split, name in (("train", "hen"), ("val", "lantern")):
        paragraphs = STORIES[name].split("\n\n")[1:]  # no title line
        sections = [Section(id=i, text=p.strip()) for i, p in enumerate(paragraphs, start=1)]
        write_split(corpus, split, [FtqaStory(name=name, sections=sections, split=split)])
    out = tmp_path / "out"
    assert _batch(corpus, out, count=3) == 0
    assert _summary(capsys)["done"] == 2
    for split, name in (("train", "hen"), ("val", "lantern")):
        (story,) = read_split(out, split)
        assert story.name == name
        assert [s.text for s in story.sections] == [
            p.strip() for p in STORIES[name].split("\n\n")[1:]
        ]
        assert story.questions
    assert _batch(corpus, tmp_path / "val-only", "--split", "val") == 0
    assert _summary(capsys)["stories"] == 1


def test_a_hostile_file_among_six_stories_never_stalls_the_run(tmp_path, capsys):
    """The files that once stalled a run (13,000 one-line paragraphs; a small .docx that
    unpacks to 15 MB of text) fail at once with their reason; the six stories are done."""
    from bad_input_files import document_xml
    from bad_input_files import docx_of

    corpus = write_corpus(tmp_path / "corpus", docx_name=None)
    for name, text in STORIES.items():
        (corpus / f"{name}-again.txt").write_text(text, encoding="utf-8")
    (corpus / "lines.txt").write_text(
        "\n\n".join(["the fox ran and the hen sat"] * 13_000), encoding="utf-8"
    )
    (corpus / "huge.docx").write_bytes(
        docx_of(document_xml(["The fox ran to the barn. " * 40] * 15_000))
    )
    code = _batch(corpus, tmp_path / "out", count=2)
    summary = _summary(capsys)
    assert code == 1
    assert (summary["stories"], summary["done"], summary["failed"]) == (8, 6, 2)
    manifest = Manifest(tmp_path / "out")
    reasons = {r["key"]: r["reason"] for r in manifest.rows(FAILED)}
    manifest.close()
    assert "words" in reasons["lines.txt"] and "characters" in reasons["huge.docx"]
