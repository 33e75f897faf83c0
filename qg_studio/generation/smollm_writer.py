"""The SmolLM2 question engine (``smollm``): a fine-tuned 135M decoder writes the questions.

Answer-aware throughout. For a story, the embedded engine's candidates supply what to
ask about (an answer, its narrative element and explicitness, its evidence); the best of
them, ``answers_per_slot`` times as many as the teacher asked for, each get a question
from the model (or ``questions_per_answer`` sampled ones), and the pipeline's ranking,
round trip and quotas choose among all of them. ``write_question`` is the answer-aware mode for a given answer (``eval qg``).

A small model writes fluent questions about people the story does not have ("What did
the youngest prince do?" in a story with no prince) and sometimes puts the answer in the
question. Such a question never reaches the teacher: the slot keeps another of the
model's questions, else the embedded engine's own (:func:`unfounded`, :func:`gives_away`).

Prompts come only from :func:`qg_studio.models.prompts.lm_qg_prompt`, the function the training
recipe uses, with the window the adapter was trained on (its ``qg_studio.json``).
"""

from __future__ import annotations

import copy
import dataclasses
import re
from typing import Any
from typing import Callable
from typing import Sequence

from qg_studio import lang
from qg_studio.generation import QuestionGenerator
from qg_studio.generation import WriteTarget
from qg_studio.generation.consensus import CONSENSUS_BEAMS
from qg_studio.generation.consensus import consensus
from qg_studio.models.prompts import QG_WINDOW_WORDS
from qg_studio.models.prompts import as_question
from qg_studio.models.prompts import lm_qg_prompt
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.schema import section_texts
from qg_studio.scores import ItemScores

ENGINE = "smollm"
STORY_WORDS = lang.function_words("story_words")
_HYPHENED = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+)+\b")


class CausalLMGenerator(QuestionGenerator):
    """``model``: the adapter (a registry name or folder); default the shipped one."""

    name = ENGINE

    def __init__(
        self,
        model: str | None = None,
        device: str | None = None,
        answers_per_slot: int = 2,
        questions_per_answer: int = 1,
        temperature: float = 0.7,
        top_p: float = 0.9,
        num_beams: int = 1,
        batch_size: int = 16,
        seed: int | None = 0,
        base: str | None = None,
        choose_slots: Callable[..., list[QAItem]] | None = None,
        round_trip: Callable[[list[QAItem], Sequence[Section]], None] | None = None,
        candidates_per_answer: int = CONSENSUS_BEAMS,
        **_ignored: Any,
    ):
        from qg_studio.models.causal_lm import LMDecode
        from qg_studio.models.causal_lm import load_adapter

        self.loaded = load_adapter(model, device, base)
        self.window = int(self.loaded.config.qg_window_words or QG_WINDOW_WORDS)
        self.answers_per_slot = max(1, int(answers_per_slot))
        # What to reword: (candidates, request, sections) -> the slots, ranked as a set
        # would be. The pipeline passes its ranking in (engines never import each other).
        self.choose_slots = choose_slots
        length = {"max_new_tokens": 40, "batch_size": batch_size}
        self.greedy = LMDecode(**length, num_beams=num_beams)
        # For a given answer: the consensus of several beams (consensus.py), each checked
        # by the round trip the caller passes in (it stores each one's answerability).
        beams = max(1, int(candidates_per_answer))
        self.round_trip = round_trip
        self.beams = (
            LMDecode(**length, num_beams=beams, num_return_sequences=beams)
            if beams > 1
            else self.greedy
        )
        # Several questions per answer are sampled; one is the greedy one. Each extra one
        # repeats the prompt's forward pass, the dearest step on a CPU, so the default
        # overgenerates by answers (answers_per_slot) rather than by samples.
        many = max(1, int(questions_per_answer))
        sampling = {"temperature": temperature, "top_p": top_p, "seed": seed}
        self.sampled = (
            LMDecode(**length, do_sample=True, num_return_sequences=many, **sampling)
            if many > 1
            else self.greedy
        )

    # -- answer-aware mode ---------------------------------------------------------------

    def write_many(self, targets: Sequence[WriteTarget]) -> list[QAItem]:
        """One question per (sections, answer, element, explicitness), decoded in batches."""
        plans, prompts = [], []
        for sections, answer, element, explicitness in targets:
            context = section_texts(sections)
            expl = (
                Explicitness.parse(explicitness)
                if explicitness
                else Explicitness.EXPLICIT
                if answer and answer.lower() in context.lower()
                else Explicitness.IMPLICIT
            )
            element = Element.parse(element)
            plans.append((list(sections), answer, element, expl))
            prompts.append(self.prompt(sections, answer, element, expl))
        items = []
        for (sections, answer, element, expl), options in zip(
            plans, self._decode(prompts, self.beams)
        ):
            evidence = [ev for ev in (Evidence.find(s, answer) for s in sections) if ev][:1]
            kind = (
                AnswerKind.EXTRACTIVE if expl is Explicitness.EXPLICIT else AnswerKind.ABSTRACTIVE
            )
            written = [
                QAItem(
                    question=question,
                    answers=[answer] if answer else [],
                    element=element,
                    explicitness=expl,
                    answer_kind=kind,
                    sections=[evidence[0].section] if evidence else [s.id for s in sections],
                    evidence=evidence,
                    engine=self.name,
                    rule="written.for_answer",
                    scores=ItemScores(confidence=confidence),
                )
                for question, confidence in dict(options).items()  # one of each wording
            ]
            trip = None
            if self.round_trip is not None and len(written) > 1 and answer:
                self.round_trip(written, sections)
                trip = [i.scores.answerability or 0.0 for i in written]
            items.append(written[consensus([i.question for i in written], trip)])
        return items

    # -- free generation -----------------------------------------------------------------

    def generate(self, sections: Sequence[Section], request: GenerationRequest) -> list[QAItem]:
        from qg_studio.generation import get_generator

        if self.choose_slots is None:
            raise TypeError(
                "the SmolLM2 writer rewords ranked slots: give it choose_slots "
                "(qg_studio.pipeline.ranked_slots; the pipeline does)"
            )
        sections = [s for s in sections if s.text.strip()]
        if not sections:
            return []
        # What to ask about: the embedded engine's candidates, quotas filled a few times over.
        found = get_generator("embedded").generate(sections, request)
        slots = self.choose_slots(found, oversampled(request, self.answers_per_slot), sections)
        by_id = {s.id: s for s in sections}
        prompts = [
            self.prompt(
                [by_id[i] for i in slot.sections if i in by_id] or sections,
                slot.answer,
                slot.element,
                slot.explicitness,
            )
            for slot in slots
        ]
        decoded = self._decode(prompts, self.sampled)
        flawed = iter(
            unfounded(
                [q for options in decoded for q, _ in options],
                [
                    _told_there(slot, by_id)
                    for slot, options in zip(slots, decoded)
                    for _ in options
                ],
            )
        )
        items: list[QAItem] = []
        for slot, options in zip(slots, decoded):
            seen: set[str] = set()
            for question, confidence in options:
                strangers = next(flawed)
                if question.lower() in seen or strangers or gives_away(question, slot.answer):
                    continue
                seen.add(question.lower())
                item = copy.deepcopy(slot)
                item.question, item.engine = question, self.name
                item.scores = ItemScores(confidence=confidence)
                items.append(item)
            if not seen:
                items.append(slot)  # the embedded engine's question, labelled as its own
        return items

    def prompt(
        self, sections: Sequence[Section], answer: str, element: Element, explicitness: Explicitness
    ) -> str:
        """The model's input for one question about ``sections`` (their text, in order)."""
        return lm_qg_prompt(section_texts(sections), answer, element, explicitness, self.window)

    def _decode(self, prompts: list[str], settings) -> list[list[tuple[str, float]]]:
        from qg_studio.models.causal_lm import generate

        return [
            [(as_question(text), conf) for text, conf in options]
            for options in generate(self.loaded, prompts, settings)
        ]


