"""What QG Studio records beside every checkpoint it trains (``qg_studio.json``).

The prompt format and the window sizes the model learned, so a bare folder passed as
``--model`` is prompted the way it was trained; and the run's settings, step and log, so
a training goes on where it stopped. Like a Hugging Face config: one typed class,
:meth:`TrainedConfig.from_pretrained` and :meth:`TrainedConfig.save_pretrained` are
symmetric, and whatever a recipe records beyond the typed fields (val figures, notes) is
kept in ``extra`` and written back as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from dataclasses import field
from dataclasses import fields
from pathlib import Path
from typing import Any

CONFIG_FILE = "qg_studio.json"


@dataclass
class TrainedConfig:
    # how to prompt it
    prompt_format: str | None = None
    roles: list[str] = field(default_factory=list)  # "qg", "qa", "qag": what it was trained for
    qg_window_words: int | None = None  # words around the answer a question is written from
    qa_window_words: int | None = None  # words nearest the question an answer is read from
    qag_window_words: int | None = None  # words of a reading window the proposer reads
    context_words: int | None = None  # a seq2seq model's window, when it had one
    max_source_length: int | None = None
    max_target_length: int | None = None
    max_tokens: int | None = None
    # what it sits on
    base: str | None = None
    base_path: str | None = None  # a base folder other than the wheel's (tests' tiny Llama)
    # how it was trained, and how far
    data: str | None = None
    steps: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)
    log_before: list[dict[str, Any]] = field(default_factory=list)
    train_examples: dict[str, int] = field(default_factory=dict)
    init_adapter: dict[str, Any] | None = None
    held_out_stories: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainedConfig:
        known = {f.name for f in fields(cls)} - {"extra"}
        typed = {k: v for k, v in data.items() if k in known and v is not None}
        return cls(**typed, extra={k: v for k, v in data.items() if k not in known})

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        out = {k: v for k, v in out.items() if v not in (None, [], {})}
        return {**out, **self.extra}

    @classmethod
    def from_pretrained(cls, folder: str | Path) -> TrainedConfig:
        """The config saved in ``folder``; an empty one when there is none or it is
        unreadable (a checkpoint from elsewhere records nothing)."""
        path = Path(folder) / CONFIG_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        except (OSError, ValueError):
            data = {}
        return cls.from_dict(data if isinstance(data, dict) else {})

    def save_pretrained(self, folder: str | Path) -> Path:
        path = Path(folder) / CONFIG_FILE
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=2) + "\n", encoding="utf-8")
        return path

    def updated(self, **changes: Any) -> TrainedConfig:
        """A copy with ``changes`` (typed fields or extra keys) applied."""
        return TrainedConfig.from_dict({**self.to_dict(), **changes})
