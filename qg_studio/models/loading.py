"""One lock for loading models in a process.

transformers resolves its names lazily. When two threads load through it at once (the
encoder warming in the background while the answerer loads), one of them can fail with
"cannot import name 'AutoModelForQuestionAnswering'" and the answerer silently falls
back to reading sentences. Loads are rare and seconds long, so they take turns.
"""

from __future__ import annotations

import functools
import threading

_LOADING = threading.RLock()  # re-entrant: a loader may call another (the LM's base)


def loads_model(function):
    """Run ``function`` while no other thread loads a model."""

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with _LOADING:
            return function(*args, **kwargs)

    return wrapper
