"""The model registry, device choice and the engine fallback (no download anywhere)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from seq2seq_tiny import tiny_t5

from qg_studio.models import choice as engines
from qg_studio.models import registry as models
from qg_studio.models.registry import ModelEntry
from qg_studio.models.registry import ModelError


@pytest.fixture
def empty_hub_cache(tmp_path, monkeypatch):
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub-cache"))


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_registry_has_download_entries_per_role(empty_hub_cache):
    registry = models.load_registry(user=Path("/nonexistent/registry.toml"))
    assert registry, "the shipped registry must list starting points"
    for entry in registry.values():
        assert set(entry.roles) <= {"qg", "qa"} and entry.roles
        assert entry.stage in ("ready", "base")
        assert entry.prompt_format
        if entry.is_hub_id:
            assert entry.needs_download
            ok, reason = engines.availability(entry)
            assert not ok and f"models pull {entry.name}" in reason
    ready_qa = [e for e in registry.values() if "qa" in e.roles and e.stage == "ready"]
    assert any(e.prompt_format == "unifiedqa" for e in ready_qa)
    assert any("qg" in e.roles for e in registry.values())


def test_user_registry_overrides_and_comes_first(tmp_path):
    shipped = write(
        tmp_path / "shipped.toml",
        """
[models.alpha]
source = "org/alpha"
roles = ["qg"]
[models.beta]
source = "org/beta"
roles = ["qa"]
""",
    )
    user = write(
        tmp_path / "user.toml",
        """
