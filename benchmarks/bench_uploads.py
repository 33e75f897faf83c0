"""Hostile uploads refused before any work: time to the one-line refusal and memory growth.

Each upload goes the way the app's Story page takes it (``load_story_file`` with the
upload's bytes, then ``section_story``) and the way a pasted text does (``section_story``),
and through ``qg-studio section`` in this process. Memory is the process's RSS (psutil),
sampled every 2 ms while the call runs, less the RSS just before it.

    .venv/bin/python benchmarks/bench_uploads.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from bad_input_files import docx_bomb  # noqa: E402
from bad_input_files import entity_docx_bomb  # noqa: E402
from bad_input_files import lying_docx_bomb  # noqa: E402

from qg_studio.cli import main as cli_main  # noqa: E402
from qg_studio.story import StoryInputError  # noqa: E402
from qg_studio.story import load_story_file  # noqa: E402
from qg_studio.story import section_story  # noqa: E402

CHINESE = "从前有一个养蜜蜂的老奶奶，她每天早上都去看她的蜂箱。下雨以前，蜜蜂都不出门。"


def hostile() -> list[tuple[str, str, bytes]]:
    return [
        ("docx bomb (50 MB of XML)", "bomb.docx", docx_bomb()),
        ("docx bomb, lying zip headers", "liar.docx", lying_docx_bomb()),
        ("docx entity expansion", "laughs.docx", entity_docx_bomb()),
        ("19 MB story of one token", "token.txt", b"a" * (19 * 1024 * 1024)),
        ("1,000,000-character token", "token1m.txt", b"a" * 1_000_000),
        ("unspaced Chinese, 300 KB", "zh.txt", CHINESE.encode() * 2_600),
    ]


class PeakRss:
    """The highest RSS seen while the block runs, sampled on a thread."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.peak = 0

    def __enter__(self):
        self.before = self.process.memory_info().rss
        self.peak = self.before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.process.memory_info().rss)
            time.sleep(0.002)

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.process.memory_info().rss)

    @property
    def growth_mb(self) -> float:
        return (self.peak - self.before) / 1024 / 1024


def _upload(name: str, data: bytes) -> str:
    try:
        section_story(load_story_file(name, data))
    except StoryInputError as exc:
        return str(exc)
    return "ACCEPTED"


def _paste(name: str, data: bytes) -> str:
    try:
        section_story(data.decode("utf-8", errors="replace"))
    except StoryInputError as exc:
        return str(exc)
    return "ACCEPTED"


def _cli(path: Path):
    def run(name: str, data: bytes) -> str:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = cli_main(["section", str(path / name)])
        return err.getvalue().strip() if code == 2 else f"exit {code}"

    return run


def measure(way, name: str, data: bytes, repeat: int) -> tuple[float, float, str]:
    times, growth = [], []
    message = ""
    for _ in range(repeat):
        with PeakRss() as rss:
            start = time.perf_counter()
            message = way(name, data)
            times.append(time.perf_counter() - start)
        growth.append(rss.growth_mb)
    return statistics.median(times), max(growth), message


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cases = hostile()
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for _, name, data in cases:
            (folder / name).write_bytes(data)
        ways = {"upload": _upload, "paste": _paste, "cli": _cli(folder)}
        start_rss = psutil.Process().memory_info().rss / 1024 / 1024
        worst_time = worst_growth = 0.0
        lines_ok = True
        print(f"{'case':<32} {'way':<7} {'median s':>9} {'max RSS +MB':>12}  message")
        for label, name, data in cases:
            for way, call in ways.items():
                if way == "paste" and name.endswith(".docx"):
                    continue
                seconds, growth, message = measure(call, name, data, args.repeat)
                one_line = bool(message) and "\n" not in message and message != "ACCEPTED"
                lines_ok &= one_line
                worst_time, worst_growth = max(worst_time, seconds), max(worst_growth, growth)
                print(f"{label:<32} {way:<7} {seconds:>9.4f} {growth:>12.1f}  {message[:90]}")
        end_rss = psutil.Process().memory_info().rss / 1024 / 1024
    print(f"\nworst median time to refuse: {worst_time:.3f} s (limit 2 s)")
    print(f"worst RSS growth during one refusal: {worst_growth:.1f} MB (limit 100 MB)")
    print(
        f"process RSS {start_rss:.0f} MB before, {end_rss:.0f} MB after all runs; "
        f"spaCy loaded: {'spacy' in sys.modules}"
    )
    print(f"every case refused with one line: {lines_ok}")


if __name__ == "__main__":
    main()
