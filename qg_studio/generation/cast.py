"""Who a story is about: its main characters, the subjects of its clauses counted with
each pronoun for the character it stands for, those its title names first.

Apart from the story-level questions that ask about them, so the counting can be read
and tested on its own.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Sequence

from qg_studio import lang
from qg_studio.reading.analysis import Analysis
from qg_studio.reading.animacy import ANIMATE
from qg_studio.reading.animacy import is_someone
from qg_studio.reading.clauses import usable
from qg_studio.reading.lexicon import SAYING_VERBS
from qg_studio.reading.lexicon import TELLING_APART
from qg_studio.reading.noun_phrases import name_word
from qg_studio.reading.noun_phrases import one_of_many
from qg_studio.text.parse import get_nlp

PEOPLE_GROUPS = lang.words("people_groups.txt")  # "the two children", "the brothers"
# Words a title joins its characters with ("The Fox Who Lost His Tail").
TITLE_LINKS = ("and", "or", "who", "that", "which", "of", "in", "at", "on", "with", "the", "a")
COUNTING = lang.function_words("counting")  # in order: "two" is the second
PEOPLE = ("children", "men", "women", "people", "geese", "mice")  # plurals not made with -s


def main_characters(analyses: Sequence[Analysis], title: str = "") -> list[str]:
    """The story's characters, those the title names first (in its order), then the most
    talked about: subjects of clauses, with each pronoun counted for the character it
    stands for."""
    counts: Counter = Counter()
    first: dict[str, str] = {}
    heads: dict[str, tuple[str, bool]] = {}  # key -> (head lemma, plural)
    # "A white goat came to one end just as a brown goat came to the other": two mentions
    # that act in one sentence are two characters, whatever their head noun.
    apart: set[frozenset[str]] = set()
    # "'Look at me,' the lamp said": a thing given a voice is a character of the story.
    voiced = {
        t.lemma_.lower()
        for a in analyses
        for t in a.doc
        if t.dep_ == "nsubj" and t.pos_ in ("NOUN", "PROPN") and t.head.lemma_ in SAYING_VERBS
    }
    for analysis in analyses:
        for clause_list in analysis.sentence_clauses:
            acting: set[str] = set()
            for clause in clause_list:
                head = clause.subject_head
                if head is None or not usable(clause) or clause.head.i in analysis.quoted:
                    continue
                if (
                    not is_someone(head)
                    and clause.subject_text != "the narrator"
                    and not analysis.resolver.is_character(head)
                    and head.lemma_.lower() not in voiced
                    and head.text not in analysis.resolver.names
                ):
                    continue
                name = clause.subject_text
                if len(name.split()) > 4:
                    continue
                key = character_key(name)
                counts[key] += 1
                first.setdefault(key, name)
                heads.setdefault(key, (head.lemma_.lower(), head.tag_ in ("NNS", "NNPS")))
                acting.add(key)
            apart.update(frozenset((a, b)) for a in acting for b in acting if a != b)
    # "the old woodcutter" and later "the woodcutter" are one character, as are "Nell" and
    # "Nell Greenhood"; "the First Knight" and "the Second Knight" are two, so "the
    # knight" joins neither.
    for short in sorted(counts, key=lambda k: len(k.split())):
        if short not in counts:
            continue
        words = set(short.split())
        longer = [k for k in counts if k != short and words < set(k.split())]
        if len(longer) == 1:
            counts[short] += counts.pop(longer[0])
            first[short] = first[longer[0]]
    cast: list[str] = []
    for key, _ in counts.most_common():
        if counts[key] < 2:
            break
        # "the boy" and "the lovely boy", "Tam" and "poor Tam": one character
        # named two ways, not the story's two main characters.
        # A name is one someone however often the parse sets it beside itself ("Tinker
        # Bram" and "Bram").
        if not any(
            _one_named_twice(key, other)
            and (frozenset((key, other)) not in apart or _one_name(first[key], first[other]))
            for other in cast
        ):
            cast.append(key)
    # "the two hens" beside "the speckled hen" and "the brown hen": both of them, no third.
    members = Counter(heads[k][0] for k in cast if not heads[k][1])
    cast = [k for k in cast if not (heads[k][1] and members[heads[k][0]] >= 2)]
    # "Ravi and his little sister Mei … the two children": the children are those two.
    names = [k for k in cast if not heads[k][1] and name_word(first[k])]
    if len(names) >= 2:
        # "Two millers lived …, Bram … and Hesper": a group counted as many as the names
        # is those named, whatever it is called.
        counted = COUNTING[len(names) - 1] if len(names) <= len(COUNTING) else ""
        cast = [
            k
            for k in cast
            if not (heads[k][1] and (heads[k][0] in PEOPLE_GROUPS or counted in k.split()))
        ]
    # "the three sparrows" and "the two older sparrows": one flock, told of the most.
    flocks: set[str] = set()
    for key in list(cast):
        head, plural = heads[key]
        if plural and head in flocks:
            cast.remove(key)
        elif plural:
            flocks.add(head)
    # "The Cat Who Kept the Light" names "a grey cat called Smudge": Smudge.
    given = {name.lower(): noun for a in analyses for noun, name in a.resolver.aliases.items()}
    named = {k: named_at(k, title) for k in cast}
    named = {
        k: at if at is not None else named_at(given.get(k, ""), title) for k, at in named.items()
    }
    cast.sort(key=lambda k: named[k] if named[k] is not None else len(title) + 1)
    return [first[k] for k in cast]


def _one_named_twice(a: str, b: str) -> bool:
    """Whether two mentions' keys name one character: the same head noun, or the words of
    one within the other's, unless a word tells them apart ("the second knight")."""
    x, y = a.split(), b.split()
    if not x or not y or TELLING_APART & (set(x) ^ set(y)):
        return False
    return x[-1] == y[-1] or set(x) <= set(y) or set(y) <= set(x)


