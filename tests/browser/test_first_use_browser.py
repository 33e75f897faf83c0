"""A teacher's first use and everyday project work in Chromium: three projects kept apart,
a story that looks like Markdown shown as typed on every page, Annotate's buttons whole."""

from __future__ import annotations

import http.server
import threading

import pytest
from playwright.sync_api import expect
from streamlit_helpers import open_page
from streamlit_helpers import wait_for_app

from qg_studio.schema import QAItem
from qg_studio.store import DB_NAME
from qg_studio.store import Store
from qg_studio.story import section_story
from qg_studio.ui.text import JOINER

pytestmark = [
    pytest.mark.browser,
    pytest.mark.usefixtures("screenshot_on_request", "leave_the_store_as_found"),
]
BODY = (
    "Pip the hedgehog lived under the old garden shed. Every night he walked along the "
    "fence to visit his friend, a sleepy toad who lived beside the pond. One evening the "
    "gate was shut, and Pip could not get through. He pushed and pushed, but the gate "
    "would not move. Then the toad called to him from the other side and showed him a "
    "small gap under the hedge. Pip squeezed through it, laughing, and the two friends "
    "sat by the water until the moon came up over the roofs."
)


def _text(page) -> str:
    """The page's text as read, with what its fields and pickers show."""
    main = page.locator("[data-testid='stMain']")
    values = main.locator("input, textarea").evaluate_all("els => els.map(e => e.value)")
    return "\n".join([main.inner_text(), *values]).replace(JOINER, "")


def _create(page, name: str) -> None:
    field = page.get_by_placeholder("e.g. Class 3B")
    field.fill(name)
    field.press("Enter")  # Enter creates
    wait_for_app(page)
    expect(page.get_by_label("Project", exact=True)).to_have_value(f"{name} (0 stories)")


def _pick(page, name: str) -> None:
    page.get_by_label("Project", exact=True).click()
    page.get_by_role("option", name=name).click()
    wait_for_app(page)


def _band(page) -> str:
    return page.get_by_label("Target grade band", exact=True).input_value()


def _set_band(page, band: str) -> None:
    page.get_by_label("Target grade band", exact=True).click()
    page.get_by_role("option", name=band, exact=True).click()
    wait_for_app(page)


def test_three_projects_switch_delete_and_keep_their_grade_bands(page, go, data_dir):
    go("")
    bands = {"Class A": "K-2", "Class B": "6-8", "Class C": "3-5"}
    for name, band in bands.items():
        _create(page, name)
        assert _band(page) == "3-5"  # a new project starts on the default, not the last
        if band != "3-5":
            _set_band(page, band)
    # Switching opens each project with its own band; it does not snap back.
    for name in ("Class A", "Class B", "Class A", "Class C"):
        _pick(page, f"{name} (0 stories)")
        assert page.get_by_label("Project", exact=True).input_value() == f"{name} (0 stories)"
        assert _band(page) == bands[name]
    # Delete B: the confirmation is not left ticked for the project opened next.
    _pick(page, "Class B (0 stories)")
    page.get_by_role("button", name="Manage").click()
    page.get_by_text("Delete this project and all its questions").click()
    wait_for_app(page)
    page.get_by_role("button", name="Delete project").click()
    wait_for_app(page)
    page.keyboard.press("Escape")
    opened = page.get_by_label("Project", exact=True).input_value()
    assert opened in ("Class A (0 stories)", "Class C (0 stories)")
    page.get_by_role("button", name="Manage").click()
    assert not page.get_by_role(
        "checkbox", name="Delete this project and all its questions"
    ).is_checked()
    assert page.get_by_role("button", name="Delete project").is_disabled()
    page.keyboard.press("Escape")
    with Store(data_dir / DB_NAME) as store:
        left = {
            p.name: p.settings.get("grade_band")
            for p in store.list_projects()
            if p.name.startswith("Class ")
        }
    assert left == {"Class A": "K-2", "Class C": "3-5"}
    for name in ("Class A", "Class C"):  # both still open, with their own band
        _pick(page, f"{name} (0 stories)")
        assert _band(page) == bands[name]


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):  # noqa: N802 - the http.server name
        type(self).hits.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def payload_server():
    _Counter.hits = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def test_a_markdown_story_is_shown_as_text_and_fetches_nothing(
    page, app_url, data_dir, payload_server
):
    title = f"![t](http://127.0.0.1:{payload_server}/x.png) <b>bold</b>"
    question = f"Why did Pip laugh? ![q](http://127.0.0.1:{payload_server}/q.png) <i>it</i>"
    text = f"{title}\n\n{BODY}"
    with Store(data_dir / DB_NAME) as store:
        project = store.create_project(f"[p](http://127.0.0.1:{payload_server}/p.png)")
        story = store.add_story(project, title, BODY, section_story(text))
        store.add_items(
            story,
            [
                QAItem.from_dict(
                    {
                        "question": question,
                        "answers": ["he squeezed **through** the gap"],
                        "element": "feeling",
                        "explicitness": "implicit",
                        "sections": [1],
                    }
                )
            ],
            actor="teacher",
        )
    seen = []
    page.on("request", lambda r: seen.append(r.url))
    open_page(page, app_url, f"?project={project}")
    for path, expected in [
        ("", title),
        ("generate", None),
        ("curate", question),
        ("export", None),
        ("ask", title),
        ("annotate", question),
    ]:
        open_page(page, app_url, f"{path}?project={project}")
        page.wait_for_timeout(1_500)  # images in Markdown load after the run ends
        shown = _text(page)
        if expected:
            assert expected in shown, path
        assert "<b>" not in page.locator("[data-testid='stMain']").inner_html().replace(
            "&lt;b&gt;", ""
        ), path
    page.wait_for_timeout(1_000)
    assert _Counter.hits == []
    assert not [u for u in seen if f":{payload_server}/" in u]


def test_annotate_buttons_are_whole_at_1400_px(page, app_url, data_dir):
    with Store(data_dir / DB_NAME) as store:
        project = store.create_project("Annotate widths")
        store.add_story(project, "Pip", BODY, section_story(BODY))
    open_page(page, app_url, f"annotate?project={project}")
    for name in ("Save QA pair", "Clear form"):
        button = page.get_by_role("button", name=name, exact=True)
        button.wait_for()
        label = button.locator("p").first
        assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name
    page.get_by_text("Suggestions from the engines").click()
    for name in ("Suggest labels", "Suggest an answer", "Suggest a question"):
        label = page.get_by_role("button", name=name, exact=True).locator("p").first
        assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name
