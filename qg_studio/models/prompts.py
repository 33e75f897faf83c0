"""The input formats of the seq2seq models: one function per format, used by training
and inference alike, so that what a model learns is exactly what it is later asked.

Question generation (``qg-control``, this project's format)::

    element: feeling | explicitness: implicit | answer: she was sad | context: <section>

``element`` and ``explicitness`` are docs/DESIGN.md's labels (the control codes); ``answer``
is the answer the question must have (answer-aware mode) and is left out when the
generator chooses freely; ``context`` is one section's text (or the ``cor_section``
texts joined by a blank line). Fields are separated by `` | ``, names are fixed, the
order is fixed, and the text keeps its case (uncased tokenizers lower it themselves).

Public QG checkpoints trained elsewhere speak other formats; ``lmqg`` is the one the
lmqg SQuAD models use: ``generate question: ... <hl> answer <hl> ...``.

Unified question answering (``storyqa``, StoryQA's prefixed UnifiedQA format)::

    extractive\\n<question>\\n<context>        (lower-cased, real newlines)

The prefix names the answer kind (``extractive``, ``yesno``, ``abstractive``). The
public UnifiedQA checkpoints were trained without the prefix and with a literal
backslash-n between spaces (``unifiedqa``); their registry entries say so.
"""

from __future__ import annotations

import re

from qg_studio.schema import AnswerKind
from qg_studio.schema import Element
from qg_studio.schema import Explicitness

QG_FORMATS = ("qg-control", "lmqg")
QA_FORMATS = ("storyqa", "unifiedqa")
HIGHLIGHT = "<hl>"
FIELD_SEPARATOR = " | "


def _clean(text: str) -> str:
    # A field separator inside a field would make the input ambiguous to the model.
    return " ".join(str(text).replace(FIELD_SEPARATOR, " , ").split())


def qg_input(
    context: str,
    element: Element | str,
    explicitness: Explicitness | str,
    answer: str | None = None,
    fmt: str = "qg-control",
) -> str:
    """The question-generation input for one target question."""
    if fmt == "lmqg":
        return lmqg_input(context, answer or "")
    if fmt != "qg-control":
        raise ValueError(
            f"unknown question-generation prompt format {fmt!r}; known: {', '.join(QG_FORMATS)}"
        )
    fields = [
        f"element: {Element.parse(element).value}",
        f"explicitness: {Explicitness.parse(explicitness).value}",
    ]
    if answer:
        fields.append(f"answer: {_clean(answer)}")
    fields.append(f"context: {_clean(context)}")
    return FIELD_SEPARATOR.join(fields)


def lmqg_input(context: str, answer: str) -> str:
    """lmqg's highlight format: the answer's first occurrence wrapped in ``<hl>``."""
    context = " ".join(context.split())
    start = context.lower().find(answer.lower()) if answer else -1
    if start < 0:
        return f"generate question: {context}"
    end = start + len(answer)
    return (
        f"generate question: {context[:start]}{HIGHLIGHT} {context[start:end]} "
        f"{HIGHLIGHT}{context[end:]}"
    )


def qa_input(
    question: str,
    context: str,
    kind: AnswerKind | str = AnswerKind.EXTRACTIVE,
    fmt: str = "storyqa",
) -> str:
    """The unified-QA input: ``kind\\nquestion\\ncontext``, lower-cased."""
    question = " ".join(str(question).split())
    context = " ".join(str(context).split())
    if fmt == "unifiedqa":
        return f"{question} \\n {context}".lower()
    if fmt != "storyqa":
        raise ValueError(f"unknown answering prompt format {fmt!r}; known: {', '.join(QA_FORMATS)}")
    return f"{AnswerKind.parse(kind).value}\n{question}\n{context}".lower()


def qa_target(answer: str) -> str:
    """Targets are lower-cased like the inputs (UnifiedQA's convention)."""
    return " ".join(str(answer).split()).lower()


# Frozen with the trained models, not the text layer's rule (qg_studio.text.sentences):
# the shipped adapters were trained on windows cut, and words matched, by exactly these,
# so training and inference must keep cutting alike. Change them only with a retraining.
TRAINING_SENTENCE_BREAK = re.compile(r"(?:(?<=[.!?])|(?<=[.!?][\"'”’)]))\s+|\n+")
TRAINING_WORD = re.compile(r"\w+")


def answer_window(context: str, answer: str | None, max_words: int | None) -> str:
    """The sentences around the answer, at most ``max_words`` words (None: all of it).

    Used identically by training and inference when a model was trained on short
    windows (its ``qg_studio.json`` says ``context_words``): the sentence holding the
    answer (or, for an implicit answer, sharing most words with it), then its
    neighbours, nearest first.
    """
    if not max_words or len(context.split()) <= max_words:
        return context
    sentences = [s for s in TRAINING_SENTENCE_BREAK.split(context) if s and s.strip()]
    if not sentences:
        return context
    wanted = set(TRAINING_WORD.findall((answer or "").lower()))
    found = [i for i, s in enumerate(sentences) if answer and answer.lower() in s.lower()]
    if found:
        centre = found[0]
    else:
        centre = max(
            range(len(sentences)),
            key=lambda i: len(wanted & set(TRAINING_WORD.findall(sentences[i].lower()))),
        )
    chosen, words = {centre}, len(sentences[centre].split())
    left, right = centre - 1, centre + 1
    while left >= 0 or right < len(sentences):
        for i in (right, left):
            if 0 <= i < len(sentences) and i not in chosen:
                size = len(sentences[i].split())
                if words + size > max_words:
                    left, right = -1, len(sentences)  # stop: the next one does not fit
                    break
                chosen.add(i)
                words += size
        left, right = left - 1, right + 1
    return " ".join(sentences[i].strip() for i in sorted(chosen))


