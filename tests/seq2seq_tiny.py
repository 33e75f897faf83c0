"""Tiny T5 and BART checkpoints built from configs, with a word-level tokenizer built here:
what the seq2seq tests load instead of downloaded weights."""

from __future__ import annotations

import json
from pathlib import Path

WORDS = """
element character setting action feeling causal relationship outcome resolution prediction
explicitness explicit implicit answer context extractive yesno abstractive yes no
the a fox ran hen sat sit wolf was sad happy in forest barn who where what why did how feel
because it hungry rain fell king queen went home to and saw of that is he she they
question generate hl The Rain It He She A
""".split()
PUNCT = list(":|.,?!\"'")
SPECIALS = ["<pad>", "</s>", "<unk>", "<s>"]


def build_tokenizer(folder: Path, model_max_length: int = 512):
    from tokenizers import Tokenizer
    from tokenizers import models
    from tokenizers import pre_tokenizers
    from tokenizers import processors
    from transformers import PreTrainedTokenizerFast

    vocab = {tok: i for i, tok in enumerate(SPECIALS + WORDS + PUNCT)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    # No lower-casing here: the code under test must lower-case what the format says.
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(
        single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", vocab["</s>"])]
    )
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok,
        pad_token="<pad>",
        eos_token="</s>",
        unk_token="<unk>",
        bos_token="<s>",
        model_max_length=model_max_length,
    )
    fast.save_pretrained(folder)
    return fast


def tiny_t5(folder: Path, meta: dict | None = None, seed: int = 0) -> Path:
    import torch
    from transformers import T5Config
    from transformers import T5ForConditionalGeneration

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(folder)
    torch.manual_seed(seed)
    config = T5Config(
        vocab_size=len(tokenizer),
        d_model=32,
        d_ff=64,
        d_kv=16,
        num_layers=2,
        num_decoder_layers=2,
        num_heads=2,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        relative_attention_num_buckets=8,
    )
    model = T5ForConditionalGeneration(config)
    # Short outputs keep the tests fast; the engines must read this limit from the checkpoint.
    model.generation_config.max_new_tokens = 8
    model.save_pretrained(folder)
    if meta:
        (folder / "qg_studio.json").write_text(json.dumps(meta))
    return folder


def tiny_bart(folder: Path, seed: int = 0) -> Path:
    import torch
    from transformers import BartConfig
    from transformers import BartForConditionalGeneration

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(folder)
    torch.manual_seed(seed)
    config = BartConfig(
        vocab_size=len(tokenizer),
        d_model=32,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=64,
        decoder_ffn_dim=64,
        max_position_embeddings=128,
        pad_token_id=0,
        bos_token_id=3,
        eos_token_id=1,
        decoder_start_token_id=1,
        forced_eos_token_id=1,
    )
    model = BartForConditionalGeneration(config)
    model.generation_config.max_new_tokens = 8
    model.save_pretrained(folder)
    return folder


def write_ftqa(
    root: Path, split: str, story: str, sections: list[str], questions: list[dict[str, str]]
) -> Path:
    """A one-story folder in the FairytaleQA layout."""
    import csv

    from qg_studio.data.question_rows import QUESTION_COLUMNS

    (root / "section-stories" / split).mkdir(parents=True, exist_ok=True)
    (root / "questions" / split).mkdir(parents=True, exist_ok=True)
    with open(
        root / "section-stories" / split / f"{story}-story.csv", "w", newline="", encoding="utf-8"
    ) as fh:
        w = csv.writer(fh)
        w.writerow(["section", "text"])
        for i, text in enumerate(sections, 1):
            w.writerow([i, text])
    with open(
        root / "questions" / split / f"{story}-questions.csv", "w", newline="", encoding="utf-8"
    ) as fh:
        w = csv.DictWriter(fh, fieldnames=QUESTION_COLUMNS)
        w.writeheader()
        for i, q in enumerate(questions):
            row = {c: "" for c in QUESTION_COLUMNS}
            row.update({"question_id": f"q{i}", "local-or-sum": "local", "cor_section": "1"})
            row.update(q)
            w.writerow(row)
    return root
