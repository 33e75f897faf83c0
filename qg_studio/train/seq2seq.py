"""Fine-tune a seq2seq model for question generation or unified QA (Hugging Face Trainer).

    qg-studio train qg --base flan-t5-base --data ../shared/data/fairytaleqa --out runs/qg
    qg-studio train qa --base bart-base    --data ../shared/data/fairytaleqa --out runs/qa
    qg-studio train qg --base minilm-bert2bert --data DIR     # BERT2BERT from the MiniLM encoder

Examples come from any folder in the FairytaleQA layout (the dataset, or the project's own
exports of curated items). QG: one example per expert pair, input built by
:func:`qg_studio.models.prompts.qg_input` (element, explicitness, answer, cor_section text),
target the question. QA: :func:`qg_studio.models.prompts.qa_input` with ``extractive`` for
explicit pairs, ``abstractive`` for implicit ones and ``yesno`` where the answer is
yes/no; target the lower-cased answer.

Validation loss is computed during training (early stopping keeps the best checkpoint);
val ROUGE-L is computed once at the end by generation and written to the model card
(``README.md``) next to the checkpoint, with ``qg_studio.json`` (the prompt format and
lengths) and an entry in the user's registry.
"""

from __future__ import annotations

import json
import logging
import random
import shutil
import time
from dataclasses import asdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Callable
from typing import Sequence

from qg_studio.train.callbacks import time_limit
from qg_studio.train.examples import Pair
from qg_studio.train.examples import load_splits
from qg_studio.train.examples import qa_pairs
from qg_studio.train.examples import qg_pairs

log = logging.getLogger(__name__)

MINILM_BERT2BERT = "minilm-bert2bert"


# -- model -------------------------------------------------------------------------------


def build_base(base: str, role: str):
    """(model, tokenizer, description) for ``--base``: a registry name, folder or hub id,
    or ``minilm-bert2bert`` (an encoder-decoder warm-started from the MiniLM encoder)."""
    from transformers import AutoModelForSeq2SeqLM
    from transformers import AutoTokenizer

    if base == MINILM_BERT2BERT:
        return _minilm_bert2bert()
    from qg_studio.models.registry import ModelError
    from qg_studio.models.registry import resolve

    resolved = resolve(base, role)
    try:
        tokenizer = AutoTokenizer.from_pretrained(resolved.location)
        model = AutoModelForSeq2SeqLM.from_pretrained(resolved.location)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"cannot load the base model {base}: {first}") from None
    return model, tokenizer, f"{resolved.name} ({resolved.location})"


def _minilm_bert2bert():
    from transformers import AutoTokenizer
    from transformers import EncoderDecoderModel

    from qg_studio.models.embeddings import encoder_path

    path = encoder_path()
    tokenizer = AutoTokenizer.from_pretrained(path)
    # Rothe et al. (2020): the decoder is the same BERT with cross-attention added (fresh)
    # and a causal mask; [CLS] starts decoding and [SEP] ends it.
    model = EncoderDecoderModel.from_encoder_decoder_pretrained(path, path)
    for cfg in (model.config, model.generation_config):
        cfg.decoder_start_token_id = tokenizer.cls_token_id
        cfg.pad_token_id = tokenizer.pad_token_id
        cfg.eos_token_id = tokenizer.sep_token_id
    model.config.vocab_size = model.config.decoder.vocab_size
    return model, tokenizer, f"{MINILM_BERT2BERT} (EncoderDecoderModel warm-started from {path})"


# -- training ----------------------------------------------------------------------------


@dataclass
class TrainSettings:
    # The run: how long, when to evaluate, when early stopping gives up.
    epochs: float = 3.0
    max_steps: int = -1
    max_minutes: float | None = None  # stop (and keep the best so far) after this long
    eval_steps: int = 200
    patience: int = 3
    seed: int = 42
    # The optimiser.
    batch_size: int = 8
    learning_rate: float = 5e-5
    warmup_steps: int = 0
    # The examples.
    max_source_length: int = 512
    max_target_length: int = 64
    context_words: int | None = None  # QG: train on the sentences around the answer only
    max_train: int | None = None  # a slice of the training examples (CPU runs)
    max_val: int | None = 300  # val examples for the loss during training
    # The model card's figure.
    eval_samples: int = 200  # val examples generated for the card's ROUGE-L
    eval_beams: int = 1


