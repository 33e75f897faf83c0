"""The models QG Studio loads, one module per job: ``registry`` (where each model lives and
what it was trained with), ``choice`` (the best engine here for a role), the loaders
``causal_lm`` (SmolLM2 and its LoRA adapters) and ``seq2seq`` (BART/T5), the int8 runtime
``ct2``, the sentence encoder ``embeddings``, and ``prompts`` (the one prompt format of
training and inference). The registry imports no loader, so nothing here imports itself
round a circle; only ``choice`` knows every loader.
"""
