"""Time the embedded engine on a 2,000-word story: medians after warm-up, cold start, peak
memory. The same figures as ``qg-studio bench``; run it on a quiet machine:

    .venv/bin/python benchmarks/bench_generate.py [--story FILE] [--repeat 5]
"""

from __future__ import annotations

import sys

from qg_studio.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
