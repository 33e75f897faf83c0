"""A teacher's first use, timed in Chromium: landing page → sample story → first questions.

    .venv/bin/python benchmarks/bench_first_use.py [--runs 3] [--shots DIR]

Starts the app on a fresh data folder. "cold" is the first run after the server started
(models load); "warm" are the runs after it, each in a new browser context (a new
visitor). Each run clicks "Try it with a sample story", "Next: write questions" and
"Generate questions", and stops the clock when the questions are on screen. It then adds
a question by hand on Curate and times that too. With ``--shots`` it saves a screenshot of
every step of the first run. Prints one JSON object with the figures (seconds).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from streamlit_helpers import run_app  # noqa: E402
from streamlit_helpers import wait_for_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def _shot(page, shots: Path | None, name: str) -> None:
    if shots is not None:
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


def _run(page, url: str, shots: Path | None) -> dict[str, float]:
    page.goto(url)
    page.get_by_role("button", name="Try it with a sample story").wait_for()
    wait_for_app(page)
    _shot(page, shots, "1-landing")
    start = time.perf_counter()
    page.get_by_role("button", name="Try it with a sample story").click()
    page.get_by_role("button", name="Next: write questions").wait_for(timeout=120_000)
    sectioned = time.perf_counter() - start
    _shot(page, shots, "2-story")
    page.get_by_role("button", name="Next: write questions").click()
    page.get_by_role("button", name="Generate questions").wait_for(timeout=120_000)
    wait_for_app(page, timeout=120_000)
    _shot(page, shots, "3-generate")
    page.get_by_role("button", name="Generate questions").click()
    page.get_by_text("new questions", exact=False).first.wait_for(timeout=300_000)
    questions = time.perf_counter() - start
    wait_for_app(page, timeout=120_000)
    _shot(page, shots, "4-questions")
    page.get_by_role("button", name="Next: review the questions").click()
    page.get_by_text("Add a question by hand").wait_for(timeout=120_000)
    wait_for_app(page, timeout=120_000)
    _shot(page, shots, "5-curate")
    page.get_by_text("Add a question by hand").click()
    page.get_by_label("Your question").fill("Why did Theo start to cry?")
    added = time.perf_counter()
    page.get_by_role("button", name="Add question").click()
    page.get_by_text("Added “Why did Theo start to cry", exact=False).wait_for(timeout=120_000)
    by_hand = time.perf_counter() - added
    wait_for_app(page, timeout=120_000)
    _shot(page, shots, "6-added")
    page.get_by_role("button", name="Next: print or export").click()
    page.get_by_role("button", name="Download", exact=False).first.wait_for(timeout=120_000)
    wait_for_app(page, timeout=120_000)
    _shot(page, shots, "7-export")
    return {
        "sample_sectioned_s": sectioned,
        "first_questions_s": questions,
        "add_by_hand_s": by_hand,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="1 cold + (runs-1) warm")
    parser.add_argument("--shots", type=Path, default=None)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    runs = []
    with tempfile.TemporaryDirectory() as home, run_app(Path(home)) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        for n in range(args.runs):
            # Each visitor starts on the landing page: an empty store for the first, the
            # earlier samples deleted for the others.
            from qg_studio.store import DB_NAME
            from qg_studio.store import Store

            with Store(Path(home) / DB_NAME) as store:
                for project in store.list_projects():
                    store.delete_project(project.id)
            context = browser.new_context(viewport={"width": 1400, "height": 1000})
            page = context.new_page()
            page.set_default_timeout(120_000)
            runs.append(_run(page, url, args.shots if n == 0 else None))
            context.close()
        browser.close()
    cold, warm = runs[0], runs[1:]
    report = {"cold": {k: round(v, 2) for k, v in cold.items()}}
    if warm:
        report["warm_median"] = {k: round(statistics.median(r[k] for r in warm), 2) for k in cold}
        report["warm_runs"] = len(warm)
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
