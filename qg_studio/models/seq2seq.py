"""Any seq2seq model (T5, BART, BERT2BERT): loaded once per checkpoint, decoded in batches.

:func:`load_seq2seq` opens a folder, a cached hub model or a hub id (found through
:func:`qg_studio.models.registry.locate`) on the device :func:`qg_studio.models.registry.choose_device` picks.
The decoding is shared by the question generator, the unified answerer and the training
recipes' validation, so that all three decode the same way: inputs sorted by length (less
padding), per-call beam/sampling settings, one confidence per output.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from typing import Sequence

from qg_studio.models.config import TrainedConfig
from qg_studio.models.loading import loads_model
from qg_studio.models.registry import ModelError
from qg_studio.models.registry import ResolvedModel
from qg_studio.models.registry import choose_device
from qg_studio.models.registry import default_model
from qg_studio.models.registry import locate
from qg_studio.models.registry import resolve


@dataclass
class LoadedModel:
    model: Any
    tokenizer: Any
    device: Any
    dtype: Any
    location: str
    max_input_tokens: int
    max_new_tokens: int
    config: TrainedConfig  # what it was trained with

    @property
    def is_encoder_decoder_warm_start(self) -> bool:
        return getattr(self.model.config, "model_type", "") == "encoder-decoder"


def _max_input_tokens(config, tokenizer, trained: TrainedConfig) -> int:
    if trained.max_source_length:
        return int(trained.max_source_length)
    for cfg in (config, getattr(config, "encoder", None)):
        for key in ("max_position_embeddings", "n_positions"):
            value = getattr(cfg, key, None) if cfg is not None else None
            if isinstance(value, int) and value > 0:
                return value
    limit = getattr(tokenizer, "model_max_length", None)
    # T5 has relative positions and no hard limit; its tokenizer says 512, as it was trained.
    return int(limit) if isinstance(limit, int) and 0 < limit < 100_000 else 512


def _max_new_tokens(model, trained: TrainedConfig) -> int:
    if trained.max_target_length:
        return int(trained.max_target_length)
    gen = getattr(model, "generation_config", None)
    if gen is not None and getattr(gen, "max_new_tokens", None):
        return int(gen.max_new_tokens)
    if gen is not None and getattr(gen, "max_length", None) not in (None, 20):
        return int(gen.max_length)  # 20 is transformers' placeholder default, not the model's
    return 64


@lru_cache(maxsize=4)
@loads_model
def _load(location: str, device: str | None) -> LoadedModel:
    from transformers import AutoModelForSeq2SeqLM
    from transformers import AutoTokenizer

    dev, dtype = choose_device(device)
    try:
        tokenizer = AutoTokenizer.from_pretrained(location)
        model = AutoModelForSeq2SeqLM.from_pretrained(location, dtype=dtype)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"cannot load the seq2seq model at {location}: {first}") from None
    model.to(dev)
    model.eval()
    trained = (
        TrainedConfig.from_pretrained(location) if Path(location).is_dir() else TrainedConfig()
    )
    return LoadedModel(
        model=model,
        tokenizer=tokenizer,
        device=dev,
        dtype=dtype,
        location=location,
        max_input_tokens=_max_input_tokens(model.config, tokenizer, trained),
        max_new_tokens=_max_new_tokens(model, trained),
        config=trained,
    )


def load_seq2seq(source: str, device: str | None = None) -> LoadedModel:
    """Load a seq2seq checkpoint once per process (a folder, a cached hub model or a hub id)."""
    return _load(locate(source), device)


_NO_MODEL = {"qg": "no question-generation model", "qa": "no seq2seq answering model"}


def load_for_role(
    model: str | None, role: str, device: str | None = None
) -> tuple[ResolvedModel, LoadedModel]:
    """An engine's model: ``model`` (a registry name, a checkpoint folder or a hub id), or
    the first ready registry model for ``role`` ("qg" or "qa") that is here."""
    if model is None:
        model = default_model(role)
    if not model:
        raise ModelError(
            f"{_NO_MODEL[role]} is available: pass --model DIR "
            f"(a checkpoint folder or hub id) or train one (qg-studio train {role})"
        )
    resolved = resolve(model, role)
    return resolved, load_seq2seq(resolved.location, device)


@dataclass
class DecodeSettings:
    num_beams: int = 4
    do_sample: bool = False
    temperature: float = 1.0
    top_p: float = 0.95
    top_k: int = 50
    max_new_tokens: int | None = None  # None: the model's own limit (LoadedModel.max_new_tokens)
    no_repeat_ngram_size: int = 3
    batch_size: int = 16
    seed: int | None = 0

    def updated(self, **changes: Any) -> "DecodeSettings":
        values = asdict(self)
        values.update({k: v for k, v in changes.items() if v is not None})
        return DecodeSettings(**values)

    @classmethod
    def from_options(
        cls, options: dict[str, Any], accepted: Sequence[str], **fixed: Any
    ) -> "DecodeSettings":
        """An engine's decoding: these defaults, then the engine options it ``accepted``
        (others are meant for other engines), then what the engine ``fixed``."""
        return cls(**{k: v for k, v in options.items() if k in accepted}, **fixed)


def token_lengths(tokenizer, texts: Sequence[str]) -> list[int]:
    return [len(ids) for ids in tokenizer(list(texts), add_special_tokens=True)["input_ids"]]


def generate_texts(
    loaded, prompts: Sequence[str], settings: DecodeSettings | None = None
) -> list[tuple[str, float]]:
    """(text, confidence) per prompt, in the prompts' order. Confidence is the geometric
    mean token probability of the output (exp of its mean log-probability)."""
    import torch

    settings = settings or DecodeSettings()
    if not prompts:
        return []
    tokenizer, model = loaded.tokenizer, loaded.model
    max_new = settings.max_new_tokens or loaded.max_new_tokens
    lengths = token_lengths(tokenizer, prompts)
    order = sorted(range(len(prompts)), key=lambda i: -lengths[i])
    out: list[tuple[str, float] | None] = [None] * len(prompts)
    if settings.seed is not None and settings.do_sample:
        torch.manual_seed(settings.seed)
    kwargs: dict[str, Any] = dict(
        max_new_tokens=max_new,
        num_beams=settings.num_beams,
        do_sample=settings.do_sample,
        output_scores=True,
        return_dict_in_generate=True,
    )
    if settings.do_sample:
        kwargs.update(temperature=settings.temperature, top_p=settings.top_p, top_k=settings.top_k)
    if settings.no_repeat_ngram_size:
        kwargs["no_repeat_ngram_size"] = settings.no_repeat_ngram_size
    _ensure_generation_ids(model, tokenizer)
    with torch.inference_mode():
        for start in range(0, len(order), settings.batch_size):
            idx = order[start : start + settings.batch_size]
            # Callers window long inputs and warn first; this cut is only a safety net.
            enc = tokenizer(
                [prompts[i] for i in idx],
                padding=True,
                truncation=True,
                max_length=loaded.max_input_tokens,
                return_tensors="pt",
                return_token_type_ids=False,
            ).to(loaded.device)
            result = model.generate(**enc, **kwargs)
            texts = tokenizer.batch_decode(result.sequences, skip_special_tokens=True)
            scores = _confidences(model, result, settings)
            for i, text, score in zip(idx, texts, scores):
                out[i] = (tidy(text), score)
    return [item for item in out if item is not None]


def _confidences(model, result, settings: DecodeSettings) -> list[float]:
    import torch

    if getattr(result, "sequences_scores", None) is not None:
        # Beam search already gives the length-normalised log-probability.
        return [float(math.exp(s)) for s in result.sequences_scores.float().cpu()]
    steps = (
        model.compute_transition_scores(result.sequences, result.scores, normalize_logits=True)
        .float()
        .cpu()
    )
    values = []
    for row in steps:
        finite = row[torch.isfinite(row)]
        # Positions after EOS score 0 (padding); averaging them in would inflate the mean.
        finite = finite[finite != 0] if (finite != 0).any() else finite
        values.append(float(math.exp(finite.mean())) if len(finite) else 0.0)
    return values


def _ensure_generation_ids(model, tokenizer) -> None:
    """BERT2BERT checkpoints carry no decoder start id unless set: use [CLS] as in the recipe."""
    gen = model.generation_config
    if (
        gen.decoder_start_token_id is None
        and getattr(model.config, "decoder_start_token_id", None) is None
    ):
        start = (
            tokenizer.cls_token_id if tokenizer.cls_token_id is not None else tokenizer.bos_token_id
        )
        gen.decoder_start_token_id = start
    if gen.pad_token_id is None:
        gen.pad_token_id = tokenizer.pad_token_id
    if gen.eos_token_id is None:
        gen.eos_token_id = (
            tokenizer.eos_token_id if tokenizer.eos_token_id is not None else tokenizer.sep_token_id
        )


def score_targets(loaded, prompts: Sequence[str], targets: Sequence[str]) -> list[list[float]]:
    """Log-probability of each target sequence for each prompt (constrained choice, e.g.
    yes/no): ``scores[i][j]`` is log P(targets[j] | prompts[i])."""
    import torch

    tokenizer, model = loaded.tokenizer, loaded.model
    _ensure_generation_ids(model, tokenizer)
    labels = tokenizer(
        list(targets), padding=True, return_tensors="pt", return_token_type_ids=False
    )["input_ids"]
    if tokenizer.pad_token_id is not None:
        labels = labels.masked_fill(labels == tokenizer.pad_token_id, -100)
    labels = labels.to(loaded.device)
    out: list[list[float]] = []
    with torch.inference_mode():
        for prompt in prompts:
            enc = tokenizer(
                [prompt] * len(targets),
                truncation=True,
                max_length=loaded.max_input_tokens,
                return_tensors="pt",
                return_token_type_ids=False,
            ).to(loaded.device)
            logits = model(**enc, labels=labels).logits.float()
            logp = torch.log_softmax(logits, dim=-1)
            mask = labels != -100
            picked = logp.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
            out.append([float(v) for v in (picked * mask).sum(-1).cpu()])
    return out


_SPACE_FIX = [
    (re.compile(r"\s+([?.,!;:])"), r"\1"),
    (re.compile(r"\s*'\s*(s|t|re|ve|ll|d|m)\b"), r"'\1"),
    (re.compile(r"\s+"), " "),
]


def tidy(text: str) -> str:
    """Undo word-piece spacing ("king ' s son ?" → "king's son?")."""
    text = text.strip()
    for pattern, repl in _SPACE_FIX:
        text = pattern.sub(repl, text)
    return text.strip()
