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


def test_an_exports_download_address_ends_with_its_session(browser, tmp_path):
    import time
    import urllib.error
    import urllib.request

    from qg_studio.schema import QAItem
    from qg_studio.store import DB_NAME
    from qg_studio.store import Store
    from qg_studio.story import section_story

    body = (
        "The ant went to the river to drink. The water swept her away. A dove dropped a "
        "leaf, and the ant climbed onto it and floated to the bank. Later a hunter aimed at "
        "the dove, and the ant bit his heel, so the dove flew away safe."
    )
    with Store(tmp_path / DB_NAME) as store:
        project = store.create_project("Downloads")
        story = store.add_story(project, "The Ant", body, section_story(body))
        item = QAItem("Who bit the hunter?", ["the ant"], "character", "explicit", sections=[1])
        store.add_items(story, [item], actor="teacher")
    env = {"QG_STUDIO_DOWNLOAD_SWEEP_SECONDS": "0.5"}
    with run_app(
        tmp_path, env=env, args=["--server.disconnectedSessionTTL", "1"], log_name="dl.log"
    ) as url:
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(45_000)
        open_page(page, url, f"export?project={project}")
        link = page.locator(
            "[data-testid='stDownloadButton'] a, [data-testid='stDownloadButton'] button"
        )
        link.first.wait_for()
        with page.expect_download() as download:
            link.first.click()
        address = download.value.url
        assert urllib.request.urlopen(address).status == 200  # while the tab is open
        context.close()  # the teacher closes the tab
        gone = False
        for _ in range(40):  # sessions end after 1 s here, a sweep runs every 0.5 s
            try:
                urllib.request.urlopen(address)
            except urllib.error.HTTPError as exc:
                gone = exc.code == 404
                break
            time.sleep(0.5)
        assert gone, "the download address still answers after its session ended"


def test_the_confidence_mark_is_in_plain_sight_at_1024_px(browser, app_url, data_dir):
    from qg_studio.schema import QAItem
    from qg_studio.store import DB_NAME
    from qg_studio.store import Store
    from qg_studio.story import section_story

    body = (
        "The ant went to the river to drink. The water swept her away. A dove dropped a "
        "leaf, and the ant climbed onto it and floated to the bank. Later a hunter aimed at "
        "the dove, and the ant bit his heel, so the dove flew away safe."
    )
    with Store(data_dir / DB_NAME) as store:
        project = store.create_project("Marks at 1024")
        story = store.add_story(project, "The Ant", body, section_story(body))
        item = QAItem(
            "Who bit the hunter?",
            ["the dove"],
            "character",
            "explicit",
            sections=[1],
            scores={"confidence": 0.8, "answerability": 0.0},
        )
        store.add_items(story, [item], actor="embedded")
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    page = context.new_page()
    page.set_default_timeout(45_000)
    open_page(page, app_url, f"curate?project={project}")
    shown = page.get_by_text("✗ likely wrong: the answer check found another answer")
    shown.wait_for()
    box = shown.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 1024
    context.close()


def test_a_store_that_cannot_be_opened_is_one_message_on_every_page(browser, tmp_path):
    import os

    from qg_studio.store import DB_NAME

    (tmp_path / DB_NAME).write_bytes(os.urandom(8000))  # not a database
    with run_app(tmp_path, log_name="broken.log") as url:
        page = browser.new_context().new_page()
        page.set_default_timeout(45_000)
        for path in ("", "curate", "export", "ask"):
            open_page(page, url, path)
            text = page.locator("[data-testid='stMain']").inner_text()
            assert "The projects cannot be opened" in text and "move it aside" in text, text
            assert "Traceback" not in text and "DatabaseError" not in text


# Every piece of text on the page whose box, or a box up to six levels around it, hides
# what does not fit (Streamlit cuts a label with an ellipsis where its column is narrow).
CUT_LABELS = """
() => [...document.querySelectorAll("[data-testid='stMain'] *")]
  .filter(e => e.children.length === 0 && e.innerText && e.offsetParent !== null)
  .filter(e => {
    let node = e;
    for (let i = 0; i < 6 && node; i++) {
      const style = getComputedStyle(node);
      const hides = style.textOverflow === "ellipsis" || style.overflow === "hidden";
      if (hides && node.scrollWidth > node.clientWidth + 1) return true;
      node = node.parentElement;
    }
    return false;
  })
  .map(e => e.innerText)
"""


def test_no_label_is_cut_at_1024_px_on_any_page(browser, app_url, data_dir):
    from qg_studio.schema import QAItem
    from qg_studio.store import DB_NAME
    from qg_studio.store import Store
    from qg_studio.story import section_story

    body = (
        "The ant went to the river to drink. The water swept her away. A dove dropped a "
        "leaf, and the ant climbed onto it and floated to the bank. Later a hunter aimed at "
        "the dove, and the ant bit his heel, so the dove flew away safe."
    )
    with Store(data_dir / DB_NAME) as store:
        project = store.create_project("Widths at 1024")
        story = store.add_story(project, "The Ant", body, section_story(body))
        item = QAItem("Who bit the hunter?", ["the ant"], "character", "explicit", sections=[1])
        store.add_items(story, [item], actor="embedded")
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    page = context.new_page()
    page.set_default_timeout(45_000)
    cut = {}
    for path in ("", "generate", "curate", "export", "ask", "annotate", "models"):
        open_page(page, app_url, f"{path}?project={project}")
        found = page.evaluate(CUT_LABELS)
        if found:
            cut[path or "story"] = found
    context.close()
    assert not cut, cut
