"""Trainer callbacks every recipe shares: a time budget, and progress lines for the log.

A shared CPU has minutes, not epochs, to give: a run says how long it may take and stops
there with its model saved, whatever it was training.
"""

from __future__ import annotations

import time
from typing import Callable


def time_limit(seconds: float):
    """A callback that stops training ``seconds`` after it is made; when the run
    evaluates, it evaluates and saves once more first, so the best checkpoint is kept."""
    from transformers import TrainerCallback

    class TimeLimit(TrainerCallback):
        def __init__(self) -> None:
            self.deadline = time.time() + seconds
            self.reached_at: int | None = None

        def on_step_end(self, args, state, control, **kwargs):
            if time.time() > self.deadline:
                control.should_training_stop = True
                self.reached_at = state.global_step
                if args.eval_strategy != "no":
                    control.should_evaluate = True
                    control.should_save = True
            return control

    return TimeLimit()


def log_lines(log: Callable[[str], None], total: int):
    """A callback that writes the trainer's loss logs as one line each, with the pace."""
    from transformers import TrainerCallback

    class LogLines(TrainerCallback):
        def __init__(self) -> None:
            self.started = time.time()

        def on_log(self, args, state, control, logs=None, **kwargs):
            if not logs or "loss" not in logs or not state.global_step:
                return control
            elapsed = time.time() - self.started
            pace = elapsed / state.global_step
            log(
                f"step {state.global_step}/{total} loss {logs['loss']:.3f} {pace:.2f}s/step "
                f"eta {(total - state.global_step) * pace / 60:.1f}min"
            )
            return control

    return LogLines()
