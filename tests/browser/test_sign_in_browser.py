"""Server mode: two teachers signed in through a local OpenID Connect provider.

The provider is ``oidc-provider-mock`` on 127.0.0.1, started by the test; the app runs
in server mode with sign-in settings pointing at it. Each teacher sees only their own
projects, cannot open the other's by its id in the address, and Undo and the history
on Curate are their own.
"""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import sys
import urllib.request

import pytest
from streamlit_helpers import free_port
from streamlit_helpers import open_page
from streamlit_helpers import run_app
from streamlit_helpers import stop
from streamlit_helpers import wait_for_app
from streamlit_helpers import wait_until_up

from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.store import DB_NAME
from qg_studio.store import Store

pytest.importorskip("oidc_provider_mock")

TEACHERS = {
    "alice": (
        "alice@school.test",
        "Alice - class 4B (private)",
        "The lantern keeper climbed the tower every night.",
    ),
    "bob": (
        "bob@school.test",
        "Bob - class 5C",
        "A baker in the valley baked bread for the whole town.",
    ),
}


@pytest.fixture(scope="module")
def provider(tmp_path_factory):
    folder = tmp_path_factory.mktemp("oidc")
    port = free_port()
    claims = [
        json.dumps({"sub": sub, "email": email, "name": sub.title()})
        for sub, (email, _, _) in TEACHERS.items()
    ]
    log_path = folder / "provider.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "oidc_provider_mock",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                *[a for c in claims for a in ("--user-claims", c)],
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(
                f"{url}/.well-known/openid-configuration", process, log_path, "the OpenID provider"
            )
            yield url
        finally:
            stop(process)


@pytest.fixture(scope="module")
def server(provider, browser, tmp_path_factory):
    home = tmp_path_factory.mktemp("qg-server-home")
    port = free_port()
    (home / "secrets.toml").write_text(f"""
[auth]
redirect_uri = "http://127.0.0.1:{port}/oauth2callback"
cookie_secret = "{secrets.token_hex(32)}"
client_id = "qg-studio"
client_secret = "{secrets.token_hex(16)}"
server_metadata_url = "{provider}/.well-known/openid-configuration"
""")
    with run_app(
        home,
        port=port,
        env={"QG_STUDIO_MODE": "server"},
        args=["--secrets.files", str(home / "secrets.toml")],
        log_name="server.log",
    ) as url:
        yield url, home


def _seed(home, issuer: str) -> dict[str, dict]:
    """Each teacher's project, story and one question they have edited once."""
    seeded = {}
    for sub, (email, project_name, text) in TEACHERS.items():
        store = Store(home / DB_NAME, user=f"{issuer}|{sub}")
        project = store.create_project(project_name)
        story = store.add_story(project, f"{sub.title()}'s story", text, [Section(1, text)])
        item = QAItem(
            question=f"What did {sub} ask first?",
            answers=["x"],
            element="action",
            explicitness="explicit",
            sections=[1],
        )
        [item_id] = store.add_items(story, [item], actor="t5-small")
        store.update_item(item_id, email, question=f"What did {sub} ask second?")
        seeded[sub] = {"store": store, "project": project, "item": item_id}
    return seeded


def _sign_in(browser, url: str, sub: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(45_000)
    open_page(page, url)
    page.get_by_role("button", name="Sign in").click()
    page.locator(f"button[name='sub'][value='{sub}']").click()  # the provider's form
    page.wait_for_url(f"{url}/**")
    page.wait_for_selector("[data-testid='stMain']")
    wait_for_app(page)
    # The page keeps an address from turning into a link with an invisible word joiner.
    email = re.escape(TEACHERS[sub][0]).replace("@", "@\u2060?")
    page.get_by_text(re.compile(f"Signed in as {email}")).wait_for()
    return page


def _page_text(page) -> str:
    """What the page shows: its text and the values in its fields."""
    values = page.locator("textarea, input").evaluate_all("els => els.map(e => e.value)")
    return page.locator("body").inner_text() + "\n" + "\n".join(values)


def _project_choices(page) -> list[str]:
    page.get_by_role("combobox", name="Project", exact=True).click()
    options = page.get_by_role("option")
    options.first.wait_for()
    names = options.all_inner_texts()
    page.keyboard.press("Escape")
    return names


def _history_who(page) -> str:
    page.get_by_text("History of changes").click()
    table = page.locator("[data-testid='stExpander'] [data-testid='stDataFrame']").last
    table.wait_for()
    # The grid is drawn on a canvas; its cells are also in an accessible table inside it.
    cells = table.locator("[role='gridcell']")
    cells.first.wait_for(state="attached")
    return "\n".join(cells.all_text_contents())


def test_two_teachers_each_see_and_undo_only_their_own(browser, server, provider):
    url, home = server
    with urllib.request.urlopen(f"{provider}/.well-known/openid-configuration") as reply:
        issuer = json.load(reply)["issuer"]
    seeded = _seed(home, issuer)

    stranger = browser.new_context().new_page()
    open_page(stranger, url)
    stranger.get_by_role("button", name="Sign in").wait_for()
    body = _page_text(stranger)
    assert all(name not in body for _, name, _ in TEACHERS.values())
    stranger.context.close()

    pages = {sub: _sign_in(browser, url, sub) for sub in TEACHERS}
    for sub, page in pages.items():
        other = "bob" if sub == "alice" else "alice"
        choices = _project_choices(page)
        assert any(TEACHERS[sub][1] in c for c in choices), choices
        assert not any(TEACHERS[other][1] in c for c in choices), choices
        shown = _page_text(page)
        assert TEACHERS[sub][2] in shown and TEACHERS[other][2] not in shown

    # Bob types Alice's project id into the address: refused, nothing of hers shown.
    bob = pages["bob"]
    for path in ("story", "curate"):
        open_page(bob, url, f"{path}?project={seeded['alice']['project']}")
        body = _page_text(bob)
        assert f"no project {seeded['alice']['project']} among your projects" in body
        assert TEACHERS["alice"][1] not in body and TEACHERS["alice"][2] not in body
        assert "What did alice" not in body

    # Curate: each history shows its own teacher; Bob's undo reverts Bob's edit only.
    open_page(bob, url, "curate")
    who = _history_who(bob)
    assert "bob@school.test" in who and "alice@school.test" not in who
    bob.get_by_role("button", name="Undo", exact=True).click()
    wait_for_app(bob)
    alice_store, bob_store = seeded["alice"]["store"], seeded["bob"]["store"]
    assert bob_store.get_item(seeded["bob"]["item"]).question == "What did bob ask first?"
    assert alice_store.get_item(seeded["alice"]["item"]).question == "What did alice ask second?"
    alice = pages["alice"]
    open_page(alice, url, "curate")
    assert "bob@school.test" not in _history_who(alice)
    alice.get_by_role("button", name="Undo", exact=True).click()
    wait_for_app(alice)
    assert alice_store.get_item(seeded["alice"]["item"]).question == "What did alice ask first?"
    assert [
        h["user"] for h in bob_store.history(bob_store.latest_story(seeded["bob"]["project"]).id)
    ] == [f"{issuer}|bob"] * 3
    for page in pages.values():
        page.context.close()
