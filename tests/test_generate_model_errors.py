"""A teacher or model builder who names a missing checkpoint gets one line, not a traceback."""

from qg_studio.cli import main


def test_missing_seq2seq_model_is_one_line(tmp_path, story_text, capsys):
    path = tmp_path / "story.txt"
    path.write_text(story_text, encoding="utf-8")
    code = main(
        [
            "generate",
            str(path),
            "--engine",
            "seq2seq",
            "--model",
            str(tmp_path / "no-such-model"),
            "--json",
        ]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "cannot load the question model" in err[0]
