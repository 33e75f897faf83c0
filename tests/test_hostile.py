"""Every case of the hostile corpus (tests/hostile_cases.py) ends in one error line and its
exit status: no traceback, no hang, nothing half-written. Plus what cannot run in-process:
an early Ctrl-C, and a batch that meets a hostile file among good stories."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_cases import CASES
from hostile_cases import FABLE

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_hostile_input_ends_in_one_line_and_its_status(case, tmp_path, monkeypatch, capsys):
    from qg_studio.cli import main

    env: dict = {}
    made = case.make(tmp_path, env)
    argv, cleanup = made if isinstance(made, tuple) else (made, None)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    if case.stdin:
        monkeypatch.setattr(sys, "stdin", open(case.stdin, "r"))  # noqa: SIM115
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse refuses an argument itself
        status = exc.code
    finally:
        if cleanup:
            cleanup()
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error" in line]
    assert status == case.status, err
    assert len(errors) == 1, err
    assert "Traceback" not in err and "internal error" not in err, err
    assert not list(tmp_path.glob("*.xlsx")), "nothing is written for a refused input"


def test_a_busy_store_says_who_holds_it(tmp_path, monkeypatch, capsys):
    from hostile_cases import store_locked_by_another_process

    from qg_studio.cli import main

    env: dict = {}
    argv, cleanup = store_locked_by_another_process(tmp_path, env)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    try:
        assert main(argv) == 1
    finally:
        cleanup()
    err = capsys.readouterr().err
    assert "stayed busy for 0.3 s" in err and "(held by pid" in err and "python" in err


def test_ctrl_c_in_the_first_second_ends_in_one_line(tmp_path):
    story = tmp_path / "fable.txt"
    story.write_text(FABLE, encoding="utf-8")
    # From the moment Python runs the command's first line: the interpreter's own start-up
    # (some 50 ms of site-packages, longer on a busy machine) is Python's, and answers Ctrl-C
    # with its own traceback, one that holds no frame of ours.
    ours = f"{os.sep}qg_studio{os.sep}"
    for delay in (0.15, 0.4, 0.9):
        proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("qg-studio")), "section", str(story)],
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "QG_STUDIO_HOME": str(tmp_path / "home")},
        )
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=60)[1]
        if "Traceback" in err or proc.returncode == -signal.SIGINT:
            assert ours not in err, err  # Python's start-up, not ours
            continue
        if proc.returncode != 0:  # it had not finished: interrupted
            assert proc.returncode == 130 and err.strip() == "qg-studio: interrupted"


def test_ctrl_c_while_a_class_is_made_is_an_interruption_not_an_internal_error(monkeypatch, capsys):
    # Python 3.11 wraps a KeyboardInterrupt raised in a descriptor's __set_name__ (a dataclass
    # being made during an import) in a RuntimeError: a user's Ctrl-C all the same.
    import argparse

    from qg_studio import cli

    class Field:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    def command(args):
        type("Report", (), {"shortened": Field()})

    parser = argparse.ArgumentParser()
    parser.set_defaults(func=command)
    monkeypatch.setattr(cli, "build_parser", lambda: parser)
    assert cli.main([]) == 130
    assert capsys.readouterr().err.strip() == "qg-studio: interrupted"
