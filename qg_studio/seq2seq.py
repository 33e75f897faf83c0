"""Batched decoding for any loaded seq2seq model (T5, BART, BERT2BERT).

Shared by the question generator, the unified answerer and the training recipes'
validation, so that all three decode the same way: inputs sorted by length (less
padding), per-call beam/sampling settings, one confidence per output.
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any, Sequence


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


def token_lengths(tokenizer, texts: Sequence[str]) -> list[int]:
    return [len(ids) for ids in tokenizer(list(texts), add_special_tokens=True)["input_ids"]]


def generate_texts(loaded, prompts: Sequence[str], settings: DecodeSettings | None = None
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
    kwargs: dict[str, Any] = dict(max_new_tokens=max_new, num_beams=settings.num_beams,
                                  do_sample=settings.do_sample, output_scores=True,
                                  return_dict_in_generate=True)
    if settings.do_sample:
        kwargs.update(temperature=settings.temperature, top_p=settings.top_p, top_k=settings.top_k)
    if settings.no_repeat_ngram_size:
        kwargs["no_repeat_ngram_size"] = settings.no_repeat_ngram_size
    _ensure_generation_ids(model, tokenizer)
    with torch.inference_mode():
        for start in range(0, len(order), settings.batch_size):
            idx = order[start:start + settings.batch_size]
            # Callers window long inputs and warn first; this cut is only a safety net.
            enc = tokenizer([prompts[i] for i in idx], padding=True, truncation=True,
                            max_length=loaded.max_input_tokens, return_tensors="pt",
                            return_token_type_ids=False).to(loaded.device)
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
    steps = model.compute_transition_scores(result.sequences, result.scores,
                                            normalize_logits=True).float().cpu()
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
    if gen.decoder_start_token_id is None and getattr(model.config, "decoder_start_token_id",
                                                      None) is None:
        start = tokenizer.cls_token_id if tokenizer.cls_token_id is not None else tokenizer.bos_token_id
        gen.decoder_start_token_id = start
    if gen.pad_token_id is None:
        gen.pad_token_id = tokenizer.pad_token_id
    if gen.eos_token_id is None:
        gen.eos_token_id = (tokenizer.eos_token_id if tokenizer.eos_token_id is not None
                            else tokenizer.sep_token_id)


def score_targets(loaded, prompts: Sequence[str], targets: Sequence[str]) -> list[list[float]]:
    """Log-probability of each target sequence for each prompt (constrained choice, e.g.
    yes/no): ``scores[i][j]`` is log P(targets[j] | prompts[i])."""
    import torch

    tokenizer, model = loaded.tokenizer, loaded.model
    _ensure_generation_ids(model, tokenizer)
    labels = tokenizer(list(targets), padding=True, return_tensors="pt",
                       return_token_type_ids=False)["input_ids"]
    if tokenizer.pad_token_id is not None:
        labels = labels.masked_fill(labels == tokenizer.pad_token_id, -100)
    labels = labels.to(loaded.device)
    out: list[list[float]] = []
    with torch.inference_mode():
        for prompt in prompts:
            enc = tokenizer([prompt] * len(targets), truncation=True,
                            max_length=loaded.max_input_tokens, return_tensors="pt",
                            return_token_type_ids=False).to(loaded.device)
            logits = model(**enc, labels=labels).logits.float()
            logp = torch.log_softmax(logits, dim=-1)
            mask = labels != -100
            picked = logp.gather(-1, labels.clamp(min=0).unsqueeze(-1)).squeeze(-1)
            out.append([float(v) for v in (picked * mask).sum(-1).cpu()])
    return out


_SPACE_FIX = [(re.compile(r"\s+([?.,!;:])"), r"\1"), (re.compile(r"\s*'\s*(s|t|re|ve|ll|d|m)\b"),
                                                       r"'\1"),
              (re.compile(r"\s+"), " ")]


def tidy(text: str) -> str:
    """Undo word-piece spacing ("king ' s son ?" → "king's son?")."""
    text = text.strip()
    for pattern, repl in _SPACE_FIX:
        text = pattern.sub(repl, text)
    return text.strip()
