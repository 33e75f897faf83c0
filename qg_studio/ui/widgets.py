"""A choice among options whose labels change while the page is open.

Streamlit's selectbox and radio send back the *label* the browser last showed, and map it
to an option by the labels of the current run. When a label changes between two runs (a
project that gains a story, "Sample (0 stories)" → "Sample (1 story)"; a pair marked done
"3. Who …" → "3. Who … ✓"), the old label matches nothing and the widget's value becomes
that bare string: the project picker then opened a project named by a label, and the page
failed. :func:`pick_option` gives the widget a key that carries a digest of its labels, so new
labels make a new widget, started on the option chosen last (kept under ``key``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

import streamlit as st

_WIDGETS = {"selectbox": st.selectbox, "radio": st.radio}


def _widget_key(key: str, options: Sequence[Any], labels: Mapping[Any, str]) -> str:
    text = "\x1f".join(f"{o!r}\x1e{labels.get(o, o)}" for o in options)
    return f"{key}@{hashlib.blake2s(text.encode(), digest_size=5).hexdigest()}"


def pick_option(
    kind: str,
    label: str,
    options: Sequence[Any],
    labels: Mapping[Any, str],
    key: str,
    *,
    value: Any = None,
    on_change: Callable[[Any], None] | None = None,
    where: Any = None,
    **kwargs: Any,
) -> Any:
    """``st.selectbox`` or ``st.radio`` (``kind``) over ``options`` shown as ``labels``;
    returns the option chosen (never a label). ``value``: the option to show now (else the
    one chosen last, else the first); ``on_change(option)`` runs when the user picks one."""
    state = st.session_state
    widget = _widget_key(key, options, labels)
    wanted = value if value is not None else state.get(key)
    if wanted not in options:
        wanted = options[0]
    if widget not in state or state[widget] not in options or value is not None:
        state[widget] = wanted

    def changed() -> None:
        state[key] = state[widget]
        if on_change is not None:
            on_change(state[widget])

    draw = getattr(where, kind) if where is not None else _WIDGETS[kind]
    chosen = draw(
        label, list(options), format_func=labels.get, key=widget, on_change=changed, **kwargs
    )
    state[key] = chosen
    return chosen
