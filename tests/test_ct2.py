"""The int8 runtime (CTranslate2) decodes what PyTorch decodes: on a tiny Llama built here,
converted in float32 (so no rounding can part them), greedy continuations and their
confidences agree; int8 is converted once per adapter and read from the cache after."""

from __future__ import annotations

import pytest
from causal_lm_tiny import tiny_adapter
from causal_lm_tiny import tiny_llama

pytest.importorskip("ctranslate2")

PROMPTS = [
    "element: feeling | explicitness: implicit | context: the fox ran to the forest .\nquestion:",
    "element: setting | explicitness: explicit | context: the hen sat in the barn .\nquestion:",
    "who was sad ?",
]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    from qg_studio.models.causal_lm import load_lm

    root = tmp_path_factory.mktemp("tiny-ct2")
    base = tiny_llama(root / "base")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("QG_STUDIO_LM_RUNTIME", "torch")  # the PyTorch model these tests compare with
        return load_lm(tiny_adapter(base, root / "adapter"), base=base)


def test_greedy_decoding_agrees_with_pytorch(loaded, monkeypatch):
    from qg_studio.models.causal_lm import LMDecode
    from qg_studio.models.causal_lm import generate
    from qg_studio.models.ct2 import CT2Decoder

    settings = LMDecode(max_new_tokens=12, batch_size=2)
    torch_out = generate(loaded, PROMPTS, settings)
    fast = CT2Decoder.for_loaded(loaded, compute_type="float32")
    ct2_out = fast.generate(PROMPTS, settings)
    assert [o[0][0] for o in ct2_out] == [o[0][0] for o in torch_out]
    for (_, a), (_, b) in [(o[0], p[0]) for o, p in zip(ct2_out, torch_out)]:
        assert a == pytest.approx(b, abs=0.02)
    sampled = fast.generate(
        PROMPTS, LMDecode(max_new_tokens=8, do_sample=True, num_return_sequences=3)
    )
    assert [len(o) for o in sampled] == [3, 3, 3]


def test_int8_is_converted_once_and_chosen_by_the_setting(loaded, monkeypatch, tmp_path):
    from qg_studio.models import ct2

    monkeypatch.setenv("QG_STUDIO_HOME", str(tmp_path))
    first = ct2.convert(loaded)
    stamp = (first / "model.bin").stat().st_mtime_ns
    assert ct2.convert(loaded) == first
    assert (first / "model.bin").stat().st_mtime_ns == stamp  # read, not made again
    monkeypatch.setenv("QG_STUDIO_LM_RUNTIME", "torch")
    assert not ct2.wanted()
    monkeypatch.setenv("QG_STUDIO_LM_RUNTIME", "ct2")
    assert ct2.wanted()


def test_yes_no_scores_agree_with_pytorch_and_the_float32_copy_is_let_go(
    loaded, monkeypatch, tmp_path
):
    from causal_lm_tiny import tiny_adapter
    from causal_lm_tiny import tiny_llama

    from qg_studio.models.causal_lm import choice_scores
    from qg_studio.models.causal_lm import load_lm
    from qg_studio.models.ct2 import CT2Decoder

    torch_scores = choice_scores(loaded, PROMPTS, ("yes", "no"))
    fast = CT2Decoder.for_loaded(loaded, compute_type="float32")
    tok = loaded.tokenizer
    ids = [tok(" " + o, add_special_tokens=False)["input_ids"][0] for o in ("yes", "no")]
    ct2_scores = fast.choice_scores(PROMPTS, ids)
    for a, b in zip(ct2_scores, torch_scores):
        assert a == pytest.approx(b, abs=0.02)
    # Loaded for the int8 runtime, the model keeps no PyTorch copy, and still scores.
    monkeypatch.setenv("QG_STUDIO_HOME", str(tmp_path))
    monkeypatch.setenv("QG_STUDIO_LM_RUNTIME", "ct2")
    base = tiny_llama(tmp_path / "base")
    int8 = load_lm(tiny_adapter(base, tmp_path / "adapter"), base=base)
    assert int8.fast is not None and int8.model is None
    assert [len(row) for row in choice_scores(int8, PROMPTS, ("yes", "no"))] == [2, 2, 2]
