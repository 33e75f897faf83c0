"""An int8 runtime for the small decoder: CTranslate2 (PyPI ``ctranslate2``), about four
times PyTorch's float32 speed on these 2-core CPUs (27 proposer prompts: 14.8 s against
63.6 s, measured with a training run beside them), and four times that again with a
one-thread worker per core (20 prompts: 2.4 s against 11.7 s, quiet machine). Once it
serves, the loaded model lets its PyTorch copy go: it scores yes/no answers too.

The model it runs is the loaded one (base with the adapter merged), converted once and
cached under the user data folder by the adapter's digest, so a retrained adapter gets a
conversion of its own. Decoding reads the same prompts and returns what
:func:`qg_studio.models.causal_lm.generate` returns: per prompt, continuations with a confidence
(the geometric mean of the chosen tokens' probabilities). Sampling settings are passed
through; CTranslate2's random generator is its own, so a sampled set repeats on one
runtime, not across the two.

``QG_STUDIO_LM_RUNTIME=torch`` keeps PyTorch (the default where ``ctranslate2`` is not
installed); ``ct2`` asks for this one.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Sequence

log = logging.getLogger(__name__)
RUNTIME_SETTING = "QG_STUDIO_LM_RUNTIME"
WORKER_BATCH = 8  # prompts a worker decodes at once (4 and 8 were best of 4, 8, 16)


def wanted() -> bool:
    """Whether the int8 runtime should run the decoder here."""
    choice = os.environ.get(RUNTIME_SETTING, "").strip().lower()
    if choice == "torch":
        return False
    try:
        import ctranslate2  # noqa: F401
    except ImportError:
        if choice == "ct2":
            log.warning("%s=ct2 but ctranslate2 is not installed; using PyTorch", RUNTIME_SETTING)
        return False
    return True


def _cache_key(loaded) -> str:
    """The adapter's weights and the base they sit on name the conversion."""
    h = hashlib.sha256()
    if loaded.adapter:
        h.update(loaded.digest.encode())
    h.update(str(loaded.model.config.to_dict()).encode())
    h.update(str(getattr(loaded.model.config, "_name_or_path", "")).encode())  # the base
    return h.hexdigest()[:16]


def convert(loaded, compute_type: str = "int8") -> Path:
    """The loaded model in CTranslate2's format (made once, then read from the cache)."""
    import ctranslate2

    from qg_studio.store import default_data_dir

    folder = default_data_dir() / "cache" / "ct2" / f"{_cache_key(loaded)}-{compute_type}"
    if (folder / "model.bin").is_file():
        return folder
    work = folder.with_name(folder.name + ".partial")
    shutil.rmtree(work, ignore_errors=True)
    hf = work / "hf"
    loaded.model.save_pretrained(str(hf))
    loaded.tokenizer.save_pretrained(str(hf))
    log.info("converting the decoder to CTranslate2 %s once", compute_type)
    ctranslate2.converters.TransformersConverter(str(hf)).convert(
        str(work / "ct2"), quantization=compute_type, force=True
    )
    _name_missing_tokens(work / "ct2" / "config.json", loaded.tokenizer.eos_token)
    shutil.rmtree(folder, ignore_errors=True)
    (work / "ct2").rename(folder)  # a crash mid-way leaves only the .partial folder
    shutil.rmtree(work, ignore_errors=True)
    return folder


def _name_missing_tokens(config: Path, eos: str) -> None:
    """CTranslate2 reads its special tokens as strings; a tokenizer without a start token
    (ours start prompts with none) leaves one empty: name it the end token."""
    import json

    data = json.loads(config.read_text(encoding="utf-8"))
    for key in ("bos_token", "eos_token", "unk_token", "decoder_start_token"):
        if key in data and data[key] is None:
            data[key] = eos
    config.write_text(json.dumps(data, indent=2), encoding="utf-8")


