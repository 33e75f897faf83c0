"""The CPU answerer: a span model (MiniLM + start/end head) shipped in ``models/``.

For each question: pick the sections (given, or retrieved), find the best answer span
in them, and shape the reply by the answer kind: a span for extractive questions, "Yes"
or "No" with the sentence that justifies it for yes/no ones, and for abstractive ones
(predictions, opinions) the span closest to an answer, flagged as not in the text.

Without the shipped model (a fresh checkout that skipped it, or a broken folder) the
answerer still replies, with the sentence that best matches the question, and says so
in ``Answer.note``.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Sequence

from qg_studio.answer_kind import answer_kind
from qg_studio.answering import Answer
from qg_studio.answering import Answerer
from qg_studio.answering import QuestionError
from qg_studio.answering import SectionIds
from qg_studio.answering.feeling import feeling_answer
from qg_studio.answering.kind import is_question
from qg_studio.answering.kind import yesno_reply
from qg_studio.answering.prediction import following_span
from qg_studio.answering.prediction import read_prediction
from qg_studio.answering.retrieval import SECOND_SECTION_MARGIN
from qg_studio.answering.retrieval import choose_sections
from qg_studio.answering.retrieval import rank_sections
from qg_studio.models.loading import loads_model
from qg_studio.paths import shipped
from qg_studio.reading.deeds import next_deed
from qg_studio.schema import AnswerKind
from qg_studio.schema import Evidence
from qg_studio.schema import Section
from qg_studio.text.evidence import best_sentence_span
from qg_studio.text.evidence import bm25_scores
from qg_studio.text.sentences import sentences
from qg_studio.text.words import content_words

log = logging.getLogger(__name__)
MODEL_ENV = "QG_STUDIO_QA_MODEL"
DEFAULT_MODEL_DIR = shipped("models", "qa-extractive")

MAX_QUESTION_TOKENS = 64  # longer questions are cut: the span model needs room for text
MAX_ANSWER_TOKENS = 30
# Without given sections, the second-ranked section is read too when it scores within this
# of the first. Reading the top two always helped on 12 train stories (ROUGE-L 0.479 vs
# 0.433) but not on val (0.394 vs 0.396), where the span model is less sure of itself.
SECTION_MARGIN = SECOND_SECTION_MARGIN
# Below this span probability an "extractive" answer is more likely a guess than a
# quotation, so it is not presented as stated in the text.
EXPLICIT_FLOOR = 0.05
# A prediction answered by the deed the story tells next is what happened, but the
# question asked the reader to guess it: as sure as the generator's own predictions.
DEED_CONFIDENCE = 0.6


@dataclass
class _Context:
    """The text a question is answered from: chosen sections joined by blank lines."""

    text: str
    parts: list[tuple[int, int, Section]]  # (start, end) in ``text`` of each section

    @classmethod
    def build(cls, sections: Sequence[Section]) -> "_Context":
        parts, pieces, at = [], [], 0
        for section in sections:
            if pieces:
                pieces.append("\n\n")
                at += 2
            pieces.append(section.text)
            parts.append((at, at + len(section.text), section))
            at += len(section.text)
        return cls("".join(pieces), parts)

    def evidence(self, start: int, end: int) -> Evidence:
        """The span as offsets into one section; a span across a break keeps its larger part."""
        best = None
        for a, b, section in self.parts:
            lo, hi = max(start, a), min(end, b)
            if hi > lo and (best is None or hi - lo > best[1] - best[0]):
                best = (lo, hi, a, section)
        if best is None:  # the span fell on the break itself: the nearest section
            a, b, section = min(self.parts, key=lambda p: abs(p[0] - start))
            best = (a, min(b, a + 1), a, section)
        lo, hi, a, section = best
        return Evidence(section.id, lo - a, hi - a, section.text[lo - a : hi - a])

    def window(self, start: int, end: int) -> "_Context":
        """The context cut to ``text[start:end]``; evidence still points into the sections."""
        return _Context(self.text[start:end], [(a - start, b - start, s) for a, b, s in self.parts])

    def sentence_around(self, start: int, end: int) -> tuple[int, int]:
        for a, b in sentences(self.text):
            if a <= start < b:
                return a, max(b, min(end, len(self.text)))
        return start, end


def resolve_model_dir(path: str | os.PathLike | None = None) -> Path:
    return Path(path or os.environ.get(MODEL_ENV) or DEFAULT_MODEL_DIR)


def model_present(path: str | os.PathLike | None = None) -> bool:
    folder = resolve_model_dir(path)
    return (folder / "config.json").is_file() and any(folder.glob("*.safetensors"))


@lru_cache(maxsize=2)
@loads_model
def load_span_model(path: str, quantize: bool = False):
    """(tokenizer, model, torch) from a local folder, offline; cached per process."""
    import torch
    from transformers import AutoModelForQuestionAnswering
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = AutoModelForQuestionAnswering.from_pretrained(path, local_files_only=True)
    # Shipped in fp16 for size; CPUs run float32 far faster. Dynamic int8 is faster
    # still but cost 3 points of ROUGE-L on FairytaleQA val, so it is opt-in.
    model = model.float().eval()
    if quantize:
        model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
    return tokenizer, model, torch


class ExtractiveAnswerer(Answerer):
    name = "extractive"

    def __init__(
        self,
        model_dir: str | os.PathLike | None = None,
        max_length: int = 192,
        stride: int = 64,
        max_windows: int | None = 3,
        max_sections: int = 2,
        batch_size: int = 16,
        quantize: bool = False,
        candidates: int = 20,
        echo_penalty: float = 2.0,
        section_margin: float = SECTION_MARGIN,
    ):
        self.model_dir = resolve_model_dir(model_dir)
        self.max_length = max_length
        self.stride = stride
        self.max_windows = max_windows
        self.candidates = candidates
        self.echo_penalty = echo_penalty
        self.max_sections = max_sections
        self.section_margin = section_margin
        self.batch_size = batch_size
        self.quantize = quantize
        self.load_error = ""
        self._model = None
        if model_present(self.model_dir):
            try:
                self._model = load_span_model(str(self.model_dir), quantize)
            except Exception as exc:  # a broken folder must not stop the app answering
                self.load_error = f"{type(exc).__name__}: {exc}"
                log.warning("the span model did not load; answering with sentences: %s", exc)
        else:
            self.load_error = f"no shipped model at {self.model_dir}"

    @property
    def fallback(self) -> bool:
        return self._model is None

    # ------------------------------------------------------------------ protocol

    def answer_checked(
        self, questions: list[str], sections: list[Section], section_ids: SectionIds | None
    ) -> list[Answer]:
        if section_ids is not None and len(section_ids) != len(questions):
            raise QuestionError(f"{len(section_ids)} section lists for {len(questions)} questions")
        if not questions:
            return []
        predictions = [read_prediction(q) for q in questions]
        # A prediction is looked for where its moment is told, and read on into the next
        # section: a guess asked where a section ends is answered by the next one.
        found_by = [p.moment if p else q for q, p in zip(questions, predictions)]
        chosen = self._choose(found_by, sections, section_ids)
        order = [s.id for s in sections]
        for i, prediction in enumerate(predictions):
            if prediction and (section_ids is None or not section_ids[i]):
                following = order.index(max(chosen[i], key=order.index)) + 1
                chosen[i] = chosen[i] + order[following : following + 1]
        by_id = {s.id: s for s in sections}
        # Read in story order; ``chosen`` (and the reply's sections) stay best first.
        contexts = [_Context.build([by_id[i] for i in sorted(ids)]) for ids in chosen]
        asked = list(questions)
        deeds = {}
        for i, prediction in enumerate(predictions):
            # A prediction is read from the moment it starts from on: what the story tells next.
            after = prediction and following_span(contexts[i].text, prediction.moment)
            if after:
                before = contexts[i].text[: after[0]]
                contexts[i] = contexts[i].window(*after)
                asked[i] = prediction.told
                # What the named character does next, as the story tells it: a span
                # reader asked "what did the bull do?" takes any deed in the passage.
                deed = prediction.who and next_deed(contexts[i].text, prediction.who, before)
                if deed:
                    deeds[i] = deed
        rest = [i for i in range(len(questions)) if i not in deeds]
        if self.fallback or not rest:
            found = [self._best_sentence(asked[i], contexts[i]) for i in rest]
        else:
            found = self._best_spans([asked[i] for i in rest], [contexts[i] for i in rest])
        spans = dict(zip(rest, found))
        return [
            self._deed_reply(ids, c, deeds[i]) if i in deeds else self._reply(q, ids, c, spans[i])
            for i, (q, ids, c) in enumerate(zip(questions, chosen, contexts))
        ]

    # ------------------------------------------------------------------ steps

    def _choose(self, questions, sections, section_ids) -> list[list[int]]:
        known = {s.id for s in sections}
        chosen: list[list[int] | None] = []
        for i in range(len(questions)):
            given = section_ids[i] if section_ids is not None else None
            ids = sorted({int(x) for x in given or []} & known)
            chosen.append(ids or None)
        missing = [i for i, ids in enumerate(chosen) if ids is None]
        if missing:
            if len(sections) == 1:
                ranked = [[(sections[0].id, 1.0)]] * len(missing)
            else:
                ranked = rank_sections([questions[i] for i in missing], sections)
            for i, ranking in zip(missing, ranked):
                chosen[i] = choose_sections(ranking, self.max_sections, self.section_margin)
        return [ids or [sections[0].id] for ids in chosen]

    def _best_spans(self, questions, contexts) -> list[tuple[int, int, float]]:
        """(start, end, probability) of the best span of each context."""
        tokenizer, model, torch = self._model
        cut = [self._cut_question(tokenizer, q) for q in questions]
        enc = tokenizer(
            cut,
            [c.text for c in contexts],
            truncation="only_second",
            max_length=self.max_length,
            stride=self.stride,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
        )
        owner = enc["overflow_to_sample_mapping"]
        best: list[tuple[float, int, int, float]] = [(-1e9, 0, 0, 0.0)] * len(questions)
        keep = self._promising_windows(questions, contexts, enc)
        question_words = [set(content_words(q)) for q in questions]
        order = sorted(keep, key=lambda k: len(enc["input_ids"][k]))
        with torch.inference_mode():
            for at in range(0, len(order), self.batch_size):
                rows = order[at : at + self.batch_size]
                width = max(len(enc["input_ids"][k]) for k in rows)
                ids = torch.zeros((len(rows), width), dtype=torch.long)
                types = torch.zeros_like(ids)
                mask = torch.zeros_like(ids)
                for r, k in enumerate(rows):
                    n = len(enc["input_ids"][k])
                    ids[r, :n] = torch.tensor(enc["input_ids"][k])
                    types[r, :n] = torch.tensor(enc["token_type_ids"][k])
                    mask[r, :n] = 1
                out = model(input_ids=ids, token_type_ids=types, attention_mask=mask)
                starts = out.start_logits.float()
                ends = out.end_logits.float()
                for r, k in enumerate(rows):
                    span = self._window_span(
                        enc,
                        k,
                        starts[r],
                        ends[r],
                        torch,
                        contexts[owner[k]].text,
                        question_words[owner[k]],
                    )
                    if span is not None and span[0] > best[owner[k]][0]:
                        best[owner[k]] = span
        return [(s, e, p) for _, s, e, p in best]

    def _promising_windows(self, questions, contexts, enc) -> list[int]:
        """The windows worth running the model on: for each question, the
        ``max_windows`` that share the most (rare) words with it. The model's time grows
        with the windows it reads, and the answer sits near the question's words."""
        owner = enc["overflow_to_sample_mapping"]
        per_question: dict[int, list[int]] = {}
        for k, i in enumerate(owner):
            per_question.setdefault(i, []).append(k)
        if not self.max_windows:
            return list(range(len(owner)))
        keep: list[int] = []
        for i, windows in per_question.items():
            if len(windows) <= self.max_windows:
                keep += windows
                continue
            texts = []
            for k in windows:
                spans = [o for o, s in zip(enc["offset_mapping"][k], enc.sequence_ids(k)) if s == 1]
                texts.append(contexts[i].text[spans[0][0] : spans[-1][1]] if spans else "")
            scores = bm25_scores(content_words(questions[i]), [content_words(t) for t in texts])
            ranked = sorted(range(len(windows)), key=lambda j: -scores[j])
            keep += [windows[j] for j in ranked[: self.max_windows]]
        return keep

    def _cut_question(self, tokenizer, question: str) -> str:
        ids = tokenizer(question, add_special_tokens=False)["input_ids"]
        if len(ids) <= MAX_QUESTION_TOKENS:
            return question
        return tokenizer.decode(ids[:MAX_QUESTION_TOKENS])

    def _window_span(self, enc, k, starts, ends, torch, text: str, question_words: set[str]):
        seq = enc.sequence_ids(k)
        ctx = [i for i, s in enumerate(seq) if s == 1]
        if not ctx:
            return None
        offsets = enc["offset_mapping"][k]
        n = len(enc["input_ids"][k])
        lo, hi = ctx[0], ctx[-1] + 1
        s_log, e_log = starts[:n], ends[:n]
        # Probabilities over this window's tokens, [CLS] included: a window that thinks
        # the answer is elsewhere gives its spans little weight.
        s_prob = torch.softmax(s_log, 0)
        e_prob = torch.softmax(e_log, 0)
        grid = s_log[lo:hi, None] + e_log[None, lo:hi]
        length = torch.arange(hi - lo)
        valid = (length[None, :] >= length[:, None]) & (
            length[None, :] - length[:, None] < MAX_ANSWER_TOKENS
        )
        grid = grid.masked_fill(~valid, -1e9).flatten()
        top = torch.topk(grid, min(self.candidates, grid.numel()))
        best = None
        for value, flat in zip(top.values.tolist(), top.indices.tolist()):
            s, e = lo + flat // (hi - lo), lo + flat % (hi - lo)
            start, end = offsets[s][0], offsets[e][1]
            # An answer rarely repeats the question: spans made of its words lose out.
            words = content_words(text[start:end]) if question_words else []
            echo = sum(w in question_words for w in words) / len(words) if words else 0.0
            score = value - self.echo_penalty * echo
            if best is None or score > best[0]:
                best = (score, start, end, float(s_prob[s] * e_prob[e]))
        return best

    def _best_sentence(self, question: str, context: _Context) -> tuple[int, int, float]:
        """Fallback: the sentence sharing the most (rare) words with the question."""
        start, end, top = best_sentence_span(question, context.text) or (0, len(context.text), 0)
        return start, end, round(min(0.5, top / (top + 5.0)), 3)

    def _deed_reply(self, ids: list[int], context: _Context, deed) -> Answer:
        text, start, end = deed
        return Answer(
            [text],
            AnswerKind.ABSTRACTIVE,
            [context.evidence(start, end)],
            explicit=False,
            confidence=DEED_CONFIDENCE,
            sections=ids,
            engine=self.name,
            note="a guess for the reader; the story tells it next",
        )

    def _reply(
        self, question: str, ids: list[int], context: _Context, span: tuple[int, int, float]
    ) -> Answer:
        start, end, prob = span
        kind = answer_kind(question)
        notes = []
        if self.fallback:
            notes.append(
                f"fallback: {self.load_error}; answers are the best-matching "
                "sentence (lower quality)"
            )
        if not is_question(question):
            notes.append("this does not read as a question; answered as a search")
        start, end = _trim(context.text, start, end)
        if kind is AnswerKind.YESNO:
            a, b = context.sentence_around(start, end)
            a, b = _trim(context.text, a, b)
            reply, polarity = yesno_reply(question, context.text[a:b])
            evidence = context.evidence(a, b)
            return Answer(
                [reply],
                kind,
                [evidence],
                explicit=False,
                confidence=round(polarity * max(prob, 0.5), 3),
                sections=ids,
                engine=self.name,
                note="; ".join(notes),
            )
        evidence = context.evidence(start, end)
        text = " ".join(evidence.text.split())  # hard-wrapped lines read as one line
        explicit = kind is AnswerKind.EXTRACTIVE and (self.fallback or prob >= EXPLICIT_FLOOR)
        shown = feeling_answer(question, text)
        if shown:
            # The evidence still points at what the character did.
            notes.append(f"the feeling is shown, not named: \u201c{text}\u201d")
            text, explicit = shown, False
        elif kind is AnswerKind.ABSTRACTIVE:
            notes.append("the answer is not stated in the text; this is the closest passage")
        return Answer(
            [text],
            kind,
            [evidence],
            explicit=explicit,
            confidence=round(prob, 3),
            sections=ids,
            engine=self.name,
            note="; ".join(notes),
        )


_EDGE = " \t\n\"'\u201c\u201d\u2018\u2019,;:-"


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop surrounding quotes, spaces and trailing punctuation from a span."""
    while start < end and text[start] in _EDGE:
        start += 1
    while end > start and text[end - 1] in _EDGE + ".!?":
        end -= 1
    return start, end


__all__ = [
    "ExtractiveAnswerer",
    "QuestionError",
    "model_present",
    "load_span_model",
    "DEFAULT_MODEL_DIR",
    "MODEL_ENV",
    "resolve_model_dir",
]
