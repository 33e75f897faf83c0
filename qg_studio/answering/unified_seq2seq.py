"""The unified seq2seq answerer (UnifiedQA / StoryQA style) for any T5/BART checkpoint.

Input: ``kind\\nquestion\\ncontext``, lower-cased (:func:`qg_studio.models.prompts.qa_input`),
where kind is ``extractive``, ``yesno`` or ``abstractive``. The context is the given
sections, or the retrieved ones when none are given; when it is longer than the encoder
takes, only the best-matching sentences are kept (with a note), never a blind cut.
Yes/no questions are decoded as a choice between the two sequences "yes" and "no".
"""

from __future__ import annotations

import math
from typing import Sequence

from qg_studio.answer_kind import answer_kind
from qg_studio.answering import Answer
from qg_studio.answering import Answerer
from qg_studio.answering.retrieval import retrieve
from qg_studio.models.prompts import qa_input
from qg_studio.schema import AnswerKind
from qg_studio.schema import Evidence
from qg_studio.schema import Section
from qg_studio.text.evidence import best_sentence
from qg_studio.text.evidence import ranked_sentences

YES_NO = ("yes", "no")


class UnifiedSeq2SeqAnswerer(Answerer):
    """``model``: a registry name, a checkpoint folder, or a hub id."""

    name = "seq2seq"

    def __init__(self, model: str | None = None, device: str | None = None, **options):
        from qg_studio.models.seq2seq import DecodeSettings
        from qg_studio.models.seq2seq import load_for_role

        self.resolved, self.loaded = load_for_role(model, "qa", device)
        # Answers are short and may repeat the story's words: no n-gram ban.
        self.settings = DecodeSettings.from_options(
            options, ("num_beams", "batch_size", "max_new_tokens"), no_repeat_ngram_size=0
        )

    def prompt(
        self, question: str, kind: AnswerKind, sections: Sequence[Section]
    ) -> tuple[str, str]:
        """(model input, note): the sections' text, narrowed to the sentences that share
        most words with the question when the whole would not fit the encoder."""
        from qg_studio.models.seq2seq import token_lengths

        fmt = self.resolved.prompt_format
        context = " ".join(s.text for s in sections)
        text = qa_input(question, context, kind, fmt=fmt)
        limit = self.loaded.max_input_tokens
        length = token_lengths(self.loaded.tokenizer, [text])[0]
        if length <= limit:
            return text, ""
        spans = ranked_sentences(question, sections)
        budget = int(len(context.split()) * limit / length * 0.9)
        keep, words = [], 0
        for s, a, b in spans:
            n = len(s.text[a:b].split())
            if words + n > budget and keep:
                break
            keep.append((sections.index(s), a, b))
            words += n
        context = " ".join(sections[j].text[a:b] for j, a, b in sorted(keep))
        note = (
            f"the sections exceed the model's {limit}-token input; answered from the "
            f"{len(keep)} sentences closest to the question"
        )
        return qa_input(question, context, kind, fmt=fmt), note

    def answer(
        self,
        questions: Sequence[str],
        sections: Sequence[Section],
        section_ids: Sequence[Sequence[int] | None] | None = None,
        kinds: Sequence[AnswerKind | str | None] | None = None,
        title: str = "",  # the protocol's; this model reads whole-story questions itself
    ) -> list[Answer]:
        from qg_studio.models.seq2seq import generate_texts
        from qg_studio.models.seq2seq import score_targets

        questions = [" ".join(str(q).split()) for q in questions]
        by_id = {s.id: s for s in sections}
        wanted = list(section_ids) if section_ids is not None else [None] * len(questions)
        missing = [i for i, ids in enumerate(wanted) if not ids]
        if missing and sections:
            found = retrieve([questions[i] for i in missing], list(sections))
            for i, ids in zip(missing, found):
                wanted[i] = ids
        plans = []
        for i, question in enumerate(questions):
            chosen = [by_id[j] for j in (wanted[i] or []) if j in by_id] or list(sections)
            given = kinds[i] if kinds is not None and i < len(kinds) else None
            kind = AnswerKind.parse(given) if given else answer_kind(question)
            text, note = self.prompt(question, kind, chosen) if question else ("", "")
            plans.append((question, kind, chosen, text, note))

        results: list[Answer | None] = [None] * len(questions)
        yesno = [i for i, p in enumerate(plans) if p[0] and p[1] is AnswerKind.YESNO]
        free = [i for i, p in enumerate(plans) if p[0] and p[1] is not AnswerKind.YESNO]
        if yesno:
            scores = score_targets(self.loaded, [plans[i][3] for i in yesno], list(YES_NO))
            for i, (yes, no) in zip(yesno, scores):
                p_yes = 1.0 / (1.0 + math.exp(no - yes))  # the choice between the two only
                reply = "Yes" if p_yes >= 0.5 else "No"
                results[i] = self._result(plans[i], reply, max(p_yes, 1 - p_yes), spanable=False)
        if free:
            outputs = generate_texts(self.loaded, [plans[i][3] for i in free], self.settings)
            for i, (text, conf) in zip(free, outputs):
                results[i] = self._result(plans[i], text, conf, spanable=True)
        for i, p in enumerate(plans):
            if results[i] is None:  # an empty question
                results[i] = Answer(
                    answers=[],
                    answer_kind=p[1],
                    explicit=False,
                    confidence=0.0,
                    engine=self._engine(),
                    note="empty question",
                )
        return [r for r in results if r is not None]

    def _engine(self) -> str:
        return f"seq2seq:{self.resolved.name}"

    def _result(self, plan, text: str, confidence: float, spanable: bool) -> Answer:
        question, kind, chosen, _prompt, note = plan
        evidence: Evidence | None = None
        answer = text.strip()
        if spanable and answer:
            for s in chosen:
                evidence = Evidence.find(s, answer)
                if evidence:
                    answer = evidence.text  # the story's own casing, not the lower-cased output
                    break
        explicit = evidence is not None
        if evidence is None:
            # Yes/no and free answers point at the sentence that best supports them.
            evidence = best_sentence(f"{question} {answer}", chosen)
        return Answer(
            answers=[answer] if answer else [],
            answer_kind=kind,
            evidence=[evidence] if evidence else [],
            explicit=explicit,
            confidence=round(float(confidence), 4),
            sections=[s.id for s in chosen],
            engine=self._engine(),
            note=note,
        )
