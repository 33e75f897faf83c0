"""Fixtures for browser tests: the real app in a subprocess, driven by Debian's Chromium.

Reuse them from any test in this folder (mark it ``@pytest.mark.browser``):

- ``data_dir``: the app's ``$QG_STUDIO_HOME`` (one per test session; give your project a
  name of its own, the store is shared by the tests of one run);
- ``app_url``: the running app (``streamlit run streamlit_app.py``, headless, free port);
- ``page``: a fresh Playwright page (its own browser context, downloads accepted);
- ``go("curate")``: open a page of the app and wait until its script has run;
- ``streamlit_helpers.wait_for_app(page)`` / ``open_page(page, url, path)`` for the rest.

Everything skips cleanly where /usr/bin/chromium or Playwright is missing; no browser is
ever downloaded.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from streamlit_helpers import open_page  # noqa: F401 (re-exported)
from streamlit_helpers import run_app  # noqa: F401 (re-exported)
from streamlit_helpers import wait_for_app  # noqa: F401 (re-exported)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("qg-browser-home")


@pytest.fixture(scope="session")
def app_url(data_dir):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (Debian: apt install chromium)")
    pytest.importorskip("playwright.sync_api")
    with run_app(data_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser(app_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, app_url):
    context = browser.new_context(accept_downloads=True, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(45_000)
    yield page
    context.close()


@pytest.fixture
def go(page, app_url):
    """``go("curate")`` opens a page of the app and waits until it has run."""
    return lambda path="": open_page(page, app_url, path)


@pytest.fixture
def screenshot_on_request(page):
    """QG_BROWSER_SHOT=path.png keeps the last screen of the test (to debug a failure)."""
    yield
    shot = os.environ.get("QG_BROWSER_SHOT")
    if shot:
        page.screenshot(path=shot, full_page=True)


@pytest.fixture
def leave_the_store_as_found(data_dir):
    """The app's store is shared by the session's browser tests: remove a test's projects."""
    from qg_studio.store import DB_NAME
    from qg_studio.store import Store

    with Store(data_dir / DB_NAME) as store:
        before = {p.id for p in store.list_projects()}
    yield
    with Store(data_dir / DB_NAME) as store:
        for project in store.list_projects():
            if project.id not in before:
                store.delete_project(project.id)
