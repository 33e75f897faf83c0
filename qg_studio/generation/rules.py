"""Every rule the embedded engine asks with, declared once: its id, its narrative element,
its explicitness, and an example of the text it reads and the question it writes.

A candidate names the rule that made it (``QAItem.rule``) beside its proposer
(``QAItem.engine``): the ranker learns whom to trust from that, a teacher's History shows
it, and a rule the ranker never picks on val is found by its id and deleted, not patched.
:func:`rule_id` refuses an id not declared here, so a new rule cannot go unnamed.

The examples are written for this project (no dataset text), one per rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from qg_studio.schema import Element

EITHER = "either"  # explicit where the text states the answer, implicit where it shows it


@dataclass(frozen=True)
class Rule:
    id: str
    element: Element | None  # None: the element asked for (answer-aware writing)
    explicitness: str  # "explicit", "implicit" or EITHER
    example: str  # "text" -> "question – answer"
    module: str  # where the rule lives in generation/


def _rules(*rules: Rule) -> dict[str, Rule]:
    table: dict[str, Rule] = {}
    for rule in rules:
        if rule.id in table:
            raise ValueError(f"rule {rule.id!r} declared twice")
        table[rule.id] = rule
    return table


RULES = _rules(
    # -- one clause of a section (candidates.py, causes.py, noticed.py, places.py) ------------
    Rule(
        "character.subject",
        Element.CHARACTER,
        "explicit",
        '"The otter mended the net." -> "Who mended the net? – the otter"',
        "candidates",
    ),
    Rule(
        "action.deed",
        Element.ACTION,
        "explicit",
        '"After the storm, Nell swept the porch." -> '
        '"What did Nell do after the storm? – swept the porch"',
        "candidates",
    ),
    Rule(
        "action.said",
        Element.ACTION,
        "explicit",
        '"I can swim the lake," the Duck boasted to the Hen. -> '
        '"What did the Duck say to the Hen? – I can swim the lake"',
        "speech",
    ),
    Rule(
        "causal.asked_why",
        Element.CAUSAL,
        "explicit",
        '"Why do you dig so deep?" asked the Wren. "Frost is coming," said the Mole. -> '
        '"Why does the Mole dig so deep? – Frost is coming"',
        "speech",
    ),
    Rule(
        "action.object",
        Element.ACTION,
        "explicit",
        '"The fisherman caught a silver eel." -> "What did the fisherman catch? – a silver eel"',
        "candidates",
    ),
    Rule(
        "feeling.told",
        Element.FEELING,
        EITHER,
        '"When the kite tore, Ada began to cry." -> "How did Ada feel when the kite tore? – sad"',
        "candidates",
    ),
    Rule(
        "feeling.heart",
        Element.FEELING,
        "implicit",
        '"The rain washed the chalk away. Ada\'s heart sank." -> '
        '"How did Ada feel when the rain washed the chalk away? – sad"',
        "hearts",
    ),
    Rule(
        "causal.because",
        Element.CAUSAL,
        "explicit",
        '"The owl stayed home because her wing hurt." -> '
        '"Why did the owl stay home? – her wing hurt"',
        "causes",
    ),
    Rule(
        "causal.so",
        Element.CAUSAL,
        "explicit",
        '"The bridge was gone, so the goats swam." -> '
        '"Why did the goats swim? – the bridge was gone"',
        "causes",
    ),
    Rule(
        "causal.so_that",
        Element.CAUSAL,
        "explicit",
        '"The wind blew so hard that the old oak fell." -> '
        '"Why did the old oak fall? – the wind blew so hard"',
        "causes",
    ),
    Rule(
        "causal.purpose",
        Element.CAUSAL,
        "explicit",
        '"Tom climbed the hill to see the ships." -> '
        '"Why did Tom climb the hill? – to see the ships"',
        "causes",
    ),
    Rule(
        "causal.reason_for",
        Element.CAUSAL,
        "explicit",
        '"The teacher praised Ana for her neat writing." -> '
        '"Why did the teacher praise Ana? – for her neat writing"',
        "reasons",
    ),
    Rule(
        "causal.bidden",
        Element.CAUSAL,
        "implicit",
        '"Climb onto my back," said the Crane. The Frog climbed onto her back. -> '
        '"Why did the Frog climb onto her back? – the Crane told him to climb onto her back"',
        "bidding",
    ),
    Rule(
        "causal.noticed",
        Element.CAUSAL,
        "implicit",
        '"The goatherd heard the wolf and ran to the fold." -> '
        '"Why did the goatherd run to the fold? – the goatherd heard the wolf"',
        "noticed",
    ),
    Rule(
        "causal.event_before",
        Element.CAUSAL,
        "implicit",
        '"The pig ate the pies. The baker was very angry." -> '
        '"Why was the baker very angry? – the pig ate the pies"',
        "causes",
    ),
    Rule(
        "outcome.when",
        Element.OUTCOME,
        "explicit",
        '"When the bell rang, the children ran out." -> '
        '"What happened when the bell rang? – the children ran out"',
        "causes",
    ),
    Rule(
        "outcome.so",
        Element.OUTCOME,
        "explicit",
        '"The ice cracked, so the skaters fled." -> '
        '"What happened because the ice cracked? – the skaters fled"',
        "causes",
    ),
    Rule(
        "setting.place",
        Element.SETTING,
        "explicit",
        '"The bear slept in a hollow oak." -> "Where did the bear sleep? – in a hollow oak"',
        "places",
    ),
    # -- feelings and motives (emotions.py, inferred_feelings.py, intentions.py) -----------
    Rule(
        "feeling.caused",
        Element.FEELING,
        EITHER,
        '"The thunder frightened the lamb." -> '
        '"How did the thunder make the lamb feel? – frightened"',
        "emotions",
    ),
    Rule(
        "feeling.on_deed",
        Element.FEELING,
        "explicit",
        '"The boy ran home, full of fear." -> '
        '"How did the boy feel when he ran home? – full of fear"',
        "emotions",
    ),
    Rule(
        "causal.feeling_before_deed",
        Element.CAUSAL,
        "implicit",
        '"The goose grew afraid. She hid her goslings." -> '
        '"Why did the goose hide her goslings? – she grew afraid"',
        "emotions",
    ),
    Rule(
        "feeling.done_to",
        Element.FEELING,
        "implicit",
        '"The fox chased the hen." -> "How did the hen feel when the fox chased her? – afraid"',
        "inferred_feelings",
    ),
    Rule(
        "causal.aim",
        Element.CAUSAL,
        "implicit",
        '"He wanted the plums. He fetched a ladder." -> '
        '"Why did he fetch a ladder? – he wanted the plums"',
        "intentions",
    ),
    Rule(
        "prediction.next_deed",
        Element.PREDICTION,
        "implicit",
        '"... the wolf saw the open gate." | next part: "He crept into the yard." -> '
        '"What will the wolf do after he saw the open gate? – crept into the yard"',
        "predictions",
    ),
    # -- the whole story (story_level.py, story_end.py) ------------------------------------
    Rule(
        "story.who",
        Element.CHARACTER,
        "explicit",
        'title "The Crab and the Heron" -> '
        '"Who are the two main characters of the story? – the Crab and the Heron"',
        "story_level",
    ),
    Rule(
        "story.where",
        Element.SETTING,
        "explicit",
        '"Far out on a windy marsh lived a heron." -> '
        '"Where does this story take place? – on a windy marsh"',
        "story_level",
    ),
    Rule(
        "story.want",
        Element.ACTION,
        "explicit",
        '"The Heron wanted to eat the fish." -> "What did the Heron want? – to eat the fish"',
        "story_level",
    ),
    Rule(
        "story.turning_point",
        Element.ACTION,
        EITHER,
        '"One day a storm broke the dam." -> '
        '"What important thing happened one day? – a storm broke the dam"',
        "story_level",
    ),
    Rule(
        "story.turning_point_when",
        Element.OUTCOME,
        "explicit",
        '"But when the frost came, the grasshopper had nothing." -> '
        '"What happened when the frost came? – the grasshopper had nothing"',
        "story_level",
    ),
    Rule(
        "story.why_act",
        Element.CAUSAL,
        "implicit",
        '"The Goat was jealous of the oats. She told the Donkey to play sick." -> '
        '"Why did the Goat tell the Donkey to play sick? – she was jealous of the oats"',
        "why_act",
    ),
    Rule(
        "story.ending",
        Element.OUTCOME,
        "explicit",
        'last narration "The crow flew away hungry." -> '
        '"How does the story end? – the crow flew away hungry"',
        "story_end",
    ),
    Rule(
        "story.lesson",
        Element.OUTCOME,
        "implicit",
        'closing moral "Haste makes waste." -> '
        '"What lesson does the story teach? – haste makes waste"',
        "story_end",
    ),
    # -- the model proposer (proposer.py): what the model chose to ask ----------------------
    Rule(
        "lm.propose",
        None,
        EITHER,
        'window "The owl stayed home because her wing hurt." + element causal relationship '
        '-> "Why did the owl stay home? – her wing hurt"',
        "proposer",
    ),
    # -- answer-aware writing (embedded.py): a question for an answer someone gives ------
    Rule(
        "written.for_answer",
        None,
        EITHER,
        'answer "a silver eel" in "The fisherman caught a silver eel." -> '
        '"What did the fisherman catch?"',
        "embedded",
    ),
)


def rule_id(name: str) -> str:
    """``name`` if a rule by that id is declared, else a ValueError naming the registry."""
    if name not in RULES:
        raise ValueError(f"undeclared rule {name!r}: declare it in qg_studio/generation/rules.py")
    return name
