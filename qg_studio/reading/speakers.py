"""Who says a quoted sentence, so "I" and "we" in speech can be named in a question."""

from __future__ import annotations

from qg_studio.reading.animacy import PRONOUNS
from qg_studio.reading.lexicon import SPEECH_VERBS
from qg_studio.reading.mentions import Resolver
from qg_studio.reading.noun_phrases import mention_text


def speaker(resolver: Resolver, sent) -> str | None:
    """Who says a quoted sentence: the subject of "said"/"asked"/"cried" outside the
    quotes, in it or, for speech that runs on, in the sentence before."""
    doc = sent.doc
    previous = doc[sent.start - 1].sent if sent.start > 0 else None
    for span in (sent, previous):
        if span is None:
            break
        for t in span:
            if t.lemma_ not in SPEECH_VERBS or t.pos_ != "VERB" or t.i in resolver.quoted:
                continue
            # Outside the quotes only: '"Good-morning, Camel," said the Monkey' is
            # parsed with two subjects, and the called-out one is not the speaker.
            for c in t.children:
                if c.dep_ == "nsubj" and c.i not in resolver.quoted:
                    if c.lower_ in PRONOUNS:
                        return resolver.resolve(c)
                    return mention_text(list(c.subtree))
        if not any(t.i in resolver.quoted for t in span):
            break  # narration between: the speech before is someone else's
    return None