@dataclass
class CT2Decoder:
    """Decodes prompts with a converted model; the tokenizer is the loaded one's."""

    generator: Any
    tokenizer: Any

    @classmethod
    def for_loaded(cls, loaded, compute_type: str = "int8") -> "CT2Decoder":
        import ctranslate2

        folder = convert(loaded, compute_type)
        # One thread a worker, a worker a core: a step of this thin 30-layer decoder is
        # many small products, and two threads syncing on each took longer than one alone
        # (33 ms against 13 ms a step of one prompt); two workers decoding batches side by
        # side made 20 proposer prompts 4.8 times faster (11.7 s -> 2.4 s, 2-core CPU).
        workers = max(1, min(os.cpu_count() or 1, 4))
        generator = ctranslate2.Generator(
            str(folder),
            device="cpu",
            compute_type=compute_type,
            intra_threads=1,
            inter_threads=workers,
        )
        return cls(generator, loaded.tokenizer)

    def generate(self, prompts: Sequence[str], settings) -> list[list[tuple[str, float]]]:
        import math

        tok = self.tokenizer
        starts = [tok.convert_ids_to_tokens(tok(p)["input_ids"]) for p in prompts]
        n = settings.num_return_sequences
        # Several samples of one prompt are that prompt asked several times.
        repeat = n if settings.do_sample else 1
        starts = [s for s in starts for _ in range(repeat)]
        kwargs: dict[str, Any] = dict(
            max_length=settings.max_new_tokens,
            # Batches are cut from prompts sorted by length, and a batch feeds the part of
            # its longer prompts past the shortest one token a step: small batches keep
            # that spread short and give every worker one.
            max_batch_size=min(settings.batch_size, WORKER_BATCH),
            asynchronous=True,
            include_prompt_in_result=False,
            end_token=tok.eos_token,
            return_scores=True,
            num_hypotheses=1 if settings.do_sample else n,
        )
        if settings.do_sample:
            kwargs.update(
                sampling_topk=0,  # the whole vocabulary, cut by top-p as PyTorch's does
                sampling_topp=settings.top_p,
                sampling_temperature=settings.temperature,
            )
            if settings.seed is not None:
                import ctranslate2

                ctranslate2.set_random_seed(settings.seed)
                # One batch on one worker: which worker draws which batch would vary.
                kwargs["max_batch_size"] = len(starts)
        elif settings.num_beams > 1:
            kwargs.update(beam_size=max(settings.num_beams, n))
        decoded = []
        for pending in self.generator.generate_batch(starts, **kwargs):
            result = pending.result()
            options = []
            for tokens, score in zip(result.sequences, result.scores):
                ids = tok.convert_tokens_to_ids(tokens)
                text = tok.decode(ids, skip_special_tokens=True).strip()
                # The score is the sum of the tokens' log-probabilities over their number
                # (length penalty 1): its exponent is their geometric mean.
                options.append((text, round(math.exp(score), 4) if tokens else 0.0))
            decoded.append(options)
        if repeat == 1:
            return decoded
        return [
            [option for options in decoded[i : i + repeat] for option in options]
            for i in range(0, len(decoded), repeat)
        ]

    def choice_scores(
        self, prompts: Sequence[str], option_ids: Sequence[int], batch_size: int = 16
    ) -> list[list[float]]:
        """For each prompt, the log-probability of each option token coming next: what
        :func:`qg_studio.models.causal_lm.choice_scores` gives, from one forward pass."""
        import numpy as np

        tok = self.tokenizer
        ids = [tok(p)["input_ids"] for p in prompts]
        out: list[list[float]] = []
        for start in range(0, len(ids), batch_size):
            batch = ids[start : start + batch_size]
            logp = np.asarray(self.generator.forward_batch(batch, return_log_probs=True))
            out += [[float(logp[i, len(row) - 1, o]) for o in option_ids] for i, row in enumerate(batch)]
        return out
