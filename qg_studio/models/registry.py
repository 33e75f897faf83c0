"""The model registry: where each model lives, its recorded settings, the device.

The registry is ``models/registry.toml`` (shipped) with ``$QG_STUDIO_HOME/registry.toml``
(what ``qg-studio train`` adds on this machine) merged over it by name. An entry::

    [models.unifiedqa-v2-t5-base]
    source = "allenai/unifiedqa-v2-t5-base-1363200"  # folder under models/, a path, or a hub id
    architecture = "t5"
    prompt_format = "unifiedqa"                     # see qg_studio.models.prompts
    roles = ["qa"]                                  # "qg" question generation, "qa" answering
    stage = "ready"                                 # "ready" to use, or "base" to fine-tune
    needs_download = true

It imports no loader: :mod:`qg_studio.models.choice` is the one that knows them all.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from qg_studio import toml as tomllib
from qg_studio.models.config import TrainedConfig
from qg_studio.paths import shipped
from qg_studio.schema import Record

log = logging.getLogger(__name__)

MODELS_DIR = shipped("models")
SHIPPED_REGISTRY = MODELS_DIR / "registry.toml"
USER_REGISTRY_NAME = "registry.toml"
ROLES = ("qg", "qa")
STAGES = ("ready", "base")
FALLBACK = {"qg": "embedded", "qa": "extractive"}
ROLE_NAMES = {"qg": "question-generation", "qa": "answering"}
WRITES = {"qg": "questions", "qa": "answers"}  # what an engine of each role writes
HUB_TIMEOUT_S = 5.0
_WEIGHTS = (
    "model.safetensors",
    "pytorch_model.bin",
    "model.safetensors.index.json",
    "pytorch_model.bin.index.json",
)
_TOKENIZER = ("tokenizer.json", "tokenizer_config.json", "spiece.model", "vocab.json", "vocab.txt")


class ModelError(OSError):
    """A model cannot be found, fetched or loaded; the message is one line. An OSError,
    like the missing-file errors the CLI already reports in one line."""


@dataclass
class ModelEntry(Record):
    name: str
    source: str
    architecture: str = ""
    prompt_format: str = ""
    roles: list[str] = field(default_factory=list)
    stage: str = "ready"
    needs_download: bool = False
    description: str = ""
    origin: str = "shipped"  # "shipped" or "user": which registry file it came from
    engine: str = "seq2seq"  # the engine that runs it: seq2seq, or smollm (a LoRA adapter)

    @property
    def is_hub_id(self) -> bool:
        return (
            self.engine == "seq2seq"
            and local_path(self.source) is None
            and _looks_like_hub_id(self.source)
        )


# -- registry ---------------------------------------------------------------------------


def user_registry_path() -> Path:
    from qg_studio.store import default_data_dir

    return default_data_dir() / USER_REGISTRY_NAME


def _parse_file(path: Path, origin: str) -> dict[str, ModelEntry]:
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise ModelError(f"cannot read the model registry {path}: {exc}") from None
    entries: dict[str, ModelEntry] = {}
    for name, raw in (data.get("models") or {}).items():
        if not isinstance(raw, dict) or not raw.get("source"):
            raise ModelError(f"model {name!r} in {path} has no source")
        roles = [str(r) for r in raw.get("roles", [])]
        unknown = [r for r in roles if r not in ROLES]
        stage = str(raw.get("stage", "ready"))
        if unknown or stage not in STAGES:
            raise ModelError(
                f"model {name!r} in {path}: roles must be among {ROLES} and stage one of {STAGES}"
            )
        entries[name] = ModelEntry(
            name=name,
            source=str(raw["source"]),
            architecture=str(raw.get("architecture", "")),
            prompt_format=str(raw.get("prompt_format", "")),
            roles=roles,
            stage=stage,
            needs_download=bool(raw.get("needs_download", False)),
            description=str(raw.get("description", "")),
            origin=origin,
            engine=str(raw.get("engine", "seq2seq")),
        )
    return entries


def load_registry(shipped: Path | None = None, user: Path | None = None) -> dict[str, ModelEntry]:
    """All entries, the user's (trained here) first and overriding shipped ones by name."""
    shipped_entries = _parse_file(shipped or SHIPPED_REGISTRY, "shipped")
    user_entries = _parse_file(user or user_registry_path(), "user")
    merged = dict(user_entries)
    for name, entry in shipped_entries.items():
        merged.setdefault(name, entry)
    return merged


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a valid TOML basic string


def add_user_entry(entry: ModelEntry, path: Path | None = None) -> Path:
    """Add or replace ``entry`` in the user registry; the shipped file is never edited."""
    path = path or user_registry_path()
    existing = _parse_file(path, "user")
    existing[entry.name] = entry
    lines = [
        "# Models added on this machine (qg-studio train); merged over the shipped registry.",
        "",
    ]
    for item in existing.values():
        fields = item.to_dict()
        fields.pop("name")
        fields.pop("origin")
        lines.append(f"[models.{json.dumps(item.name)}]")
        lines += [f"{key} = {_toml_value(value)}" for key, value in fields.items()]
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)
    return path


# -- where a model lives ----------------------------------------------------------------


def _looks_like_hub_id(source: str) -> bool:
    parts = source.split("/")
    return 1 <= len(parts) <= 2 and all(parts) and not source.startswith((".", "~"))


def local_path(source: str) -> Path | None:
    """The folder ``source`` names here (a folder under models/, or any path), if it exists."""
    candidates = [Path(source).expanduser()]
    if not Path(source).is_absolute():
        candidates.insert(0, MODELS_DIR / source)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate.resolve()
    return None


