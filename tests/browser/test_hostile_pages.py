"""The pages' error boundary, in Chromium: a server started without sign-in settings shows
the documented page on every path, and an address naming a project id past any row reads
as "no such project", never a traceback."""

from __future__ import annotations

from streamlit_helpers import open_page
from streamlit_helpers import run_app


def test_a_server_without_sign_in_settings_shows_the_documented_page(browser, tmp_path):
    with run_app(tmp_path, env={"QG_STUDIO_MODE": "server"}, log_name="server.log") as url:
        page = browser.new_context().new_page()
        page.set_default_timeout(45_000)
        for path in ("", "curate", "export"):
            open_page(page, url, path)
            text = page.locator("body").inner_text()
            assert "no sign-in provider configured" in text, text[:500]
            assert "Traceback" not in text and "AttributeError" not in text
        log = (tmp_path / "server.log").read_text()
        assert "Traceback" not in log, log[-2000:]


def test_a_project_id_past_any_row_reads_as_no_such_project(go, page):
    go("?project=99999999999999999999999")
    text = page.locator("body").inner_text()
    assert "There is no project 99999999999999999999999 among your projects" in text
    assert "Traceback" not in text and "OverflowError" not in text
