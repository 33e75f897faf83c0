"""Fixtures shared by the whole suite. Tests never touch the user's real data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "fairytaleqa"


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("QG_STUDIO_HOME", str(tmp_path_factory.mktemp("qg-home")))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    # The shipped SmolLM2 adapter would win `auto` and convert its base into every test's
    # data folder; tests of that engine switch it back on with their own tiny model.
    monkeypatch.setenv("QG_STUDIO_SMOLLM", "off")
    # The tiny models' tests decode with PyTorch; the int8 runtime has tests of its own.
    monkeypatch.setenv("QG_STUDIO_LM_RUNTIME", "torch")


@pytest.fixture
def story_text() -> str:
    """An original 735-word fairy tale with a title, dialogue and scene shifts."""
    return (FIXTURES / "miller_and_fox.txt").read_text(encoding="utf-8")


def pytest_addoption(parser):
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="write the generator's golden snapshots (tests/golden/) anew; review the diff",
    )


@pytest.fixture
def update_golden(request) -> bool:
    return bool(request.config.getoption("--update-golden"))
