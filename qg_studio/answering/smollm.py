"""The SmolLM2 answerer (``smollm``): unified QA with the same adapter that writes questions.

Each question is routed by its kind, as measured on val (``val.json`` beside the adapter,
written by ``python -m qg_studio.train.lm_card measure``):

- ``yesno`` ("Did…", "Is…"): the model chooses between " yes" and " no" in one forward
  pass; the reply is "Yes" or "No", with the evidence sentence that bears on it;
- ``feeling`` and ``implicit`` (the tagger's reading of the question; predictions too):
  the model writes a short answer from the ``abstractive`` prompt, shown with the sentence
  that best supports it;
- ``explicit``: the span answerer (``extractive``) where it measured better, else the model
  with the ``extractive`` prompt, its answer pointed back at the story's own words.

Prompts come only from :func:`qg_studio.models.prompts.lm_qa_prompt`, as at training. The span
answerer is taken from the answerer registry by name, the question tagger from its
registry (no import of either's package).
"""

from __future__ import annotations

from typing import Any
from typing import Sequence

from qg_studio.answer_kind import answer_kind
from qg_studio.answering import Answer
from qg_studio.answering import Answerer
from qg_studio.answering import SectionIds
from qg_studio.answering.feeling import is_feeling_question
from qg_studio.answering.retrieval import retrieve
from qg_studio.models.prompts import QA_WINDOW_WORDS
from qg_studio.models.prompts import lm_qa_prompt
from qg_studio.registry import ENGINES
from qg_studio.registry import Registry
from qg_studio.schema import AnswerKind
from qg_studio.schema import Evidence
from qg_studio.schema import Explicitness
from qg_studio.schema import Section
from qg_studio.schema import section_texts
from qg_studio.text.evidence import best_sentence

ENGINE = "smollm"
ROUTE_KEYS = ("yesno", "feeling", "implicit", "explicit")
LM, SPAN = "smollm", "extractive"
# Before anything is measured: the model where the answer is not a quotation.
DEFAULT_ROUTES = {"yesno": LM, "feeling": LM, "implicit": LM, "explicit": SPAN}
PREFIX = {
    "yesno": AnswerKind.YESNO,
    "feeling": AnswerKind.ABSTRACTIVE,
    "implicit": AnswerKind.ABSTRACTIVE,
    "explicit": AnswerKind.EXTRACTIVE,
}


def route_keys(questions: Sequence[str], sections: Sequence[Sequence[Section]]) -> list[str]:
    """The kind of each question, from its wording and the tagger (question only)."""
    tags = Registry("question tagger", ENGINES["question tagger"]).get("default")(questions)
    keys = []
    for question, tag in zip(questions, tags):
        kind = answer_kind(question)
        if kind is AnswerKind.YESNO:
            keys.append("yesno")
        elif is_feeling_question(question):
            keys.append("feeling")
        elif kind is AnswerKind.ABSTRACTIVE or tag.explicitness is Explicitness.IMPLICIT:
            keys.append("implicit")
        else:
            keys.append("explicit")
    return keys


