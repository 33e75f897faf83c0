"""Print check: the worksheet converts to PDF with LibreOffice headless, page images to look at.

    .venv/bin/python benchmarks/worksheet_pdf.py [STORY.txt] [--paper a4|letter]
        [--questions-only] [--show-element] [--out DIR] [--repeat N]

Sections the story, generates 10 questions with the embedded engine, writes the worksheet,
converts it with ``soffice --headless --convert-to pdf`` and renders every page to PNG
with ``pdftoppm -png -r 60``. Prints the page count and the median conversion time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from qg_studio.export import export_story  # noqa: E402
from qg_studio.export.pdf import to_pdf  # noqa: E402
from qg_studio.export.worksheet import WorksheetOptions  # noqa: E402


def story_and_items(path: Path):
    from qg_studio.pipeline import generate_items
    from qg_studio.schema import GenerationRequest
    from qg_studio.story import parse_story
    from qg_studio.story import section_story

    text = path.read_text(encoding="utf-8")
    sections = section_story(text)
    items = generate_items(sections, GenerationRequest(count=10), use_embeddings=False)
    return parse_story(text).title or path.stem, sections, items


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("story", nargs="?", default=str(ROOT / "tests/fixtures/miller_and_fox.txt"))
    parser.add_argument("--paper", choices=["a4", "letter"], default="a4")
    parser.add_argument("--questions-only", action="store_true")
    parser.add_argument("--show-element", action="store_true")
    parser.add_argument("--out", default="worksheet-pdf")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    title, sections, items = story_and_items(Path(args.story))
    result = export_story(
        "xlsx",
        title,
        sections,
        items,
        worksheet=WorksheetOptions(
            paper=args.paper,
            questions_only=args.questions_only,
            show_element=args.show_element or None,
        ),
    )
    xlsx = out / result.filename
    xlsx.write_bytes(result.data)
    times = []
    for _ in range(max(args.repeat, 1)):
        start = time.perf_counter()
        pdf = to_pdf(xlsx, out)
        times.append(time.perf_counter() - start)
    pages = []
    if shutil.which("pdftoppm"):
        subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(out / "page")], check=True)
        pages = sorted(out.glob("page-*.png"))
    print(f"{len(sections)} sections, {len(items)} questions -> {xlsx}")
    print(f"pdf: {pdf} ({pdf.stat().st_size:,} bytes), {len(pages)} page image(s) in {out}")
    print(f"soffice conversion median {statistics.median(times):.2f} s over {len(times)} run(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