# -- the causal LM (SmolLM2): the same inputs, then a cue the model continues -------------

# "qag" (the proposer) writes a question and then its answer, with no answer given: its
# prompt has no ``answer:`` field, and its target is ``<question>\nanswer: <answer>``.
LM_CUES = {"qg": "\nquestion:", "qa": "\nanswer:", "qag": "\nquestion:"}
QAG_ANSWER_MARK = "\nanswer:"
QG_WINDOW_WORDS = 70  # the words around the answer a question is written from
QA_WINDOW_WORDS = 120  # the answerer reads the sentences nearest the question, not a whole section
# The proposer reads a section in consecutive pieces of at most this many words: short
# enough to train cheaply on two cores, long enough to hold a scene's cause and effect.
QAG_WINDOW_WORDS = 90


def as_question(text: str) -> str:
    """The first line, capitalised, ending in one question mark."""
    text = text.strip().split("\n")[0].strip()
    if not text:
        return "?"  # an untrained adapter can stop at once; the item stays visible, flagged
    text = text[0].upper() + text[1:]
    return text if text.endswith("?") else text.rstrip(".!,;: ") + "?"


def lm_prompt(source: str, role: str) -> str:
    """A decoder reads the seq2seq input followed by a cue naming what it writes next;
    the target follows the cue after one space and ends with the end-of-text token."""
    return source + LM_CUES[role]


def question_window(context: str, question: str, max_words: int | None = QA_WINDOW_WORDS) -> str:
    """The sentences that share most content words with the question, and their
    neighbours: what the answerer reads, at training and answering alike (the answer
    is unknown when answering, so the window is built from the question)."""
    from qg_studio.text.words import stop_words

    stop = stop_words()  # spaCy's, unchanged: the windows trained on used it
    content = " ".join(w for w in TRAINING_WORD.findall(question.lower()) if w not in stop)
    return answer_window(context, content or question, max_words)


def lm_qg_prompt(
    context: str,
    answer: str,
    element: Element | str,
    explicitness: Explicitness | str,
    window: int | None = QG_WINDOW_WORDS,
) -> str:
    """What the decoder reads to write a question (training and the engine alike)."""
    return lm_prompt(
        qg_input(answer_window(context, answer, window), element, explicitness, answer), "qg"
    )


def lm_qa_prompt(
    question: str, context: str, kind: AnswerKind | str, window: int | None = QA_WINDOW_WORDS
) -> str:
    """What the decoder reads to answer a question (training and the answerer alike)."""
    return lm_prompt(qa_input(question, question_window(context, question, window), kind), "qa")


def reading_windows(context: str, max_words: int = QAG_WINDOW_WORDS) -> list[str]:
    """A section cut into consecutive pieces of whole sentences, at most ``max_words``
    words each (a longer sentence is a piece alone): what the proposer reads, one piece
    per prompt, at training and inference alike."""
    sentences = [s.strip() for s in TRAINING_SENTENCE_BREAK.split(context) if s and s.strip()]
    pieces: list[list[str]] = []
    size = 0
    for sentence in sentences:
        words = len(sentence.split())
        if pieces and size + words <= max_words:
            pieces[-1].append(sentence)
            size += words
        else:
            pieces.append([sentence])
            size = words
    return [" ".join(p) for p in pieces]


def window_of(context: str, question: str, answer: str, max_words: int = QAG_WINDOW_WORDS) -> str:
    """The reading window an expert pair belongs to: the one holding its answer, else the
    one sharing most words with the answer, then with the question."""
    windows = reading_windows(context, max_words)
    if not windows:
        return context
    for window in windows:
        if answer and answer.lower() in window.lower():
            return window

    def overlap(window: str) -> tuple[int, int]:
        words = set(TRAINING_WORD.findall(window.lower()))
        return (
            len(words & set(TRAINING_WORD.findall(answer.lower()))),
            len(words & set(TRAINING_WORD.findall(question.lower()))),
        )

    return max(windows, key=overlap)


def lm_qag_prompt(window: str, element: Element | str, explicitness: Explicitness | str) -> str:
    """What the proposer reads: a reading window and the element and explicitness wanted."""
    return lm_prompt(qg_input(window, element, explicitness), "qag")


def qag_target(question: str, answer: str) -> str:
    return " ".join(question.split()) + QAG_ANSWER_MARK + " " + " ".join(answer.split())


def parse_qag(text: str) -> tuple[str, str] | None:
    """(question, answer) from what the proposer wrote, or None when it wrote no answer."""
    question, mark, answer = text.partition(QAG_ANSWER_MARK)
    question, answer = " ".join(question.split()), " ".join(answer.split())
    if not mark or not question or not answer:
        return None
    return question, answer
