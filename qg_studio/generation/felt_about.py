"""What a told feeling is about, as the anchor of its question: "She was proud of her long
beak" -> "How did the heron feel about her long beak?"; "though she feared being
scolded" -> "How did the match-maker feel about being scolded?" (a moment told beside
it would be no reason for it).
"""

from __future__ import annotations

from qg_studio.reading.grammar import words

VAGUE = ("it", "this", "that")  # "proud of it": read alone, nothing


def felt_about(feeling, clause) -> str:
    """ "about …" for a feeling word with what it is about (an adjective's "of", "about",
    "at" or "with"; a feeling verb's object), else ""."""
    if feeling.pos_ == "VERB":
        about = [c for c in feeling.children if c.dep_ in ("dobj", "xcomp") and c.i > feeling.i]
    else:
        about = [
            o
            for prep in feeling.children
            if prep.dep_ == "prep" and prep.lower_ in ("of", "about", "at", "with")
            for o in prep.children
            if o.dep_ == "pobj"
        ]
    if not about or about[0].lower_ in VAGUE:
        return ""  # the moment before anchors it
    return "about " + words(list(about[0].subtree), clause=clause)
