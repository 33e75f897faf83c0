"""``qg-studio train ranker``: the learned ranker that chooses among the proposers'
candidates, and whose probability is the confidence a teacher sees."""

from __future__ import annotations

from pathlib import Path

from qg_studio.cli.common import UserError
from qg_studio.cli.common import add_setting_options
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.cli.common import settings_from

RANKER_OPTIONS = (
    ("engine", "the proposers whose candidates are ranked, joined by + (proposer+embedded)"),
    (
        "holdout_every",
        "the train stories held out from the proposer (when its adapter does not name them)",
    ),
    ("max_stories", "only this many held-out train stories (0: all)"),
    ("max_val", "only this many val stories (0: all)"),
    ("match", "a candidate this close to an expert pair (mean question/answer ROUGE-L) is a match"),
    ("c", "inverse regularisation strength of the logistic regression"),
)


def register(commands) -> None:
    from qg_studio.train.ranker import RankerSettings

    tr = commands.train.add_parser(
        "ranker",
        help="fit the learned ranker on the proposers' checked candidates for held-out "
        "train stories; resumable (candidates are kept per story)",
    )
    tr.add_argument("--data", help="a folder in the FairytaleQA layout")
    tr.add_argument(
        "--from-store",
        action="store_true",
        help="refit on your own keep and drop decisions in Curate (your projects) instead; "
        "the ranker goes to your data folder and is used from then on",
    )
    tr.add_argument(
        "--out",
        default=None,
        help="where ranker.json goes (default "
        "models/ranker, or your data folder with --from-store)",
    )
    tr.add_argument(
        "--work",
        default=None,
        help="the candidates, one file a story "
        "(default OUT-candidates); a re-run reads them instead of generating",
    )
    tr.add_argument(
        "--adapter",
        default=None,
        help="the proposer's adapter: its held-out "
        "stories, and the model the proposer engine loads",
    )
    add_setting_options(tr, RankerSettings, RANKER_OPTIONS)
    json_and_run(tr, cmd_train_ranker)


def cmd_train_ranker(args) -> int:
    from qg_studio.train.ranker import RankerSettings
    from qg_studio.train.ranker import run

    settings = settings_from(args, RankerSettings, RANKER_OPTIONS)
    if args.from_store:
        return _from_store(args, settings)
    if not args.data:
        raise UserError("give --data (a FairytaleQA folder) or --from-store")
    if not (Path(args.data) / "questions" / "train").is_dir():
        raise UserError(f"no FairytaleQA train split under {args.data}")
    try:
        figures = run(
            args.data,
            args.out or "models/ranker",
            settings,
            work=args.work,
            adapter=args.adapter,
            progress=lambda line: print(line, flush=True),
        )
    except ValueError as exc:
        raise UserError(str(exc)) from None
    val = figures["val"]
    print(
        f"ranker at {args.out}: val AUROC {val.get('auroc')} over {val['candidates']} "
        f"candidates, check below {val.get('check_below')}"
    )
    return exit_with(args, figures)


def _from_store(args, settings) -> int:
    from qg_studio.ranking.learned import user_ranker_dir
    from qg_studio.store import Store
    from qg_studio.train.ranker import refit_from_store

    out = args.out or user_ranker_dir()
    with Store() as store:
        try:
            figures = refit_from_store(store, out, settings)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    held = figures["held_out"]
    print(
        f"ranker refit on {figures['train']['candidates']} of your decisions at {out}; "
        f"on {held.get('candidates', 0)} held-out decisions AUROC {held.get('auroc')}"
    )
    return exit_with(args, figures)
