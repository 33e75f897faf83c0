"""Text a person typed (story, titles, questions, answers, names) shown as text.

Streamlit reads Markdown in headings, captions, alerts, expander and button labels and
radio options: a story line ``![t](http://host/x.png)`` would become an image that every
viewer's browser fetches. Every page passes such text through :func:`plain` (or shows it
with ``st.text``/a dataframe, which never read Markdown) — escaped once, here.
"""

from __future__ import annotations

import re

# CommonMark lets any ASCII punctuation be backslash-escaped and then shows it as itself.
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
# Streamlit also rewrites text *after* Markdown has removed the escapes: emoji and icon
# short codes (:smile:), coloured text (:red[...]) and GFM's bare links (http://, www.,
# name@host). An invisible word joiner after the colon, the @ and "www" breaks each
# pattern without changing what the reader sees.
JOINER = "\u2060"
_WWW = re.compile(r"(www)(?=\\\.)", re.IGNORECASE)


def plain(text: object, limit: int | None = None) -> str:
    """``text`` as Markdown that Streamlit shows literally, on one line.

    ``limit`` cuts it to that many characters (with an ellipsis) before escaping, so an
    escape is never cut in half.
    """
    flat = " ".join(str(text).split())
    if limit is not None and len(flat) > limit:
        flat = flat[: max(limit - 1, 0)].rstrip() + "…"
    escaped = _PUNCTUATION.sub(r"\\\1", flat)
    escaped = escaped.replace("\\:", "\\:" + JOINER).replace("\\@", "\\@" + JOINER)
    return _WWW.sub(r"\1" + JOINER, escaped)


def quoted(text: object, limit: int | None = 60) -> str:
    """``text`` shortened and in quotes, for messages that name a question."""
    return f"“{plain(text, limit)}”"
