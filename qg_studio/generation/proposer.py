"""The model proposer (``proposer``): the fine-tuned SmolLM2 adapter chooses what to ask.

For each reading window of each section (:func:`qg_studio.models.prompts.reading_windows`, the
pieces it was trained on) and each narrative element the request wants, the adapter is
told only the element and the explicitness and writes a question and its answer
(``qag``, trained by ``qg-studio train lm --tasks qag,...``). Nothing here decides what is
worth asking: the pipeline's checks and the ranker choose among these candidates and the
rules' own, each of which says who proposed it (``engine``, ``rule``).

An answer found word for word in its section is explicit, with that span as evidence;
any other answer is implicit, whatever was asked (docs/DESIGN.md §2: explicit means a span).
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Any
from typing import Sequence

from qg_studio.answer_kind import answer_kind
from qg_studio.generation import QuestionGenerator
from qg_studio.generation.smollm_writer import unfounded
from qg_studio.models.prompts import QAG_WINDOW_WORDS
from qg_studio.models.prompts import as_question
from qg_studio.models.prompts import lm_qag_prompt
from qg_studio.models.prompts import parse_qag
from qg_studio.models.prompts import reading_windows
from qg_studio.reading.question_element import rule_element
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.schema import section_texts
from qg_studio.scores import ItemScores

ENGINE = "proposer"
ADAPTER_NAME = "smollm-qag"  # the adapter folder under models/ that knows the qag task
EXPLICIT, IMPLICIT = Explicitness.EXPLICIT, Explicitness.IMPLICIT
# The explicitness each element is asked with: the ones FairytaleQA's experts use for it
# at least a third of the time (train: implicit characters, settings, actions and outcomes
# are under 11% of theirs; feelings and causes are both; a prediction is a guess).
ASKED: dict[Element, tuple[Explicitness, ...]] = {
    Element.CHARACTER: (EXPLICIT,),
    Element.SETTING: (EXPLICIT,),
    Element.ACTION: (EXPLICIT,),
    Element.FEELING: (EXPLICIT, IMPLICIT),
    Element.CAUSAL: (EXPLICIT, IMPLICIT),
    Element.OUTCOME: (EXPLICIT,),
    Element.PREDICTION: (IMPLICIT,),
}
# The story-level questions' ground (the story-level engine reads the whole story for them).
WHOLE_STORY = re.compile(r"\b(?:the story|main characters?)\b", re.IGNORECASE)
MAX_ANSWER_WORDS = 30  # longer is a copied paragraph, never a key a child can check
# A set of n questions is chosen from at most this many proposals a question. Every window
# asked for every element is 180 prompts on a 2,000-word story; three a question (each
# element asked three or four times, spread over the story) decode in about 4 s on two
# cores, while the rules still offer candidates in every section. Runs that ask per
# section (eval qag) have no total and keep every prompt.
PROMPTS_PER_QUESTION = 3.0


class LMProposer(QuestionGenerator):
    """``model``: an adapter trained with the qag task (a registry name or folder)."""

    name = ENGINE

    def __init__(
        self,
        model: str | None = None,
        device: str | None = None,
        base: str | None = None,
        samples: int = 0,
        temperature: float = 0.8,
        top_p: float = 0.95,
        batch_size: int = 16,
        seed: int | None = 0,
        **_ignored: Any,
    ):
        from qg_studio.models.causal_lm import LMDecode
        from qg_studio.models.causal_lm import load_adapter
        from qg_studio.models.registry import MODELS_DIR
        from qg_studio.models.registry import ModelError

        self.loaded = load_adapter(model or MODELS_DIR / ADAPTER_NAME, device, base)
        if "qag" not in self.loaded.config.roles:
            raise ModelError(
                f"the adapter {self.loaded.adapter} was not trained to propose questions "
                "(qg-studio train lm --tasks qag,qg,qa)"
            )
        self.window = int(self.loaded.config.qag_window_words or QAG_WINDOW_WORDS)
        length = {"max_new_tokens": 64, "batch_size": batch_size}
        # Greedy first: the most likely pair per prompt; samples add variety at the cost of
        # a forward pass each, the dearest step on a CPU.
        self.decodes = [LMDecode(**length)]
        if samples > 0:
            self.decodes.append(
                LMDecode(
                    **length,
                    do_sample=True,
                    num_return_sequences=samples,
                    temperature=temperature,
                    top_p=top_p,
                    seed=seed,
                )
            )

    def plan(
        self, sections: Sequence[Section], request: GenerationRequest
    ) -> list[tuple[Section, str, Element, Explicitness]]:
        """(section, window, element, explicitness) for every prompt the request needs."""
        wanted = (
            [e for e, n in request.elements.items() if n > 0]
            if isinstance(request.elements, dict)
            else list(Element)
        )
        windows = [
            (section, window)
            for section in sections
            if section.text.strip()
            for window in reading_windows(section.text, self.window)
        ]
        pairs = [(element, explicitness) for element in wanted for explicitness in ASKED[element]]
        budget = None
        if request.count and not request.per_section:
            budget = math.ceil(PROMPTS_PER_QUESTION * request.count)
            # Inferences first: the rules seldom offer one, so they take the spare prompts.
            pairs.sort(key=lambda pair: pair[1] is not IMPLICIT)
        return [
            (*windows[w], *pairs[p]) for w, p in spread_prompts(len(windows), len(pairs), budget)
        ]

    def generate(self, sections: Sequence[Section], request: GenerationRequest) -> list[QAItem]:
        from qg_studio.models.causal_lm import generate

        plan = self.plan(without_moral(sections), request)
        prompts = [lm_qag_prompt(w, e, x) for _, w, e, x in plan]
        best: dict[tuple[int, str], QAItem] = {}
        for decode in self.decodes:
            for (section, _, element, _), options in zip(
                plan, generate(self.loaded, prompts, decode)
            ):
                for text, confidence in options:
                    item = proposed_item(text, confidence, section, element)
                    if item is None:
                        continue
                    key = (section.id, item.question.lower())
                    if key not in best or best[key].scores.confidence < confidence:
                        best[key] = item
        # Someone or something the story never names ("Mother Goose-Daughter") is the
        # model's own: such a question cannot be answered from the story.
        items = list(best.values())
        strangers = unfounded([i.question for i in items], section_texts(sections))
        return [item for item, made_up in zip(items, strangers) if not made_up]


def without_moral(sections: Sequence[Section]) -> list[Section]:
    """The sections without a fable's printed moral: the lesson question asks it, and a
    window that ends on it is asked "What happened after they met the world …?"."""
    from qg_studio.generation.story_end import moral_line

    found = moral_line(sections[-1]) if sections else None
    if found is None:
        return list(sections)
    last = sections[-1]
    return [*sections[:-1], replace(last, text=last.text[: found[0]].rstrip())]


def spread_prompts(windows: int, pairs: int, budget: int | None) -> list[tuple[int, int]]:
    """(window, pair) indexes to prompt, in reading order: all of them within the budget;
    else the budget's prompts laid at even steps along the story, taking the pairs in
    turn, so each window is asked as often and each pair at even steps from its own
    start (the first pairs once more). No window is asked one pair twice: a window gets
    fewer prompts than there are pairs."""
    if budget is None or windows * pairs <= budget:
        return [(w, p) for w in range(windows) for p in range(pairs)]
    return [(t * windows // budget, t % pairs) for t in range(budget)]


def proposed_item(
    text: str, confidence: float, section: Section, element: Element
) -> QAItem | None:
    """The item the model wrote, or None when it wrote no question and answer."""
    pair = parse_qag(text)
    if pair is None:
        return None
    question, answer = as_question(pair[0]), pair[1].strip().rstrip(".!")
    if len(question) < 8 or not answer or len(answer.split()) > MAX_ANSWER_WORDS:
        return None
    if WHOLE_STORY.search(question):
        return None  # read from a window, "What lesson does the story teach?" is a guess
    # A model prompted for a setting may write "How did Mrs. Dunne feel …?": the question's
    # own words say what it asks, as they do for a teacher's.
    element = rule_element(question) or element
    evidence = Evidence.find(section, answer)
    explicitness = EXPLICIT if evidence else IMPLICIT
    return QAItem(
        question=question,
        answers=[answer],
        element=element,
        explicitness=explicitness,
        answer_kind=answer_kind(answer=answer, explicitness=explicitness),
        sections=[section.id],
        evidence=[evidence] if evidence else [],
        engine=ENGINE,
        rule="lm.propose",
        scores=ItemScores(confidence=round(confidence, 4)),
    )
