"""Build ``qg_studio/lang/en/wordnet_animate.txt``: nouns whose usual sense is a person, an
animal or a being of fairy tale, so that a story's "tinker", "peddler" or "heron" is someone
a "he" or "she" can mean, not only the nouns the hand-kept ``animate_nouns.txt`` names.

The source is Princeton WordNet 3.0 as Debian packs it (``wordnet-base``); only its data
files are read, so install nothing:

    apt-get download wordnet-base && dpkg -x wordnet-base_*.deb /tmp/wn
    python scripts/build_wordnet_animate.py /tmp/wn/usr/share/wordnet

A sense is someone when one of its hypernyms (``@``) is a person, an animal, an imaginary
being (a giant, a troll) or a spiritual one (a fairy, an angel); an instance (Adam, Burns)
is a name, not a noun. WordNet lists a noun's senses most frequent first, so a noun is
kept when its first sense is someone and its senses were counted in a tagged corpus, or,
uncounted, when most of its senses are someone ("heron": a bird and a Greek inventor).
"Page" (a leaf of a book before a boy servant), "tail" (an animal's part) and "star" stay
out; "cook", "fox" and "tinker" come in. A word the tagged corpus never met as a noun but
often as another part of speech ("have", "great", "tell") stays out.
"""

from __future__ import annotations

import sys
from pathlib import Path

SOMEONE = {
    "00007846": "person",
    "00015388": "animal",
    "09483738": "imaginary_being",
    "09504135": "spiritual_being",
}
ELSEWHERE = 10  # uses as a verb, an adjective or an adverb that make a noun's no use telling
OUT = Path(__file__).resolve().parents[1] / "qg_studio" / "lang" / "en" / "wordnet_animate.txt"
NOTICE = (
    "# Nouns whose usual sense in WordNet 3.0 is a person, an animal or an imaginary or\n"
    "# spiritual being; built by scripts/build_wordnet_animate.py.\n"
    "# WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved. THIS\n"
    '# SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO\n'
    "# REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT\n"
    "# LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF\n"
    "# MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE\n"
    "# LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY\n"
    "# PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS.\n"
)


def _lines(path: Path):
    with path.open(encoding="latin-1") as lines:
        yield from (line.split() for line in lines if not line.startswith("  "))


def hypernyms(data_noun: Path) -> dict[str, tuple[list[str], bool]]:
    """Synset offset → (its hypernyms' offsets, whether it is an instance)."""
    out = {}
    for fields in _lines(data_noun):
        n_words = int(fields[3], 16)
        at = 4 + 2 * n_words
        pointers = [fields[at + 1 + 4 * k : at + 3 + 4 * k] for k in range(int(fields[at]))]
        up = [offset for symbol, offset in pointers if symbol == "@"]
        out[fields[0]] = (up, any(symbol == "@i" for symbol, _ in pointers))
    return out


def uses(cntlist: Path) -> tuple[dict[str, int], dict[str, int]]:
    """Lemma → its uses in the tagged corpus as a noun, and as any other part of speech."""
    noun: dict[str, int] = {}
    other: dict[str, int] = {}
    for key, _, count in _lines(cntlist):
        lemma, sense = key.split("%")
        counts = noun if sense.startswith("1:") else other
        counts[lemma] = counts.get(lemma, 0) + int(count)
    return noun, other


def index(path: Path) -> dict[str, tuple[int, int, list[str]]]:
    """Lemma → (senses, senses counted in the tagged corpus, synset offsets)."""
    out = {}
    for fields in _lines(path):
        n_pointers = int(fields[3])
        offsets = fields[6 + n_pointers :]
        out[fields[0]] = (int(fields[2]), int(fields[5 + n_pointers]), offsets)
    return out


def main(wordnet_dir: str) -> None:
    root = Path(wordnet_dir)
    up = hypernyms(root / "data.noun")
    seen: dict[str, bool] = {}

    def someone(offset: str) -> bool:
        if offset not in seen:
            seen[offset] = False  # a cycle is no one
            parents, instance = up[offset]
            seen[offset] = not instance and (offset in SOMEONE or any(someone(p) for p in parents))
        return seen[offset]

    as_noun, as_other = uses(root / "cntlist.rev")
    kept = []
    for lemma, (_, tagged, offsets) in index(root / "index.noun").items():
        if not lemma.isalpha() or (not as_noun.get(lemma) and as_other.get(lemma, 0) >= ELSEWHERE):
            continue
        living = [someone(o) for o in offsets if not up[o][1]]
        if living and (living[0] if tagged else sum(living) * 2 > len(living)):
            kept.append(lemma)
    OUT.write_text(NOTICE + "\n".join(sorted(kept)) + "\n", encoding="utf-8")
    print(f"{len(kept)} nouns written to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
