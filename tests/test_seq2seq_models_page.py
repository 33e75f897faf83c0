"""The Models page (Streamlit AppTest): which engine is in use and why, and the registry."""

from __future__ import annotations

from pathlib import Path

from seq2seq_tiny import tiny_t5
from streamlit.testing.v1 import AppTest

from qg_studio.models.registry import ModelEntry
from qg_studio.models.registry import add_user_entry

APP = str(Path(__file__).parent / "apps" / "models_page.py")


def test_page_shows_engines_notices_and_availability(tmp_path):
    broken = tmp_path / "broken-qg"
    broken.mkdir()
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        (broken / name).write_text("garbage")
    add_user_entry(ModelEntry("broken-qg", str(broken), roles=["qg"], origin="user"))
    add_user_entry(
        ModelEntry(
            "tiny-qa",
            str(tiny_t5(tmp_path / "tiny-qa")),
            roles=["qa"],
            prompt_format="storyqa",
            origin="user",
        )
    )
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    markdown = " ".join(m.value for m in at.markdown)
    assert "Engine in use: **embedded**" in markdown
    assert "Engine in use: **seq2seq** — model `tiny-qa`" in markdown
    notice = " ".join(i.value for i in at.info)
    assert "broken-qg: broken" in notice and "The built-in embedded engine writes" in notice
    assert any("tiny-qa" in s.value for s in at.success)
    table = at.dataframe[0].value
    rows = {r["name"]: r for r in table.to_dict("records")}
    assert rows["tiny-qa"]["available here"] == "yes"
    assert rows["broken-qg"]["available here"] == "yes"  # files present, yet it fails to load
