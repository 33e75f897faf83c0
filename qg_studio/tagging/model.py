"""The tagger's model file: linear models as plain arrays (no pickle), read once.

``models/tagger/tagger.npz`` (or ``$QG_STUDIO_TAGGER``) holds the element model and one
explicitness model per mode (:data:`qg_studio.tagging.features.MODES`); inference needs
numpy only.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from qg_studio.paths import shipped
from qg_studio.tagging.features import MODES

MODEL_ENV = "QG_STUDIO_TAGGER"
DEFAULT_MODEL = shipped("models", "tagger", "tagger.npz")


@dataclass
class LinearModel:
    """Softmax over ``features · weights + bias``; unknown features are ignored."""

    classes: tuple[str, ...]
    index: dict[str, int]
    weights: "object"  # numpy array, features x classes
    bias: "object"

    def logits(self, feats: dict[str, float]):
        import numpy as np

        rows, values = [], []
        for name, value in feats.items():
            row = self.index.get(name)
            if row is not None:
                rows.append(row)
                values.append(value)
        logits = self.bias.astype("float64")
        if rows:
            logits = logits + np.asarray(values) @ self.weights[rows].astype("float64")
        return logits

    def probabilities(self, feats: dict[str, float]):
        import numpy as np

        logits = self.logits(feats)
        logits -= logits.max()
        exp = np.exp(logits)
        return exp / exp.sum()


@dataclass
class TaggerModel:
    element: LinearModel
    explicitness: dict[str, LinearModel]
    meta: dict


def model_path() -> Path:
    return Path(os.environ.get(MODEL_ENV) or DEFAULT_MODEL)


def save_model(path: str | Path, model: TaggerModel) -> None:
    """Write the model as plain arrays (no pickle), the format :func:`load_model` reads."""
    import numpy as np

    arrays: dict[str, object] = {"meta": np.array(json.dumps(model.meta))}
    for prefix, linear in [("element", model.element)] + [
        (f"explicit_{mode}", m) for mode, m in model.explicitness.items()
    ]:
        names = sorted(linear.index, key=linear.index.get)
        arrays[f"{prefix}_classes"] = np.array(linear.classes)
        arrays[f"{prefix}_features"] = np.array(names)
        arrays[f"{prefix}_weights"] = np.asarray(linear.weights, dtype="float32")
        arrays[f"{prefix}_bias"] = np.asarray(linear.bias, dtype="float32")
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


def read_model(path: str | Path) -> TaggerModel:
    import numpy as np

    with np.load(path, allow_pickle=False) as data:

        def linear(prefix: str) -> LinearModel:
            names = [str(n) for n in data[f"{prefix}_features"]]
            return LinearModel(
                classes=tuple(str(c) for c in data[f"{prefix}_classes"]),
                index={n: i for i, n in enumerate(names)},
                weights=data[f"{prefix}_weights"].astype("float32"),
                bias=data[f"{prefix}_bias"].astype("float32"),
            )

        return TaggerModel(
            element=linear("element"),
            explicitness={m: linear(f"explicit_{m}") for m in MODES},
            meta=json.loads(str(data["meta"])),
        )


@lru_cache(maxsize=4)
def _cached_model(path: str, mtime: float) -> TaggerModel | None:
    del mtime  # part of the cache key only: a retrained file is read again
    return read_model(path)


def load_model(path: str | Path | None = None) -> TaggerModel | None:
    """The shipped model, or None when the file is missing (the rules answer then)."""
    path = Path(path) if path is not None else model_path()
    if not path.is_file():
        return None
    return _cached_model(str(path), path.stat().st_mtime)