[models.beta]
source = "/somewhere/beta"
roles = ["qa"]
prompt_format = "storyqa"
""",
    )
    registry = models.load_registry(shipped, user)
    assert list(registry) == ["beta", "alpha"]
    assert registry["beta"].source == "/somewhere/beta" and registry["beta"].origin == "user"
    assert registry["alpha"].origin == "shipped"


def test_add_user_entry_round_trips_and_leaves_shipped_file_alone(tmp_path):
    shipped_before = models.SHIPPED_REGISTRY.read_bytes()
    path = tmp_path / "home" / "registry.toml"
    entry = ModelEntry(
        name="my qg",
        source=str(tmp_path / "ckpt"),
        architecture="t5",
        prompt_format="qg-control",
        roles=["qg"],
        stage="ready",
        description='trained "here" | today',
        origin="user",
    )
    models.add_user_entry(entry, path)
    models.add_user_entry(ModelEntry(name="other", source="a/b", roles=["qa"], origin="user"), path)
    parsed = models.load_registry(tmp_path / "none.toml", path)
    assert parsed["my qg"] == entry
    assert set(parsed) == {"my qg", "other"}
    assert models.SHIPPED_REGISTRY.read_bytes() == shipped_before


def test_malformed_registry_is_one_line_error_and_engine_still_chosen(tmp_path, monkeypatch):
    bad = write(tmp_path / "bad.toml", "[models.x\nsource = ")
    with pytest.raises(ModelError) as err:
        models.load_registry(bad, tmp_path / "none.toml")
    assert "\n" not in str(err.value) and "bad.toml" in str(err.value)
    monkeypatch.setattr(models, "user_registry_path", lambda: bad)
    choice = engines.choose_engine("qg")
    assert choice.name == "embedded" and "bad.toml" in choice.notice


def test_availability_of_local_folders(tmp_path):
    good = tiny_t5(tmp_path / "good")
    assert engines.availability(str(good)) == (True, f"local folder {good.resolve()}")
    partial = tmp_path / "partial"
    partial.mkdir()
    (partial / "config.json").write_text("{}")
    ok, reason = engines.availability(str(partial))
    assert not ok and "weights" in reason
    ok, reason = engines.availability(str(tmp_path / "nowhere" / "x" / "y"))
    assert not ok


def test_pull_fails_fast_with_one_clear_line(monkeypatch):
    import huggingface_hub.constants as constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "ENDPOINT", "http://127.0.0.1:9")  # nothing listens there
    started = time.time()
    with pytest.raises(ModelError) as err:
        models.pull("flan-t5-base", timeout=2)
    message = str(err.value)
    assert time.time() - started < 10
    assert "\n" not in message
    assert "google/flan-t5-base" in message and "not reachable" in message


def test_pull_cli_exit_2_and_one_line(capsys, monkeypatch):
    from qg_studio.cli import main

    assert main(["models", "pull", "flan-t5-base"]) == 2  # HF_HUB_OFFLINE=1 in tests
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("qg-studio: error: cannot download")
    assert main(["models", "pull", "no-such-model"]) == 2
    assert "unknown model" in capsys.readouterr().err


def test_models_list_json_shows_availability(capsys, tmp_path, monkeypatch, empty_hub_cache):
    from qg_studio.cli import main

    folder = tiny_t5(tmp_path / "mine")
    models.add_user_entry(
        ModelEntry(
            name="mine", source=str(folder), roles=["qa"], prompt_format="storyqa", origin="user"
        )
    )
    assert main(["models", "list", "--json"]) == 0
    import json

    rows = {
        r["name"]: r for r in json.loads(capsys.readouterr().out.strip().splitlines()[-1])["models"]
    }
    assert rows["mine"]["available"] is True
    assert rows["flan-t5-base"]["available"] is False


def _registry(**entries: ModelEntry) -> dict[str, ModelEntry]:
    return {name: entry for name, entry in entries.items()}


def test_choose_engine_broken_checkpoint_falls_back_with_notice(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.json").write_text('{"model_type": "t5", "d_model": ')
    (broken / "model.safetensors").write_bytes(b"not weights")
    (broken / "tokenizer.json").write_text("{}")
    registry = _registry(broken=ModelEntry("broken", str(broken), roles=["qg"]))
    choice = engines.choose_engine("qg", registry)
    assert choice.name == "embedded" and choice.options == {}
    assert "broken" in choice.notice and "embedded" in choice.notice
    choice = engines.choose_engine("qa", {"b": ModelEntry("b", str(broken), roles=["qa"])})
    assert choice.name == "extractive"


def test_choose_engine_missing_download_and_base_models_fall_back(empty_hub_cache):
    registry = _registry(
        hub=ModelEntry("hub", "org/not-here", roles=["qg"]),
        base=ModelEntry("base", "org/base", roles=["qg"], stage="base"),
    )
    choice = engines.choose_engine("qg", registry)
    assert choice.name == "embedded" and "hub: not downloaded" in choice.notice
    assert "base:" not in choice.notice  # a starting point is never offered as an engine


def test_choose_engine_picks_working_checkpoint_after_broken_one(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        (broken / name).write_text("garbage")
    good = tiny_t5(tmp_path / "good")
    registry = _registry(
        broken=ModelEntry("broken", str(broken), roles=["qa"]),
        good=ModelEntry("good", str(good), roles=["qa"]),
    )
    choice = engines.choose_engine("qa", registry)
    assert choice.name == "seq2seq" and choice.options == {"model": "good"}
    assert "good" in choice.notice and "broken" in choice.notice


@pytest.mark.parametrize(
    "cuda, bf16, expected",
    [(True, True, "bfloat16"), (True, False, "float16"), (False, False, "float32")],
)
def test_device_and_dtype_choice(monkeypatch, cuda, bf16, expected):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: bf16)
    device, dtype = models.choose_device()
    assert device.type == ("cuda" if cuda else "cpu")
    assert dtype == getattr(torch, expected)
    assert models.choose_device("cpu")[1] == torch.float32


def test_load_is_cached_once_per_process(tmp_path):
    folder = tiny_t5(tmp_path / "cached")
    from qg_studio.models.seq2seq import load_seq2seq

    first = load_seq2seq(str(folder))
    assert load_seq2seq(str(folder)) is first
    assert first.device.type in ("cpu", "cuda")
    with pytest.raises(ModelError) as err:
        load_seq2seq(str(tmp_path / "missing-dir"))
    assert "\n" not in str(err.value)


def test_models_load_one_at_a_time_across_threads():
    # The encoder warms in a background thread while the answerer loads: two loads
    # through transformers at once once left the answerer reading sentences.
    import threading
    import time

    from qg_studio.models.loading import loads_model

    inside, overlaps = [], []

    @loads_model
    def load(name):
        if inside:
            overlaps.append((inside[0], name))
        inside.append(name)
        time.sleep(0.05)
        inside.remove(name)

    threads = [threading.Thread(target=load, args=(n,)) for n in ("encoder", "answerer", "lm")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == []


def test_a_trained_config_saves_and_loads_as_it_was(tmp_path):
    from qg_studio.models.config import TrainedConfig

    config = TrainedConfig(
        prompt_format="qg-control",
        roles=["qag", "qg"],
        qag_window_words=90,
        steps=0,  # a step count of 0 is recorded, not dropped as empty
        settings={"max_steps": 2400},
        extra={"seconds": 12, "note": "a figure no field names"},
    )
    config.save_pretrained(tmp_path)
    again = TrainedConfig.from_pretrained(tmp_path)
    assert again == config
    assert again.qg_window_words is None and again.extra["seconds"] == 12
    # A checkpoint from elsewhere records nothing; a broken file reads as nothing too.
    assert TrainedConfig.from_pretrained(tmp_path / "none") == TrainedConfig()
    (tmp_path / "qg_studio.json").write_text("{not json", encoding="utf-8")
    assert TrainedConfig.from_pretrained(tmp_path) == TrainedConfig()
