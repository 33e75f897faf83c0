"""Going on with a run: from its last checkpoint (same work folder) or from the adapter a
run left (``--continue-from``), with the learning rate where the schedule had got to."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def init_record(init_adapter: str | Path | None) -> dict[str, Any] | None:
    """Where a warm-started run began: the adapter's own steps and log, so the card tells
    the whole history."""
    if not init_adapter:
        return None
    from qg_studio.models.config import TrainedConfig

    before = TrainedConfig.from_pretrained(init_adapter)
    return {"steps": before.steps, "settings": before.settings or None, "log": before.log}


REWARM_STEPS = 10  # a continued run's optimizer starts with no moments: ease it in


def learning_rate_at(settings) -> float:
    """The learning rate the linear schedule had reached at ``start_step``: decaying from
    it to 0 over the remaining steps is the schedule's own tail."""
    if not settings.start_step:
        return settings.learning_rate
    decaying = max(1, settings.max_steps - settings.warmup_steps)
    left = max(0, settings.max_steps - max(settings.start_step, settings.warmup_steps))
    return settings.learning_rate * left / decaying


def where_from(checkpoint: str | None, start_step: int) -> str:
    if checkpoint:
        return f"resuming from {checkpoint}"
    return f"going on from step {start_step}" if start_step else "from the start"


def last_checkpoint(work: Path) -> str | None:
    from transformers.trainer_utils import get_last_checkpoint

    return get_last_checkpoint(str(work)) if work.is_dir() else None