def _one_name(a: str, b: str) -> bool:
    last_a, last_b = a.split()[-1], b.split()[-1]
    return last_a == last_b and last_a[:1].isupper()


def named_at(key: str, title: str) -> int | None:
    """Where the title names a character by its head noun ("goat" of "the old goat"), or
    None: a fable's or folk tale's title most often names its main characters."""
    head = key.split()[-1] if key else ""
    if key == "narrator":  # "My Grandmother's Goat": the one telling it
        mine = re.search(r"\b(?:my|our)\b", title.lower())
        return mine.start() if mine else None
    found = re.search(rf"\b{re.escape(head)}\b", title.lower()) if head else None
    if found is None:
        return None
    # "The Kite Contest", "The Goose Girl": a word that names what the next one is; not
    # one a verb follows ("Why the Rooster Calls the Sun").
    after = title[found.end() :].split()
    if (
        after
        and after[0][:1].isupper()
        and after[0].lower() not in TITLE_LINKS
        and after[0].lower() not in title_verbs(title)
    ):
        return None
    # "The Miller's Two Sons" is about the sons: a possessor gives way to the people it
    # owns ("The Emperor's New Clothes" is still the emperor's).
    owned = re.match(
        r"'s\s+([\w\s]*?\w)(?:\s+(?:and|or|who|of)\b|[^\w\s]|$)", title.lower()[found.end() :]
    )
    if owned and _someone_word(owned.group(1).split()[-1]):
        return None
    return found.start()


@lru_cache(maxsize=256)
def title_verbs(title: str) -> frozenset[str]:
    """The words a title says as verbs, read in lower case, where its capitals do not make
    every word look like a name ("calls" of "Why the Rooster Calls the Sun")."""
    return frozenset(t.text for t in get_nlp()(title.lower()) if t.pos_ in ("VERB", "AUX"))


def _someone_word(word: str) -> bool:
    return word in ANIMATE or one_of_many(word) in ANIMATE or word in PEOPLE


def character_key(name: str) -> str:
    return re.sub(r"^(the|a|an)\s+", "", name.lower()).strip()
