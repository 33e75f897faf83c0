"""A small story for the export tests, including text built to break exporters.

Written for these tests (no dataset rows): a plain fairy tale plus a "hostile" variant
whose text and answers hold formulas, quotes, tabs, emoji and right-to-left text.
"""

from __future__ import annotations

from qg_studio.schema import Evidence
from qg_studio.schema import QAItem
from qg_studio.schema import Section

STORY = [
    "Once upon a time a poor miller lived near the dark forest with his daughter Greta. "
    "One morning the king rode past the mill. The miller was proud and told the king "
    "that his daughter could spin straw into gold.",
    "The king took Greta to the castle and locked her in a room full of straw. She was "
    "so frightened that she began to cry. At midnight a little man came in. He spun the "
    "straw into gold because she gave him her necklace. The next day the king was very "
    "happy.",
]


def sections(texts=STORY) -> list[Section]:
    return [Section(i, t) for i, t in enumerate(texts, start=1)]


def items(secs: list[Section] | None = None) -> list[QAItem]:
    secs = secs or sections()

    def ev(section: int, text: str) -> list[Evidence]:
        found = Evidence.find(secs[section - 1], text)
        return [found] if found else []

    return [
        QAItem(
            "Who rode past the mill?",
            ["the king"],
            "character",
            "explicit",
            sections=[1],
            evidence=ev(1, "the king rode past the mill"),
            engine="embedded",
            scores={"confidence": 0.9},
            status="kept",
        ),
        QAItem(
            "Where did the miller live?",
            ["near the dark forest"],
            "setting",
            "explicit",
            sections=[1],
            evidence=ev(1, "near the dark forest"),
            engine="embedded",
            status="kept",
        ),
        QAItem(
            "How did Greta feel in the room?",
            ["frightened"],
            "feeling",
            "explicit",
            sections=[2],
            evidence=ev(2, "frightened"),
            engine="embedded",
        ),
        QAItem(
            "Why did the little man spin the straw?",
            ["because she gave him her necklace"],
            "causal relationship",
            "explicit",
            sections=[2],
            evidence=ev(2, "because she gave him her necklace"),
            engine="embedded",
            status="kept",
        ),
        QAItem(
            "Was the miller proud?",
            ["yes"],
            "character",
            "explicit",
            answer_kind="yesno",
            sections=[1],
            engine="embedded",
            status="kept",
        ),
        QAItem(
            "What do you think the king will ask Greta to do after he sees all the gold "
            "in the room the next morning?",
            [
                "He will ask her to spin even more straw into gold, because he is greedy "
                "and wants to be richer than every other king."
            ],
            "prediction",
            "implicit",
            answer_kind="abstractive",
            sections=[2],
            engine="embedded",
            status="kept",
        ),
        QAItem(
            "What did the king say about the weather?",
            ["It was rainy."],
            "action",
            "explicit",
            sections=[1],
            engine="embedded",
            status="dropped",
        ),
    ]


HOSTILE_TEXTS = [
    '=HYPERLINK("http://x","y") was written on the door of the mill. The miller said '
    '"+1 for bread" and the baker answered \t "@SUM(A1)". Greta smiled 😀 and read '
    "the sign: שלום עולם. The king rode past the mill at noon.",
    "-5 coins were left in the box. The king took Greta to the castle. She was "
    "frightened and sang مرحبا to herself until midnight.",
]


def hostile_items(secs: list[Section]) -> list[QAItem]:
    return [
        QAItem(
            '=HYPERLINK("http://x","y")',
            ['=HYPERLINK("http://x","y")'],
            "action",
            "explicit",
            sections=[1],
            status="kept",
        ),
        QAItem(
            "+1 what did the miller say?",
            ["+1 for bread"],
            "action",
            "explicit",
            sections=[1],
            status="kept",
        ),
        QAItem(
            "@SUM(A1) is what the baker said?",
            ["yes"],
            "action",
            "explicit",
            answer_kind="yesno",
            sections=[1],
            status="kept",
        ),
        QAItem(
            '\tWho smiled 😀 and said "שלום"?',
            ["Greta 😀"],
            "character",
            "explicit",
            sections=[1],
            status="kept",
        ),
        QAItem(
            "-5 coins: how many were left?",
            ["-5 coins"],
            "action",
            "explicit",
            sections=[2],
            status="kept",
        ),
        QAItem(
            "What did Greta sing {to} herself: ~=#?",
            ["مرحبا"],
            "action",
            "explicit",
            sections=[2],
            status="kept",
        ),
        QAItem(
            "Why was Greta frightened in the castle?",
            ["=SUM(1,2) because the king locked her in, and she was alone with a tab\there"],
            "causal relationship",
            "implicit",
            answer_kind="abstractive",
            sections=[2],
            status="kept",
        ),
    ]
