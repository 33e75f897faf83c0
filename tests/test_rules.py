"""Every rule the embedded engine asks with is declared once and named on what it makes;
golden snapshots of the candidates and the default set of each test story, so a change in
what the generator writes is a reviewed diff (``pytest --update-golden`` rewrites them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from qg_studio.generation.rules import RULES
from qg_studio.schema import QAItem
from qg_studio.schema import Section

FIXTURES = Path(__file__).parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"
PACKAGE = Path(__file__).resolve().parents[1] / "qg_studio"
STORIES = sorted(p.stem for p in FIXTURES.glob("*.txt"))


def test_every_declared_rule_is_used_and_every_rule_used_is_declared():
    used = set()
    for path in (PACKAGE / "generation").glob("*.py"):
        used |= set(re.findall(r'rule="([a-z_.]+)"', path.read_text(encoding="utf-8")))
    assert used == set(RULES)
    for rule in RULES.values():
        # Each declaration names the module it lives in, and that module uses it.
        text = (PACKAGE / "generation" / f"{rule.module}.py").read_text(encoding="utf-8")
        assert f'rule="{rule.id}"' in text, rule.id
        assert "->" in rule.example and rule.explicitness in ("explicit", "implicit", "either")


def test_an_undeclared_rule_cannot_make_an_item():
    from qg_studio.generation.items import found_item

    section = Section(id=1, text="The otter mended the net.")
    with pytest.raises(ValueError, match="undeclared rule 'otter.guess'"):
        found_item(
            "Who mended the net?",
            "the otter",
            "character",
            True,
            section,
            0,
            9,
            0.5,
            rule="otter.guess",
        )


def test_provenance_survives_the_store(tmp_path):
    from qg_studio.store import Store

    item = QAItem(
        "Who mended the net?",
        ["the otter"],
        "character",
        "explicit",
        engine="embedded",
        rule="character.subject",
    )
    assert QAItem.from_dict(item.to_dict()).rule == "character.subject"
    store = Store(tmp_path / "p.sqlite")
    project = store.create_project("Otters")
    text = "The otter mended the net."
    story = store.add_story(project, "Net", text, [Section(id=1, text=text)])
    store.add_items(story, [item], actor="embedded")
    saved = store.list_items(story)[0]
    assert (saved.engine, saved.rule) == ("embedded", "character.subject")


def _row(item: QAItem) -> dict:
    return {
        "question": item.question,
        "answer": item.answer,
        "element": item.element.value,
        "explicitness": item.explicitness.value,
        "engine": item.engine,
        "rule": item.rule,
    }


def _snapshot(name: str) -> dict:
    from qg_studio.generation import get_generator
    from qg_studio.pipeline import story_candidates
    from qg_studio.schema import GenerationRequest
    from qg_studio.services.answers import load_answerer
    from qg_studio.services.generation import generate
    from qg_studio.services.stories import ingest

    text = (FIXTURES / f"{name}.txt").read_text(encoding="utf-8")
    story = ingest(text)
    request = GenerationRequest()
    candidates = get_generator("embedded").generate(story.sections, request)
    candidates += story_candidates(story.sections, story.title)
    run = generate(
        story.sections, request, "embedded", answerer=load_answerer("extractive"), title=story.title
    )
    return {
        "story": name,
        "candidates": sorted(
            (_row(i) for i in candidates), key=lambda r: (r["rule"], r["question"], r["answer"])
        ),
        "default_set": [_row(i) for i in run.items],
    }


@pytest.mark.parametrize("name", STORIES)
def test_golden_snapshot(name, update_golden):
    """What the embedded engine proposes and the default set it gives, for each story of
    tests/fixtures, as last reviewed."""
    got = _snapshot(name)
    assert all(r["rule"] in RULES for r in got["candidates"]), "a candidate names no rule"
    path = GOLDEN / f"{name}.json"
    if update_golden or not path.exists():
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        if not update_golden:
            pytest.fail(f"wrote a new golden snapshot {path.name}: review and commit it")
    assert got == json.loads(path.read_text(encoding="utf-8"))
