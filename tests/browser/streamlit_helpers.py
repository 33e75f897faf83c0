"""Waiting on a Streamlit app from Playwright (imported by the browser tests)."""

from __future__ import annotations

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


def open_page(page, app_url: str, path: str = "") -> None:
    page.goto(f"{app_url}/{path}")
    page.wait_for_selector("[data-testid='stMain']")
    wait_for_app(page)