class CausalLMAnswerer(Answerer):
    """``model``: the adapter (registry name or folder); ``routes``: kind → answerer
    (``smollm`` or ``extractive``), default the measured ones in the adapter's val.json."""

    name = ENGINE

    def __init__(
        self,
        model: str | None = None,
        device: str | None = None,
        routes: dict[str, str] | None = None,
        batch_size: int = 16,
        max_new_tokens: int = 24,
        base: str | None = None,
        **_ignored: Any,
    ):
        from qg_studio.models.causal_lm import LMDecode
        from qg_studio.models.causal_lm import load_adapter
        from qg_studio.models.causal_lm import read_val
        from qg_studio.models.causal_lm import resolve_adapter

        self.loaded = load_adapter(model, device, base)
        self.window = int(self.loaded.config.qa_window_words or QA_WINDOW_WORDS)
        measured = read_val(resolve_adapter(model)).get("qa", {}).get("routes") or {}
        self.routes = {**DEFAULT_ROUTES, **measured, **(routes or {})}
        self.decode = LMDecode(max_new_tokens=max_new_tokens, batch_size=batch_size)
        self.batch_size = batch_size
        self._span = None

    def answer_checked(
        self, questions: list[str], sections: list[Section], section_ids: SectionIds | None
    ) -> list[Answer]:
        questions = [" ".join(q.split()) for q in questions]
        if not questions:
            return []
        chosen = self._sections(questions, sections, section_ids)
        keys = route_keys(questions, chosen)
        results: list[Answer | None] = [None] * len(questions)
        span = [i for i, k in enumerate(keys) if self.routes.get(k) == SPAN]
        if span:
            replies = self.span_answerer().answer(
                [questions[i] for i in span], sections, [[s.id for s in chosen[i]] for i in span]
            )
            for i, reply in zip(span, replies):
                results[i] = reply
        yesno = [i for i, k in enumerate(keys) if results[i] is None and k == "yesno"]
        if yesno:
            self._yes_no(yesno, questions, chosen, results)
        free = [i for i, r in enumerate(results) if r is None]
        if free:
            self._write(free, questions, chosen, keys, results)
        return [r for r in results if r is not None]

    def span_answerer(self):
        if self._span is None:
            from qg_studio.answering import get_answerer

            self._span = get_answerer(SPAN)
        return self._span

    # -- steps -----------------------------------------------------------------------

    def _sections(self, questions, sections, section_ids) -> list[list[Section]]:
        by_id = {s.id: s for s in sections}
        wanted = list(section_ids) if section_ids is not None else [None] * len(questions)
        missing = [i for i, ids in enumerate(wanted) if not ids]
        if missing:
            found = retrieve([questions[i] for i in missing], sections)
            for i, ids in zip(missing, found):
                wanted[i] = ids
        # Read in story order, as the model was trained on cor_section texts.
        return [
            [by_id[j] for j in sorted(set(ids or [])) if j in by_id] or sections[:1]
            for ids in wanted
        ]

    def prompt(self, question: str, sections: list[Section], key: str) -> str:
        """The model's input for one question of kind ``key`` about ``sections``."""
        return lm_qa_prompt(question, section_texts(sections), PREFIX[key], self.window)

    def _yes_no(self, rows, questions, chosen, results) -> None:
        from qg_studio.models.causal_lm import choice_scores

        prompts = [self.prompt(questions[i], chosen[i], "yesno") for i in rows]
        for i, (yes, no) in zip(
            rows, choice_scores(self.loaded, prompts, ("yes", "no"), self.batch_size)
        ):
            import math

            p_yes = 1.0 / (1.0 + math.exp(no - yes))  # the choice between the two only
            reply = "Yes" if p_yes >= 0.5 else "No"
            evidence = best_sentence(questions[i], chosen[i])
            # The key says "Yes"/"No"; the evidence sentence says why, beside it.
            results[i] = Answer(
                [reply],
                AnswerKind.YESNO,
                [evidence] if evidence else [],
                explicit=False,
                confidence=round(max(p_yes, 1 - p_yes), 4),
                sections=[s.id for s in chosen[i]],
                engine=self.name,
            )

    def _write(self, rows, questions, chosen, keys, results) -> None:
        from qg_studio.models.causal_lm import generate

        prompts = [self.prompt(questions[i], chosen[i], keys[i]) for i in rows]
        outputs = generate(self.loaded, prompts, self.decode)
        for i, options in zip(rows, outputs):
            text, confidence = options[0]
            text = text.strip().rstrip(".").strip()
            evidence = (
                next((ev for ev in (Evidence.find(s, text) for s in chosen[i]) if ev), None)
                if text
                else None
            )
            explicit = evidence is not None and keys[i] == "explicit"
            if evidence is not None:
                text = evidence.text  # the story's own casing, not the lower-cased output
            else:
                evidence = best_sentence(f"{questions[i]} {text}", chosen[i])
            kind = PREFIX[keys[i]]
            note = (
                "" if explicit else "the answer is inferred; the evidence is the closest sentence"
            )
            results[i] = Answer(
                [text] if text else [],
                kind,
                [evidence] if evidence else [],
                explicit=explicit,
                confidence=round(confidence, 4),
                sections=[s.id for s in chosen[i]],
                engine=self.name,
                note=note if text else "the model gave no answer",
            )