def _missing_files(folder: Path) -> str | None:
    if not (folder / "config.json").is_file():
        return "config.json is missing"
    if not any((folder / name).is_file() for name in _WEIGHTS):
        return "the weights (model.safetensors) are missing"
    if not any((folder / name).is_file() for name in _TOKENIZER):
        return "the tokenizer files are missing"
    return None


def _hub_cache_folder(repo_id: str) -> Path | None:
    try:
        from huggingface_hub import snapshot_download

        folder = Path(snapshot_download(repo_id, local_files_only=True))
    except Exception:  # not cached, or huggingface_hub absent: both mean "not here"
        return None
    return folder if _missing_files(folder) is None else None


def folder_availability(source: str, name: str | None = None) -> tuple[bool, str]:
    """Whether a transformers checkpoint (a folder, or a hub id in the cache) is on this
    machine, and a short reason."""
    folder = local_path(source)
    if folder is not None:
        missing = _missing_files(folder)
        return (
            missing is None,
            f"local folder {folder}" if missing is None else f"{missing} in {folder}",
        )
    if _looks_like_hub_id(source):
        cached = _hub_cache_folder(source)
        if cached is not None:
            return True, f"downloaded to {cached}"
        return False, f"not downloaded (qg-studio models pull {name or source})"
    return False, f"no folder at {source}"


def locate(source: str) -> str:
    """What ``from_pretrained`` should open: a local folder, the hub cache, or the hub id."""
    folder = local_path(source)
    if folder is not None:
        return str(folder)
    if _looks_like_hub_id(source):
        cached = _hub_cache_folder(source)
        return str(cached) if cached is not None else source
    raise ModelError(f"no model folder at {source} (and it is not a hub id)")


@dataclass
class ResolvedModel:
    """A model named by the user: a registry name, a folder, or a hub id."""

    name: str
    location: str
    prompt_format: str
    entry: ModelEntry | None = None


def resolve(spec: str, role: str, registry: dict[str, ModelEntry] | None = None) -> ResolvedModel:
    """Turn ``--model SPEC`` into a location and the prompt format the model expects."""
    default_format = "qg-control" if role == "qg" else "storyqa"
    if registry is None:
        try:
            registry = load_registry()
        except ModelError:
            registry = {}
    entry = registry.get(spec)
    location = locate(entry.source if entry else spec)
    config = TrainedConfig.from_pretrained(location) if Path(location).is_dir() else None
    fmt = (
        entry.prompt_format
        if entry and entry.prompt_format
        else (config and config.prompt_format) or default_format
    )
    name = entry.name if entry else (Path(spec).name if Path(location).is_dir() else spec)
    return ResolvedModel(name=name, location=location, prompt_format=fmt, entry=entry)


# -- hub ---------------------------------------------------------------------------------


def _hub_reachable(endpoint: str, timeout: float) -> str | None:
    """None when the hub answers; else why not (one phrase)."""
    import urllib.error
    import urllib.request

    try:
        urllib.request.urlopen(urllib.request.Request(endpoint, method="HEAD"), timeout=timeout)
    except urllib.error.HTTPError:
        return None  # it answered, even if with an error status
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        return f"{type(reason).__name__}: {reason}".strip()
    return None


def pull(
    name: str, registry: dict[str, ModelEntry] | None = None, timeout: float = HUB_TIMEOUT_S
) -> Path:
    """Download a registry model (or a hub id) into the Hugging Face cache."""
    registry = load_registry() if registry is None else registry
    entry = registry.get(name)
    source = entry.source if entry else name
    folder = local_path(source)
    if folder is not None:
        missing = _missing_files(folder)
        if missing:
            raise ModelError(f"{name} is a local model and {missing}; nothing to download")
        return folder
    if entry is None and "/" not in name:
        known = ", ".join(registry) or "none"
        raise ModelError(f"unknown model {name!r}; known: {known} (or give a hub id owner/name)")
    from huggingface_hub import constants
    from huggingface_hub import snapshot_download

    if constants.HF_HUB_OFFLINE:
        raise ModelError(f"cannot download {source}: HF_HUB_OFFLINE is set on this machine")
    why = _hub_reachable(constants.ENDPOINT, timeout)
    if why:
        raise ModelError(
            f"cannot download {source}: the model hub {constants.ENDPOINT} is not "
            f"reachable from this machine ({why})"
        )
    try:
        path = snapshot_download(
            source,
            etag_timeout=timeout,
            allow_patterns=["*.json", "*.safetensors", "*.model", "*.txt", "merges.txt", "*.md"],
        )
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"cannot download {source}: {first}") from None
    return Path(path)


# -- device and dtype ------------------------------------------------------------------


def choose_device(device: str | None = None):
    """(torch.device, dtype): CUDA in bf16 (fp16 on older GPUs) when there is one, else CPU fp32."""
    import torch

    if device is None:
        device = "cuda" if torch.cuda.is_available() else "cpu"
    dev = torch.device(device)
    if dev.type == "cuda":
        dtype = torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    else:
        dtype = torch.float32  # half precision on CPU is slower than fp32, and less exact
    return dev, dtype


# -- engine choice -----------------------------------------------------------------------


@dataclass
class EngineChoice:
    name: str  # the engine's name in GENERATORS / ANSWERERS
    options: dict[str, Any]
    notice: str


def default_model(role: str) -> str | None:
    """The first ready registry model for ``role`` whose files are here, or None."""
    try:
        registry = load_registry()
    except ModelError:
        return None
    for entry in (e for e in registry.values() if e.engine == "seq2seq"):
        if role in entry.roles and entry.stage == "ready" and folder_availability(entry.source)[0]:
            return entry.name
    return None
