"""The teacher's decisions in the real app: a question dropped in Curate survives a
regenerate as dropped and never comes back, and one Undo takes the whole regenerate back."""

from __future__ import annotations

from pathlib import Path

from streamlit_helpers import open_page
from streamlit_helpers import wait_for_app
from streamlit_helpers import wait_for_new_history

FABLE = (Path(__file__).parents[1] / "fixtures" / "fable_snail_hares.txt").read_text("utf-8")


def test_drop_regenerate_still_dropped_then_one_undo(page, app_url, data_dir):
    from qg_studio.schema import GenerationRequest
    from qg_studio.services.generation import generate
    from qg_studio.services.stories import ingest
    from qg_studio.store import DB_NAME
    from qg_studio.store import Store

    story = ingest(FABLE)
    run = generate(story.sections, GenerationRequest(count=8), "embedded", use_embeddings=False)
    with Store(data_dir / DB_NAME) as store:
        project = store.create_project("Decisions", {"engine": "embedded"})
        story_id = store.add_story(project, story.title, story.text, story.sections)
        store.add_items(story_id, run.items, actor="embedded", label="generated 8 questions")
        first = store.list_items(story_id)[0]
        section = next(s for s in first.sections)
    open_page(page, app_url, f"curate?project={project}")
    # The teacher drops the first question (the detail panel shows it first).
    page.get_by_text("Drop", exact=True).first.click()
    wait_for_app(page)
    with Store(data_dir / DB_NAME) as store:
        assert store.get_item(first.id).status.value == "dropped"
        before = {(i.id, i.status.value) for i in store.list_items(story_id)}
        steps_before = len(store.history(story_id))
    # She regenerates the section the dropped question is about.
    page.get_by_text("Regenerate a section or an element").click()
    assert section == story.sections[0].id  # the section the list starts on
    regenerate = page.get_by_role("button", name="Regenerate", exact=True)
    regenerate.click()
    # On a busy machine the rerun can start later than wait_for_app looks for it, and a
    # click on Undo while it runs would cancel it: wait for its step in the store.
    wait_for_new_history(data_dir, story_id, steps_before, page, regenerate)
    wait_for_app(page, timeout=120_000)
    with Store(data_dir / DB_NAME) as store:
        after = store.list_items(story_id)
        again = [i for i in after if i.question.lower() == first.question.lower()]
        assert [(i.id, i.status.value) for i in again] == [(first.id, "dropped")]
    # One Undo takes the whole regenerate back.
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_for_app(page)
    with Store(data_dir / DB_NAME) as store:
        assert {(i.id, i.status.value) for i in store.list_items(story_id)} == before
