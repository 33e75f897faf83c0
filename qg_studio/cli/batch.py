"""``qg-studio batch``: questions for every story of a corpus, as a FairytaleQA dataset."""

from __future__ import annotations

import argparse

from qg_studio.cli.common import UserError
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.cli.common import positive_int


def register(commands) -> None:
    batch = commands.top.add_parser(
        "batch",
        help="generate, answer and tag every story of a folder (resumable)",
        description="Every .txt/.docx story of CORPUS (or every story of a FairytaleQA-layout "
        "folder) into a FairytaleQA-layout dataset in --out, with a manifest. "
        "Run the same command again to finish a run that was stopped.",
    )
    batch.add_argument("corpus", help="a folder of .txt/.docx stories, or a FairytaleQA folder")
    batch.add_argument(
        "--out", required=True, help="output folder (created; resumed if a batch run made it)"
    )
    batch.add_argument(
        "--engine", default="embedded", help="question engine: embedded (default), seq2seq, or auto"
    )
    batch.add_argument("--model", default=None, help="model folder or hub id for the engine")
    how_many = batch.add_mutually_exclusive_group()
    how_many.add_argument(
        "--count", type=positive_int, default=10, help="questions per story (default 10)"
    )
    how_many.add_argument(
        "--per-section",
        type=positive_int,
        default=None,
        help="questions per section instead of per story",
    )
    batch.add_argument(
        "--implicit-share",
        type=float,
        default=0.3,
        help="share of implicit questions, 0 to 1 (default 0.3)",
    )
    batch.add_argument(
        "--answerer",
        default=None,
        help="check each question by answering it with this answerer (auto: the best one "
        "here, as generate does; default: no check)",
    )
    batch.add_argument(
        "--split",
        default=None,
        help="a FairytaleQA corpus: the split to read (default all); a folder "
        "of files: the split to write (default train)",
    )
    batch.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        help="worker processes (default: one per core) or Ray actors "
        "(default: one per CPU of the cluster)",
    )
    batch.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="run on Ray: a cluster address (ray://host:10001 or host:6379), "
        "'auto' for the cluster this machine belongs to, or 'local'",
    )
    batch.add_argument(
        "--retry-failed",
        action="store_true",
        help="try again the stories an earlier run recorded as failed",
    )
    batch.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    json_and_run(batch, cmd_batch, "end with a JSON summary line")


def cmd_batch(args: argparse.Namespace) -> int:
    from qg_studio.batch.corpus import CorpusError
    from qg_studio.batch.manifest import ManifestMismatch
    from qg_studio.batch.ray_backend import RayUnavailable
    from qg_studio.batch.runner import BatchError
    from qg_studio.batch.runner import run_batch
    from qg_studio.batch.story import BatchSettings

    if args.workers is not None and args.workers < 1:
        raise UserError("--workers must be at least 1")
    if (args.per_section or args.count or 1) < 1:
        raise UserError("ask for at least one question")
    if not 0 <= args.implicit_share <= 1:
        raise UserError("--implicit-share must be between 0 and 1")
    settings = BatchSettings(
        engine=args.engine,
        model=args.model,
        count=None if args.per_section else args.count,
        per_section=args.per_section,
        answerer=args.answerer,
        implicit_share=args.implicit_share,
    )
    try:
        summary = run_batch(
            args.corpus,
            args.out,
            settings,
            workers=args.workers,
            ray=args.ray,
            split=args.split,
            retry_failed=args.retry_failed,
            progress=not args.no_progress,
        )
    except (CorpusError, BatchError, ManifestMismatch, RayUnavailable) as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(f"cannot write to {args.out}: {exc.strerror or exc}") from None
    print(
        f"{summary['done']} of {summary['stories']} stories done, {summary['failed']} "
        f"failed, {summary['qa_pairs']} QA pairs in {args.out} ({summary['seconds']:.1f} s, "
        f"{summary['stories_per_min']:.1f} stories/min, {summary['workers']} "
        f"{summary['backend']} workers)"
    )
    _list_failures(args.out)
    return exit_with(args, summary, 1 if summary["failed"] else 0)


def _list_failures(out: str, show: int = 20) -> None:
    from qg_studio.batch.manifest import FAILED
    from qg_studio.batch.manifest import Manifest

    manifest = Manifest(out)
    try:
        failed = manifest.rows(FAILED)
    finally:
        manifest.close()
    for row in failed[:show]:
        print(f"failed: {row['key']}: {row['reason']}")
    if len(failed) > show:
        print(f"… and {len(failed) - show} more (table stories of {out}/manifest.sqlite)")
