"""Waiting on a Streamlit app from Playwright (imported by the browser tests)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from typing import Sequence

from playwright.sync_api import TimeoutError as PlaywrightTimeout

RUNNING = "[data-testid='stApp'][data-test-script-state='running']"
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"


def wait_for_app(page, timeout: float = 60_000) -> None:
    """Until the script run triggered by the last action has finished.

    On a busy machine the rerun can start a second or more after the click, so first
    wait (briefly) for it to start; until it ends, the page still shows stale widgets.
    """
    try:
        page.wait_for_selector(RUNNING, timeout=2_500)
    except PlaywrightTimeout:
        pass  # no rerun was triggered, or it was over before we looked
    page.wait_for_selector(IDLE, timeout=timeout)
    # A widget's callback can start one more run right after the first ends.
    for _ in range(3):
        try:
            page.wait_for_selector(RUNNING, timeout=400)
        except PlaywrightTimeout:
            return
        page.wait_for_selector(IDLE, timeout=timeout)


def wait_for_store(data_dir: Path, saved, what: str, timeout: float = 120) -> None:
    """Until ``saved(store)`` is true: a long action has been saved, so the next click
    cannot cancel it mid-run (on a busy machine a rerun starts later than
    :func:`wait_for_app` looks for it)."""
    from qg_studio.store import DB_NAME
    from qg_studio.store import Store

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with Store(data_dir / DB_NAME) as store:
            if saved(store):
                return
        time.sleep(0.5)
    raise AssertionError(f"{what}: not saved in {timeout:.0f} s")


def wait_for_new_history(
    data_dir: Path, story_id: int, steps_before: int, page=None, button=None
) -> None:
    """Until the story's history has a step more than ``steps_before`` (a regenerate).

    With ``page`` and ``button``: on a busy machine the page's own rerun can swallow the
    click, and nothing ever starts. When nothing has been saved and no run is going on,
    the button is clicked again, as a teacher would click it again."""
    saved = lambda store: len(store.history(story_id)) > steps_before  # noqa: E731
    if page is None or button is None:
        wait_for_store(data_dir, saved, "the regenerate")
        return
    for attempt in range(3):
        try:
            wait_for_store(data_dir, saved, "the regenerate", timeout=90)
            return
        except AssertionError:
            if attempt == 2:
                raise
            if not page.locator(RUNNING).count():  # still running: a click would cancel it
                button.click()


def open_page(page, app_url: str, path: str = "") -> None:
    page.goto(f"{app_url}/{path}")
    page.wait_for_selector("[data-testid='stMain']")
    wait_for_app(page)


ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(url: str, process: subprocess.Popen, log: Path, what: str) -> None:
    deadline = time.time() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None or time.time() > deadline:
            process.kill()
            raise RuntimeError(f"{what} did not start:\n" + log.read_text()[-3000:])
        time.sleep(0.5)


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=3)
    except subprocess.TimeoutExpired:
        process.kill()


@contextmanager
def run_app(
    data_dir: Path,
    *,
    port: int | None = None,
    env: dict[str, str] | None = None,
    args: Sequence[str] = (),
    log_name: str = "streamlit.log",
) -> Iterator[str]:
    """The real app (``streamlit run streamlit_app.py``) on 127.0.0.1; yields its URL."""
    port = port or free_port()
    env = {
        **os.environ,
        "QG_STUDIO_HOME": str(data_dir),
        "HF_HUB_OFFLINE": "1",
        "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false",
        # As in every other test (conftest.py): the shipped adapter would win `auto` and
        # convert its base into the test's data folder; the flow is tested on the
        # embedded engine, the SmolLM2 engine on tiny models.
        "QG_STUDIO_SMOLLM": "off",
        **(env or {}),
    }
    log_path = data_dir / log_name
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "streamlit",
                "run",
                str(ROOT / "streamlit_app.py"),
                "--server.headless",
                "true",
                "--server.port",
                str(port),
                "--server.address",
                "127.0.0.1",
                "--server.fileWatcherType",
                "none",
                "--browser.gatherUsageStats",
                "false",
                *args,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(f"{url}/_stcore/health", server, log_path, "the app")
            yield url
        finally:
            stop(server)
