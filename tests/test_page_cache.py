"""Page work cached under the story's last change: a rerun, another quiz format or another
page finds it; any edit to the questions makes it new."""

from __future__ import annotations

from pathlib import Path

import pytest
from export_story import STORY
from export_story import items
from export_story import sections
from streamlit.testing.v1 import AppTest

from qg_studio.export import quizset
from qg_studio.store import Store

APP = str(Path(__file__).parent / "apps" / "export_page.py")


@pytest.fixture
def story_id():
    secs = sections()
    with Store() as store:
        project = store.create_project("Cache")
        story = store.add_story(project, "Greta", "\n\n".join(STORY), secs)
        store.add_items(story, items(secs), actor="embedded")
    return story


def test_switching_quiz_formats_does_not_recompute_the_preview(story_id, monkeypatch):
    calls = []
    real = quizset.prepare
    monkeypatch.setattr(quizset, "prepare", lambda *a, **k: calls.append(1) or real(*a, **k))
    at = AppTest.from_file(APP, default_timeout=90).run()
    at.selectbox(key="export_format").set_value("kahoot").run()
    assert not at.exception
    made = len(calls)
    assert made >= 1
    for fmt in ("gift", "aiken", "kahoot"):
        at.selectbox(key="export_format").set_value(fmt).run()
        assert not at.exception
    assert len(calls) == made  # the same preview for every quiz format, from the cache
    before = at.dataframe[0].value
    with Store() as store:  # an edit is a new last change: the preview follows it
        first = store.list_items(story_id)[0]
        store.update_item(first.id, actor="teacher", question="Who rode past the old mill?")
    at.run()
    assert len(calls) > made
    assert "Who rode past the old mill?" in set(at.dataframe[0].value["Question"])
    assert "Who rode past the old mill?" not in set(before["Question"])