class _PairDataset:
    def __init__(self, features: list[dict[str, list[int]]]):
        self.features = features

    def __len__(self) -> int:
        return len(self.features)

    def __getitem__(self, i: int) -> dict[str, list[int]]:
        return self.features[i]


def _encode(tokenizer, pairs: Sequence[Pair], settings: TrainSettings) -> tuple[_PairDataset, int]:
    sources = tokenizer(
        [p.source for p in pairs],
        truncation=True,
        max_length=settings.max_source_length,
        return_token_type_ids=False,
    )
    targets = tokenizer(
        text_target=[p.target for p in pairs],
        truncation=True,
        max_length=settings.max_target_length,
        return_token_type_ids=False,
    )
    full = tokenizer([p.source for p in pairs], return_token_type_ids=False)["input_ids"]
    cut = sum(len(ids) > settings.max_source_length for ids in full)
    features = [
        {"input_ids": s, "attention_mask": m, "labels": t}
        for s, m, t in zip(sources["input_ids"], sources["attention_mask"], targets["input_ids"])
    ]
    return _PairDataset(features), cut


def train_pairs(
    model,
    tokenizer,
    train: Sequence[Pair],
    val: Sequence[Pair],
    out: str | Path,
    settings: TrainSettings,
    role: str,
    prompt_format: str,
    base_desc: str = "",
    data_desc: str = "",
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Fine-tune on ``train``, keep the best checkpoint by val loss, save it to ``out``
    with its meta file and model card, and return the card's figures."""
    import torch
    from transformers import DataCollatorForSeq2Seq
    from transformers import EarlyStoppingCallback
    from transformers import Seq2SeqTrainer
    from transformers import Seq2SeqTrainingArguments

    from qg_studio.models.config import TrainedConfig
    from qg_studio.models.registry import choose_device
    from qg_studio.models.seq2seq import LoadedModel

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(settings.seed)
    train = list(train)
    rng.shuffle(train)
    if settings.max_train:
        train = train[: settings.max_train]
    val_all = list(val)
    val_loss_pairs = val_all[: settings.max_val] if settings.max_val else val_all
    train_ds, train_cut = _encode(tokenizer, train, settings)
    val_ds, _ = _encode(tokenizer, val_loss_pairs, settings) if val_loss_pairs else (None, 0)
    device, dtype = choose_device()
    bf16 = device.type == "cuda" and dtype == torch.bfloat16
    fp16 = device.type == "cuda" and dtype == torch.float16
    work = out / "_checkpoints"
    has_val = val_ds is not None and len(val_ds) > 0
    args = Seq2SeqTrainingArguments(
        output_dir=str(work),
        per_device_train_batch_size=settings.batch_size,
        per_device_eval_batch_size=settings.batch_size,
        learning_rate=settings.learning_rate,
        num_train_epochs=settings.epochs,
        max_steps=settings.max_steps,
        warmup_steps=settings.warmup_steps,
        weight_decay=0.01,
        eval_strategy="steps" if has_val else "no",
        eval_steps=settings.eval_steps,
        save_strategy="steps" if has_val else "no",
        save_steps=settings.eval_steps,
        save_total_limit=1,
        load_best_model_at_end=has_val,
        metric_for_best_model="eval_loss",
        greater_is_better=False,
        logging_steps=max(1, min(50, settings.eval_steps)),
        report_to=[],
        bf16=bf16,
        fp16=fp16,
        seed=settings.seed,
        dataloader_num_workers=0,
        disable_tqdm=True,
        save_only_model=True,
        use_cpu=device.type == "cpu",
    )
    meta = {
        "role": role,
        "prompt_format": prompt_format,
        "context_words": settings.context_words if role == "qg" else None,
        "max_source_length": settings.max_source_length,
        "max_target_length": settings.max_target_length,
    }
    callbacks = (
        [EarlyStoppingCallback(early_stopping_patience=settings.patience)] if has_val else []
    )
    # A run cut short (a restart, a lost machine) still leaves checkpoints that the engines
    # read with the prompt settings they were trained on.
    callbacks.append(_meta_callback()(meta))
    if settings.max_minutes:
        callbacks.append(time_limit(settings.max_minutes * 60))
    collator = DataCollatorForSeq2Seq(tokenizer, model=model, label_pad_token_id=-100)
    trainer = Seq2SeqTrainer(
        model=model,
        args=args,
        data_collator=collator,
        train_dataset=train_ds,
        eval_dataset=val_ds if has_val else None,
        processing_class=tokenizer,
        callbacks=callbacks,
    )
    progress(
        f"training on {len(train)} examples ({train_cut} inputs cut at "
        f"{settings.max_source_length} tokens), validating on {len(val_loss_pairs)}, "
        f"{device.type} {str(dtype).replace('torch.', '')}"
    )
    started = time.time()
    result = trainer.train()
    seconds = time.time() - started
    history = [h for h in trainer.state.log_history if "eval_loss" in h]
    trainer.save_model(str(out))
    tokenizer.save_pretrained(str(out))
    shutil.rmtree(work, ignore_errors=True)
    TrainedConfig.from_dict(meta).save_pretrained(out)

    model = trainer.model
    model.eval()
    loaded = LoadedModel(
        model=model,
        tokenizer=tokenizer,
        device=model.device,
        dtype=next(model.parameters()).dtype,
        location=str(out),
        max_input_tokens=settings.max_source_length,
        max_new_tokens=settings.max_target_length,
        config=TrainedConfig.from_dict(meta),
    )
    sample = val_all[: settings.eval_samples]
    rouge = validation_rouge(loaded, sample, beams=settings.eval_beams) if sample else None
    figures = {
        "role": role,
        "base": base_desc,
        "data": data_desc,
        "train_examples": len(train),
        "train_inputs_cut": train_cut,
        "val_examples_for_loss": len(val_loss_pairs),
        "val_examples_for_rouge": len(sample),
        "val_rougeL_f": rouge,
        "best_val_loss": min((h["eval_loss"] for h in history), default=None),
        "steps": trainer.state.global_step,
        "epochs": round(trainer.state.epoch or 0, 3),
        "train_loss": round(result.training_loss, 4),
        "seconds": round(seconds, 1),
        "device": f"{device.type} {str(dtype).replace('torch.', '')}",
        "settings": asdict(settings),
        "prompt_format": prompt_format,
        "val_loss_history": [(h["step"], round(h["eval_loss"], 4)) for h in history],
    }
    write_card(out, figures)
    (out / "training.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures


def _meta_callback():
    from transformers import TrainerCallback
    from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

    from qg_studio.models.config import TrainedConfig

    class CheckpointMeta(TrainerCallback):
        """Writes the meta file into each checkpoint folder as the trainer saves it."""

        def __init__(self, meta: dict[str, Any]):
            self.meta = meta

        def on_save(self, args, state, control, **kwargs):
            folder = Path(args.output_dir) / f"{PREFIX_CHECKPOINT_DIR}-{state.global_step}"
            if folder.is_dir():
                TrainedConfig.from_dict(self.meta).save_pretrained(folder)
            return control

    return CheckpointMeta


def validation_rouge(loaded, pairs: Sequence[Pair], beams: int = 1) -> float:
    from qg_studio.evaluate import best_rouge_l
    from qg_studio.evaluate import mean
    from qg_studio.models.seq2seq import DecodeSettings
    from qg_studio.models.seq2seq import generate_texts

    outputs = generate_texts(
        loaded, [p.source for p in pairs], DecodeSettings(num_beams=beams, batch_size=32)
    )
    return round(
        mean(
            best_rouge_l(text, p.references or [p.target]) for (text, _), p in zip(outputs, pairs)
        ),
        4,
    )


def write_card(out: Path, f: dict[str, Any]) -> Path:
    what = "question generation" if f["role"] == "qg" else "unified question answering"
    rouge = "n/a (no val split)" if f["val_rougeL_f"] is None else f"{f['val_rougeL_f']:.4f}"
    s = f["settings"]
    lines = [
        f"# {out.name}: {what}",
        "",
        f"Trained by `qg-studio train {f['role']}` (qg_studio/train/seq2seq.py).",
        "",
        "## Data",
        "",
        f"- source: {f['data']}",
        f"- training examples: {f['train_examples']} ({f['train_inputs_cut']} inputs longer "
        f"than {s['max_source_length']} tokens were cut)",
        f"- validation: {f['val_examples_for_loss']} examples for the loss (early stopping), "
        f"{f['val_examples_for_rouge']} generated for ROUGE-L",
        f"- prompt format: `{f['prompt_format']}` (qg_studio/models/prompts.py)",
        "",
        "## Settings",
        "",
        f"- base: {f['base']}",
        f"- device: {f['device']}; {f['steps']} steps, {f['epochs']} epochs, {f['seconds']:.0f} s",
        f"- batch {s['batch_size']}, learning rate {s['learning_rate']}, max steps "
        f"{s['max_steps']}, epochs {s['epochs']}, early-stopping patience {s['patience']} "
        f"evaluations every {s['eval_steps']} steps, seed {s['seed']}",
        f"- lengths: source {s['max_source_length']}, target {s['max_target_length']} tokens; "
        f"context window {s.get('context_words') or 'whole cor_section'} words; "
        f"time limit {s.get('max_minutes') or 'none'} min",
        "",
        "## Figures",
        "",
        f"- val ROUGE-L F1 (rouge-score, stemmed; greedy decoding with {s['eval_beams']} beam(s)): "
        f"**{rouge}**",
        f"- best val loss: {f['best_val_loss']}; final train loss: {f['train_loss']}",
        f"- val loss by step: {f['val_loss_history']}",
        "",
    ]
    path = out / "README.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def run(
    role: str,
    base: str,
    data: str | Path,
    out: str | Path,
    settings: TrainSettings,
    name: str | None = None,
    register: bool = True,
    train_split: str = "train",
    val_split: str = "val",
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    """The whole recipe: read data, build the model, train, card, registry entry."""
    from qg_studio.models.registry import ModelEntry
    from qg_studio.models.registry import add_user_entry

    fmt = "qg-control" if role == "qg" else "storyqa"
    train_stories, val_stories = load_splits(data, train_split, val_split)
    build = qg_pairs if role == "qg" else qa_pairs
    train = build(train_stories, fmt, settings.context_words)
    val = build(val_stories, fmt, settings.context_words)
    if not train:
        from qg_studio.models.registry import ModelError

        raise ModelError(f"no training examples in {data} (split {train_split!r})")
    model, tokenizer, base_desc = build_base(base, role)
    data_desc = (
        f"{Path(data).resolve()} (train split {train_split!r}: {len(train_stories)} "
        f"stories; val: {len(val_stories)} stories)"
    )
    figures = train_pairs(
        model, tokenizer, train, val, out, settings, role, fmt, base_desc, data_desc, progress
    )
    if register:
        entry_name = name or Path(out).resolve().name
        arch = getattr(model.config, "model_type", "")
        path = add_user_entry(
            ModelEntry(
                name=entry_name,
                source=str(Path(out).resolve()),
                architecture=arch,
                prompt_format=fmt,
                roles=[role],
                stage="ready",
                needs_download=False,
                description=f"trained here from {base} (val ROUGE-L {figures['val_rougeL_f']})",
                origin="user",
            )
        )
        figures["registry"] = str(path)
        figures["name"] = entry_name
    return figures