def _told_there(slot: QAItem, by_id: dict[int, Section]) -> str:
    """What a question about ``slot`` may name: the embedded engine's own question and
    answer for it and the sentence its answer is in. A character from elsewhere in the
    story is someone else's deed ("How did the Donkey feel?" where the Goat was jealous)."""
    from qg_studio.text.sentences import sentences

    told = [slot.question, slot.answer]
    for evidence in slot.evidence[:1]:
        section = by_id.get(evidence.section)
        if section is not None:
            told += [
                section.text[start:end]
                for start, end in sentences(section.text)
                if start <= evidence.start < end or start < evidence.end <= end
            ]
    return " ".join(told)


def unfounded(questions: Sequence[str], told: str | Sequence[str]) -> list[list[str]]:
    """Per question, the nouns it uses that ``told`` (one text for all, or one per
    question) never does, by stem, so "kings" is told by "king": someone or something the
    model made up, or brought in from another part of the story, or what it made up of
    them ("Mrs. Dunne's favorite bread"). A word joined by hyphens
    is one word ("Mother Goose-Daughter", "the fish-heron"), made up unless the text
    writes it so; the words of a question about the story itself ("the two main
    characters of the story") are no one."""
    from qg_studio.text.parse import get_nlp
    from qg_studio.text.words import stem
    from qg_studio.text.words import words as word_list

    texts = [told] * len(questions) if isinstance(told, str) else list(told)
    vocabularies = {text: {stem(w.removesuffix("'s")) for w in word_list(text)} for text in texts}

    def known(token, vocabulary) -> bool:
        return token.lower_ in STORY_WORDS or any(
            stem(w) in vocabulary for w in (token.lower_, token.lemma_.lower())
        )

    return [
        [
            t.text
            for t in doc
            if (t.pos_ in ("NOUN", "PROPN") or _describing(t))
            and t.is_alpha
            and not known(t, vocabularies[text])
        ]
        + [w for w in _HYPHENED.findall(doc.text) if w.lower() not in text.lower()]
        for doc, text in zip(get_nlp().pipe(list(questions), batch_size=32), texts)
    ]


def _describing(token) -> bool:
    """A word that tells what someone or something is like ("her favorite bread"), not a
    feeling a question may infer ("Why was the Fox angry?") nor a small word ("other")."""
    return (
        token.pos_ == "ADJ"
        and token.dep_ == "amod"
        and not token.is_stop
        and token.lemma_.lower() not in FEELINGS
    )


def gives_away(question: str, answer: str) -> bool:
    """Whether every content word of the answer is already in the question ("Where did the
    birds sit on the trees? – on the trees")."""
    from qg_studio.reading.analysis import content
    from qg_studio.text.words import stem

    said = {stem(w) for w in content(question)}
    words = [stem(w) for w in content(answer)]
    return bool(words) and all(w in said for w in words)


def oversampled(request: GenerationRequest, factor: int) -> GenerationRequest:
    """The same mix asked ``factor`` times over: the slots the model writes for."""
    elements = (
        {e: n * factor for e, n in request.elements.items()}
        if isinstance(request.elements, dict)
        else request.elements
    )
    return dataclasses.replace(
        request,
        elements=elements,
        count=request.count * factor if request.count else request.count,
        per_section=request.per_section * factor if request.per_section else None,
    )
