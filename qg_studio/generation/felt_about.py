"""What a told feeling is about, as the anchor of its question: "She was proud of her long
beak" -> "How did the heron feel about her long beak?"; "though she feared being
scolded" -> "How did the match-maker feel about being scolded?" (a moment told beside
it would be no reason for it).
"""

from __future__ import annotations

from qg_studio import lang
from qg_studio.reading.grammar import words

VAGUE = ("it", "this", "that")  # "proud of it": read alone, nothing
# Verbs whose object is what the feeling is about ("feared the wolf", "loved her goat");
# "feared to break the charm" is not asked "about to break".
FELT_TOWARDS = frozenset(lang.data("feeling_cues.json")["felt_towards"])


def felt_about(feeling, clause) -> str:
    """ "about …" for a feeling word with what it is about (an adjective's "of", "about",
    "at" or "with"; a feeling verb's object), else ""."""
    if feeling.pos_ == "VERB":
        if feeling.lemma_.lower() not in FELT_TOWARDS:
            return ""  # "wept her fill": what one weeps is no one's feeling about it
        about = [
            c
            for c in feeling.children
            if c.i > feeling.i
            and (c.dep_ == "dobj" or (c.dep_ == "xcomp" and c.left_edge.tag_ == "VBG"))
        ]
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
