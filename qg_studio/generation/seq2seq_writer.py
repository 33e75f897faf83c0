"""The neural question engine: any Hugging Face seq2seq checkpoint (T5, BART, BERT2BERT).

Prompted in the format of :mod:`qg_studio.models.prompts` (control codes for element and
explicitness, the answer, the section), on CUDA in bf16/fp16 when there is one.

``generate`` picks simple answer candidates per requested element from each section
(named entities, noun chunks, verb phrases, clauses, sentences via spaCy), then writes
one question per candidate in length-sorted batches. Stories are handled section by
section; a section longer than the encoder's limit is narrowed to the sentences around
the answer, with a warning, never cut silently.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any
from typing import Sequence

from qg_studio import lang
from qg_studio.generation import QuestionGenerator
from qg_studio.generation import WriteTarget
from qg_studio.models.prompts import answer_window
from qg_studio.models.prompts import as_question
from qg_studio.models.prompts import qg_input
from qg_studio.reading.lexicon import FEELINGS
from qg_studio.schema import ELEMENTS
from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import GenerationRequest
from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.schema import section_texts
from qg_studio.scores import ItemScores

# Elements whose answers are usually inferred; they take the implicit share first.
_IMPLICIT_FIRST = (
    Element.FEELING,
    Element.CAUSAL,
    Element.PREDICTION,
    Element.OUTCOME,
    Element.CHARACTER,
    Element.ACTION,
    Element.SETTING,
)
_SETTING_ENTS = {"GPE", "LOC", "FAC", "DATE", "TIME"}
_SETTING_PREPS = frozenset(lang.function_words("setting_prepositions"))
_CAUSE_MARKERS = frozenset(lang.function_words("cause_markers"))
_OUTCOME_MARKERS = ("then", "at last", "finally", "so", "after")


@dataclass
class Target:
    section: Section
    element: Element
    explicitness: Explicitness
    answer: str = ""
    copy: int = 0  # 0 for the requested question, 1.. for the extra candidates


class Seq2SeqGenerator(QuestionGenerator):
    """``model``: a registry name, a checkpoint folder, or a hub id."""

    name = "seq2seq"

    # Decoding options this engine takes (seq2seq.DecodeSettings' defaults otherwise).
    DECODE_OPTIONS = "num_beams do_sample temperature top_p batch_size max_new_tokens seed".split()

    def __init__(
        self, model: str | None = None, device: str | None = None, oversample: int = 2, **options
    ):
        from qg_studio.models.seq2seq import DecodeSettings
        from qg_studio.models.seq2seq import load_for_role

        self.resolved, self.loaded = load_for_role(model, "qg", device)
        self.settings = DecodeSettings.from_options(options, self.DECODE_OPTIONS)
        self.context_words = self.loaded.config.context_words
        # Candidates per requested question (each with a different answer): the pipeline
        # ranks them and keeps the best, so a weak question need not be the only one.
        self.oversample = max(1, int(oversample))

    # -- answer-aware mode ---------------------------------------------------------------

    def write_many(self, targets: Sequence[WriteTarget]) -> list[QAItem]:
        # One decode per answer, each about its own sections.
        return [self.write_questions(sections, [tuple(rest)])[0] for sections, *rest in targets]

    def write_questions(
        self,
        sections: Sequence[Section],
        targets: Sequence[tuple[str, Element | str, Explicitness | str | None]],
        **decode: Any,
    ) -> list[QAItem]:
        """Batched answer-aware mode: one question per (answer, element, explicitness)
        about all of ``sections`` (the cor_sections, as in training)."""
        context = section_texts(sections)
        plans = []
        for answer, element, explicitness in targets:
            found = bool(answer) and answer.lower() in context.lower()
            expl = (
                Explicitness.parse(explicitness)
                if explicitness
                else Explicitness.EXPLICIT
                if found
                else Explicitness.IMPLICIT
            )
            plans.append((answer, Element.parse(element), expl))
        prompts = [self._prompt(context, a, e, x, [s.id for s in sections]) for a, e, x in plans]
        outputs = self._run(prompts, decode)
        items = []
        for (answer, element, expl), (question, confidence) in zip(plans, outputs):
            evidence = [ev for ev in (Evidence.find(s, answer) for s in sections) if ev][:1]
            items.append(
                self._item(
                    question,
                    answer,
                    element,
                    expl,
                    [evidence[0].section] if evidence else [s.id for s in sections],
                    evidence,
                    confidence,
                )
            )
        return items

    # -- free generation -----------------------------------------------------------------

    def generate(
        self, sections: Sequence[Section], request: GenerationRequest, **decode: Any
    ) -> list[QAItem]:
        """``oversample`` candidates per planned (section, element, explicitness), each
        about a different answer; ``decode`` overrides the beam/sampling settings."""
        planned = plan_targets(sections, request)
        targets = self._choose_answers(
            [
                Target(t.section, t.element, t.explicitness, copy=c)
                for t in planned
                for c in range(self.oversample)
            ]
        )
        prompts = [
            self._prompt(t.section.text, t.answer, t.element, t.explicitness, [t.section.id])
            for t in targets
        ]
        outputs = self._run(prompts, decode)
        items = []
        for t, (question, confidence) in zip(targets, outputs):
            ev = Evidence.find(t.section, t.answer)
            items.append(
                self._item(
                    question,
                    t.answer,
                    t.element,
                    t.explicitness,
                    [t.section.id],
                    [ev] if ev else [],
                    confidence,
                )
            )
        return items

    # -- internals -----------------------------------------------------------------------

    def _prompt(
        self,
        context: str,
        answer: str,
        element: Element,
        explicitness: Explicitness,
        section_ids: list[int],
    ) -> str:
        from qg_studio.models.seq2seq import token_lengths

        fmt = self.resolved.prompt_format
        window = answer_window(context, answer, self.context_words)
        prompt = qg_input(window, element, explicitness, answer, fmt=fmt)
        limit = self.loaded.max_input_tokens
        length = token_lengths(self.loaded.tokenizer, [prompt])[0]
        if length <= limit:
            return prompt
        words = len(window.split())
        while length > limit and words > 20:
            words = int(words * limit / length * 0.9)
            window = answer_window(context, answer, words)
            prompt = qg_input(window, element, explicitness, answer, fmt=fmt)
            length = token_lengths(self.loaded.tokenizer, [prompt])[0]
        warnings.warn(
            f"section(s) {section_ids} exceed the model's {limit}-token input; "
            f"using the {len(window.split())} words around the answer",
            stacklevel=3,
        )
        return prompt

    def _run(self, prompts: list[str], decode: dict[str, Any]) -> list[tuple[str, float]]:
        from qg_studio.models.seq2seq import generate_texts

        settings = self.settings.updated(**decode)
        return [
            (as_question(text), conf)
            for text, conf in generate_texts(self.loaded, prompts, settings)
        ]

    def _item(
        self,
        question: str,
        answer: str,
        element: Element,
        explicitness: Explicitness,
        sections: list[int],
        evidence: list[Evidence],
        confidence: float,
    ) -> QAItem:
        kind = (
            AnswerKind.EXTRACTIVE
            if explicitness is Explicitness.EXPLICIT
            else AnswerKind.ABSTRACTIVE
        )
        return QAItem(
            question=question,
            answers=[answer] if answer else [],
            element=element,
            explicitness=explicitness,
            answer_kind=kind,
            sections=sections,
            evidence=evidence,
            engine=f"seq2seq:{self.resolved.name}",
            scores=ItemScores(confidence=round(confidence, 4)),
        )

    def _choose_answers(self, targets: list[Target]) -> list[Target]:
        from qg_studio.text.parse import get_nlp

        nlp = get_nlp()
        docs = {s.id: nlp(s.text) for s in {t.section.id: t.section for t in targets}.values()}
        used: dict[int, set[str]] = {}
        kept = []
        for t in targets:
            seen = used.setdefault(t.section.id, set())
            cands = answer_candidates(docs[t.section.id], t.element, t.explicitness)
            fresh = [c for c in cands if c.lower() not in seen]
            if fresh:
                t.answer = fresh[0]
            elif t.copy:
                continue  # an extra candidate with nothing new to ask about
            else:  # a requested question is never dropped: reuse an answer
                t.answer = cands[0] if cands else t.section.text.split(".")[0]
            seen.add(t.answer.lower())
            kept.append(t)
        return kept


def plan_targets(sections: Sequence[Section], request: GenerationRequest) -> list[Target]:
    """(section, element, explicitness) for each question asked, spread over the sections."""
    sections = [s for s in sections if s.text.strip()]
    if not sections:
        return []
    total = request.total(len(sections))
    if isinstance(request.elements, dict):
        elements = [e for e, n in request.elements.items() for _ in range(n)]
        if request.per_section is None and request.count is not None:
            elements = elements[:total] if total < len(elements) else elements
    else:
        elements = [ELEMENTS[i % len(ELEMENTS)] for i in range(total)]
    n_implicit = round(len(elements) * request.implicit_share)
    order = sorted(range(len(elements)), key=lambda i: (_IMPLICIT_FIRST.index(elements[i]), i))
    implicit = set(order[:n_implicit])
    return [
        Target(
            section=sections[i % len(sections)],
            element=e,
            explicitness=Explicitness.IMPLICIT if i in implicit else Explicitness.EXPLICIT,
        )
        for i, e in enumerate(elements)
    ]


def answer_candidates(doc, element: Element, explicitness: Explicitness) -> list[str]:
    """Answers a question of this element could have in this section, likeliest first.

    Simple on purpose: the model writes the question; the answer only has to be a span
    of the right type (a who, a where, a deed, a feeling, a reason, an outcome).
    """
    sents = [s for s in doc.sents if s.text.strip()]
    sentences = [s.text.strip() for s in sents]
    if explicitness is Explicitness.IMPLICIT or element is Element.PREDICTION:
        ranked = _sentences_for(sents, element)
        return ranked or sentences
    out: list[str] = []
    if element is Element.CHARACTER:
        out += [e.text for e in doc.ents if e.label_ in ("PERSON", "NORP")]
        out += [
            c.text
            for c in doc.noun_chunks
            if c.root.dep_ in ("nsubj", "nsubjpass") and c.root.pos_ in ("NOUN", "PROPN")
        ]
    elif element is Element.SETTING:
        out += [e.text for e in doc.ents if e.label_ in _SETTING_ENTS]
        out += [
            doc[t.i : t.right_edge.i + 1].text
            for t in doc
            if t.dep_ == "prep"
            and t.lower_ in _SETTING_PREPS
            and t.head.pos_ == "VERB"
            and any(c.dep_ == "pobj" for c in t.children)
        ]
    elif element is Element.ACTION:
        for t in doc:
            if t.pos_ == "VERB" and t.dep_ in ("ROOT", "conj") and t.lemma_ not in ("be", "have"):
                right = max(
                    [
                        c.right_edge.i
                        for c in t.children
                        if c.dep_ in ("dobj", "prep", "prt", "xcomp", "ccomp")
                    ]
                    + [t.i]
                )
                if right > t.i:  # a bare verb ("stopped") says too little to ask about
                    out.append(doc[t.i : right + 1].text)
    elif element is Element.FEELING:
        out += [
            t.text for t in doc if t.lower_ in FEELINGS or (t.pos_ == "ADJ" and t.dep_ == "acomp")
        ]
    elif element is Element.CAUSAL:
        for t in doc:
            if t.lower_ in _CAUSE_MARKERS and t.dep_ == "mark":
                out.append(doc[t.i + 1 : t.head.right_edge.i + 1].text)
            elif t.lower_ == "to" and t.dep_ == "aux" and t.head.dep_ in ("advcl", "xcomp"):
                out.append(doc[t.i : t.head.right_edge.i + 1].text)
    elif element is Element.OUTCOME:
        out += [
            s.text.strip()
            for s in sents[1:]
            if s.text.lower().lstrip().startswith(_OUTCOME_MARKERS)
        ]
        out += sentences[-1:]
    out = [" ".join(o.split()).strip(" ,;:") for o in out]
    out = [o for o in out if o and len(o.split()) <= 25]
    if not out and element in (Element.FEELING, Element.CAUSAL, Element.OUTCOME):
        out = _sentences_for(sents, element)  # the reaction or reason is a whole clause here
    if not out:
        out = [c.text for c in doc.noun_chunks if c.root.pos_ in ("NOUN", "PROPN")] or sentences
    return list(dict.fromkeys(out))


def _sentences_for(sents, element: Element) -> list[str]:
    """Sentences likely to hold an implicit answer of this element."""

    def score(s) -> int:
        text = s.text.lower()
        if element is Element.FEELING:
            return sum(t.lower_ in FEELINGS for t in s)
        if element is Element.CAUSAL:
            return sum(w in text.split() for w in ("because", "so", "since", "therefore"))
        if element is Element.OUTCOME:
            return int(text.lstrip().startswith(_OUTCOME_MARKERS))
        return 0

    if element is Element.PREDICTION:
        return [s.text.strip() for s in reversed(sents)]
    ranked = sorted(sents, key=lambda s: -score(s))
    return [s.text.strip() for s in ranked]
