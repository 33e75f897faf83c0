"""The use cases, each written once: the pages (``ui/``) and the commands (``cli/``) call
these and only show what comes back.

* :mod:`.stories`     read and ingest a story (clean, section, grade)
* :mod:`.generation`  generate a set ("auto" engine choice and fallback), regenerate part
                      of one, suggestions for annotators
* :mod:`.answers`     answer and label one question (one scope rule)
* :mod:`.exports`     a story or a project as bytes (worksheet, quiz, training data)
* :mod:`.evaluation`  the measurements against FairytaleQA-layout data

This layer sits above the engines, the pipeline, the store and the data readers, and
below ``ui/`` and ``cli/``: nothing under ``qg_studio`` but those two imports it.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Bad input or a missing resource, in one line a teacher can act on."""
