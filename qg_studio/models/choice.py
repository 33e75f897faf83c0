"""The engine choice: what the app and the CLI ask for a role ("qg" or "qa") — the best
engine available here, never an exception. A missing or broken checkpoint yields the
embedded (QG) or extractive (QA) engine and a notice saying why.

The one module that knows every loader: the registry below it imports none of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from qg_studio.models.causal_lm import ENGINE  # the loader imports nothing heavy up front
from qg_studio.models.causal_lm import adapter_digest
from qg_studio.models.causal_lm import availability as adapter_availability
from qg_studio.models.causal_lm import load_adapter
from qg_studio.models.causal_lm import read_val
from qg_studio.models.registry import FALLBACK
from qg_studio.models.registry import ROLE_NAMES
from qg_studio.models.registry import WRITES
from qg_studio.models.registry import EngineChoice
from qg_studio.models.registry import ModelEntry
from qg_studio.models.registry import ModelError
from qg_studio.models.registry import folder_availability
from qg_studio.models.registry import load_registry
from qg_studio.models.registry import local_path


def availability(entry: ModelEntry | str) -> tuple[bool, str]:
    """Whether the model's files are on this machine, and a short reason."""
    if isinstance(entry, ModelEntry) and entry.engine == ENGINE:
        return adapter_availability(local_path(entry.source) or Path(entry.source))
    if isinstance(entry, ModelEntry):
        return folder_availability(entry.source, entry.name)
    return folder_availability(entry)


def choose_engine(
    role: str, registry: dict[str, ModelEntry] | None = None, device: str | None = None
) -> EngineChoice:
    """The best engine here for ``role`` ("qg" or "qa"); never raises."""
    fallback = FALLBACK.get(role, "embedded")
    what = ROLE_NAMES.get(role, role)
    try:
        registry = load_registry() if registry is None else registry
    except ModelError as exc:
        return EngineChoice(fallback, {}, f"{exc}; using the {fallback} engine")
    problems: list[str] = []
    for entry in registry.values():
        if role not in entry.roles or entry.stage != "ready":
            continue
        ok, reason = availability(entry)
        if not ok:
            problems.append(f"{entry.name}: {reason}")
            continue
        if entry.engine == ENGINE:
            choice, problem = lm_engine_choice(entry, role, device)
            if choice is not None:
                return choice
            problems.append(f"{entry.name}: {problem}")
            continue
        try:
            from qg_studio.models.seq2seq import load_seq2seq

            loaded = load_seq2seq(entry.source, device)
        except Exception as exc:  # a broken checkpoint must not take the app down
            problems.append(f"{entry.name}: broken ({exc})")
            continue
        notice = f"using the {what} model {entry.name} on {loaded.device.type}"
        if problems:
            notice += " (skipped " + "; ".join(problems) + ")"
        return EngineChoice("seq2seq", {"model": entry.name}, notice)
    if not problems:
        return EngineChoice(
            fallback,
            {},
            f"the built-in {fallback} engine writes the {WRITES.get(role, what)}: no trained "
            "model is listed for that",
        )
    return EngineChoice(
        fallback,
        {},
        f"the built-in {fallback} engine writes the {WRITES.get(role, what)}; the trained "
        f"models here are not used: {'; '.join(problems)}",
    )


MEASURE_WORDS = {"qg": "questions", "qag": "question sets", "qa": "answers"}


def lm_val_verdict(val: dict[str, Any], role: str) -> tuple[bool, str]:
    """Whether the adapter's recorded val figures beat the fallback engine for ``role``
    (question writing: ``eval qg`` and, when measured, ``eval qag``; answering: ``eval qa``)."""
    fallback = FALLBACK.get(role, "embedded")
    if val.get("limit"):
        # A few stories can favour either engine by chance: a teacher's default is
        # switched on the whole split only.
        return False, (
            f"tried on the first {val['limit']} test stories only; it is used once it "
            "does better on all of them"
        )
    measures = ("qg", "qag") if role == "qg" else ("qa",)
    said = []
    for measure in measures:
        figures = val.get(measure) or {}
        mine, theirs = figures.get(ENGINE), figures.get(fallback)
        if mine is None or theirs is None:
            if measure == measures[0]:
                return (
                    False,
                    f"no val figures for {measure} (python -m qg_studio.train.lm_card measure)",
                )
            continue
        said.append(f"{MEASURE_WORDS[measure]} {mine:.1%} against {theirs:.1%}")
        if mine <= theirs:
            return False, (
                f"no better than the built-in {fallback} engine on the test stories "
                f"({', '.join(said)} like the experts')"
            )
    if role == "qg":
        # ROUGE-L rewards wording like the experts'; a teacher hands out a set only when its
        # questions are right. A person's reading of the default sets (``reading`` in
        # val.json: good and wrong questions per engine, the same stories) has the last word.
        reading = val.get("reading") or {}
        mine, theirs = reading.get(ENGINE), reading.get(fallback)
        if mine and theirs and (mine["wrong"] > theirs["wrong"] or mine["good"] < theirs["good"]):
            return False, (
                f"closer to the experts' wording ({', '.join(said)}) but reads worse to a "
                "teacher: "
                f"{mine['good']} good and {mine['wrong']} wrong of {mine['read']} questions "
                f"against {theirs['good']} and {theirs['wrong']} for {fallback}"
            )
    return (
        True,
        f"better than the built-in {fallback} engine on the test stories ({', '.join(said)})",
    )


def lm_engine_choice(entry, role: str, device: str | None = None) -> tuple[Any, str]:
    """(EngineChoice, "") when this adapter is here, loads, and beat the fallback on val;
    else (None, why not)."""
    folder = local_path(entry.source) or entry.source
    val = read_val(folder)
    wins, why = lm_val_verdict(val, role)
    if not wins:
        return None, why
    measured = val.get("adapter_sha256")
    if measured and Path(folder).is_dir() and measured != adapter_digest(folder):
        # Retrained since it was measured: the figures say nothing of these weights.
        return (
            None,
            "its val figures are for earlier weights (python -m qg_studio.train.lm_card measure)",
        )
    try:
        loaded = load_adapter(folder, device)
    except Exception as exc:  # a broken adapter must not take the app down
        return None, f"broken ({exc})"
    step = val.get("adapter_steps") or loaded.config.steps
    notice = (
        f"using the {ROLE_NAMES.get(role, role)} model {entry.name} (SmolLM2-135M + "
        f"LoRA{f', step {step}' if step else ''}) on {loaded.device.type}: {why}"
    )
    return EngineChoice(ENGINE, {"model": entry.name}, notice), ""
