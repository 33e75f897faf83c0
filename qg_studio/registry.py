"""Name → implementation tables for engines, loaded lazily.

Like spaCy's registries, but small: an entry is ``"module:attr"`` so that asking for
the embedded engine never imports torch, and a missing optional engine fails only
when it is chosen.
"""

from __future__ import annotations

import importlib
from typing import Any

# Every engine, by what it does and by name. The generation and answering packages each
# read their own table; the strings keep this module free of their imports.
ENGINES: dict[str, dict[str, str]] = {
    "question engine": {
        "embedded": "qg_studio.generation.embedded:EmbeddedGenerator",
        "seq2seq": "qg_studio.generation.seq2seq_writer:Seq2SeqGenerator",
        "smollm": "qg_studio.generation.smollm_writer:CausalLMGenerator",
        "proposer": "qg_studio.generation.proposer:LMProposer",
    },
    "answerer": {
        "extractive": "qg_studio.answering.extractive:ExtractiveAnswerer",
        "seq2seq": "qg_studio.answering.unified_seq2seq:UnifiedSeq2SeqAnswerer",
        "smollm": "qg_studio.answering.smollm:CausalLMAnswerer",
    },
    # Tags a batch of questions (element, explicit or implicit): the unified answerer
    # routes by it without importing the tagger's package.
    "question tagger": {
        "default": "qg_studio.tagging:tag_many",
    },
    # Reads the story as a whole (its main characters, opening place, turning point,
    # ending, lesson) as the story-level questions and their keys: every answerer answers
    # "How does the story end?" from it, by name, without importing the generator.
    "story reading": {
        "default": "qg_studio.generation.story_level:whole_story_questions",
    },
}


class Registry:
    def __init__(self, kind: str, entries: dict[str, str]):
        self.kind = kind
        self._entries = dict(entries)

    def names(self) -> list[str]:
        return list(self._entries)

    def register(self, name: str, target: str) -> None:
        self._entries[name] = target

    def get(self, name: str) -> Any:
        try:
            target = self._entries[name]
        except KeyError:
            known = ", ".join(self._entries) or "none"
            raise KeyError(f"unknown {self.kind} {name!r}; known: {known}") from None
        module, _, attr = target.partition(":")
        return getattr(importlib.import_module(module), attr)

    def create(self, name: str, **options: Any) -> Any:
        return self.get(name)(**options)
