"""A tiny Llama (the SmolLM2 architecture) and a word-level tokenizer built here, and a
LoRA adapter on it: what the causal-LM tests load instead of the 135M base."""

from __future__ import annotations

from pathlib import Path

WORDS = """
element character setting action feeling causal relationship outcome resolution prediction
explicitness explicit implicit answer context extractive yesno abstractive yes no question
the a fox ran hen sat wolf was sad happy in forest barn who where what why did how feel
because it hungry rain fell king went home to and saw of that is he she they mill miller
""".split()
PUNCT = list(":|.,?!\"'")
SPECIALS = ["<pad>", "<|endoftext|>", "<unk>"]


def build_tokenizer(folder: Path):
    from tokenizers import Tokenizer
    from tokenizers import models
    from tokenizers import pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {tok: i for i, tok in enumerate(SPECIALS + WORDS + PUNCT)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    # Like SmolLM2's tokenizer: no special tokens added to a prompt; end-of-text is the eos.
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|endoftext|>", unk_token="<unk>"
    )
    fast.save_pretrained(folder)
    return fast


def tiny_llama(folder: Path, seed: int = 0) -> Path:
    import torch
    from transformers import LlamaConfig
    from transformers import LlamaForCausalLM

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(folder)
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=1024,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
        pad_token_id=None,
        tie_word_embeddings=True,
    )
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder


def tiny_adapter(base: Path, folder: Path, seed: int = 1) -> Path:
    """A LoRA adapter with non-zero weights (a fresh one is the identity), saved as
    training saves it, with the prompt settings beside it."""
    import torch
    from peft import LoraConfig
    from peft import get_peft_model
    from transformers import AutoModelForCausalLM

    from qg_studio.models.config import TrainedConfig

    torch.manual_seed(seed)
    model = AutoModelForCausalLM.from_pretrained(str(base))
    lora = LoraConfig(
        r=4,
        lora_alpha=8,
        target_modules=["q_proj", "v_proj", "up_proj"],
        task_type="CAUSAL_LM",
        init_lora_weights=False,
    )
    model = get_peft_model(model, lora)
    model.save_pretrained(str(folder))
    TrainedConfig.from_dict(
        {"qg_window_words": 70, "qa_window_words": 120, "steps": 0}
    ).save_pretrained(folder)
    return folder
