"""A teacher's edit of a saved question, the one way the Curate page's table and its detail
panel (and any other editor) save one: the fields as typed, and what follows from them."""

from __future__ import annotations

from typing import Any

from qg_studio.schema import Evidence
from qg_studio.schema import QAItem


def edit_item(store, story_id: int, item_id: int, actor: str, **changes: Any) -> QAItem:
    """Save ``changes`` to the item. A new answer moves the evidence to where the story
    says it (in the item's sections first), or clears it when the story does not: the
    highlight never shows where the old answer was."""
    if "answers" in changes and "evidence" not in changes:
        item = store.get_item(item_id)
        answers = [a for a in changes["answers"] if str(a).strip()]
        if answers and answers != item.answers:
            sections = store.get_story(story_id).sections
            mine = [s for s in sections if s.id in item.sections]
            others = [s for s in sections if s.id not in item.sections]
            found = next(
                (ev for s in [*mine, *others] for ev in [Evidence.find(s, answers[0])] if ev),
                None,
            )
            changes["evidence"] = [found] if found else []
    return store.update_item(item_id, actor, **changes)
