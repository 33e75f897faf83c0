"""``qg-studio export``: a saved project or a ``generate --json`` result → worksheet or quiz."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from qg_studio.cli.common import UserError
from qg_studio.cli.common import exit_with
from qg_studio.cli.common import json_and_run

ABOUT = (
    "Export the questions of a saved project (name or id) or of the JSON that "
    "`qg-studio generate --json` prints. Dropped questions are never exported."
)


def register(commands) -> None:
    from qg_studio.export import FORMATS

    parser = commands.top.add_parser(
        "export", help="write a worksheet (Excel) or a quiz for a platform", description=ABOUT
    )
    parser.add_argument(
        "source",
        metavar="PROJECT_OR_JSON",
        help="a project name or id, or a .json file ('-' reads stdin)",
    )
    parser.add_argument(
        "--format",
        required=True,
        choices=list(FORMATS),
        help="xlsx is the printable worksheet with answer key",
    )
    parser.add_argument(
        "--out",
        required=True,
        help="the file to write, exactly as named; or a folder, to write "
        "the file named after the title in it",
    )
    parser.add_argument(
        "--paper",
        choices=["a4", "letter"],
        default=None,
        help="worksheet paper size (default: the template's)",
    )
    parser.add_argument(
        "--questions-only", action="store_true", help="worksheet without the story text"
    )
    parser.add_argument(
        "--show-element",
        action="store_true",
        help="show each question's narrative element on the worksheet",
    )
    parser.add_argument(
        "--kept-only",
        action="store_true",
        help="only questions the teacher marked kept (default: all not dropped)",
    )
    parser.add_argument(
        "--template",
        default=None,
        help="a worksheet layout file (default templates/worksheet.toml)",
    )
    parser.add_argument(
        "--title",
        default=None,
        help="worksheet/quiz title (default: the story's title, or the file name)",
    )
    parser.add_argument(
        "--answerer",
        default="auto",
        help="a quiz's wrong options are checked against what this answerer replies, so "
        "none is a right answer (default auto: the best one here; 'none': the key only)",
    )
    json_and_run(parser, cmd_export, "print a JSON summary last")


# A set of a 30,000-word story, its sections included, is about 2 MB of JSON.
MAX_SET_BYTES = 16 * 2**20


def load_source(source: str):
    """(title, sections, items) from a JSON file/stdin or a project in the store."""
    from qg_studio.export.payload import PayloadError
    from qg_studio.export.payload import read_set

    path = Path(source)
    if source == "-" or path.suffix.lower() == ".json" or path.is_file():
        too_big = UserError(
            f"{source} is over {MAX_SET_BYTES // 2**20} MB: not a question set "
            "(expected the last line of `qg-studio generate --json`)"
        )
        try:
            if source == "-":
                data = sys.stdin.buffer.read(MAX_SET_BYTES + 1)  # never more than the limit
            else:
                if path.exists() and not path.is_file():
                    raise UserError(f"{source} is not a regular file (a folder, device or pipe)")
                if path.is_file() and path.stat().st_size > MAX_SET_BYTES:
                    raise too_big  # measured, not read
                data = path.read_bytes()
        except OSError as exc:
            raise UserError(f"cannot read {source}: {exc.strerror or exc}") from None
        if len(data) > MAX_SET_BYTES:
            raise too_big
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise UserError(
                f"{source} is not UTF-8 text (byte {exc.start}); save the "
                "question set as UTF-8 JSON"
            ) from None
        payload = _last_json_object(text, source)
        try:
            return read_set(payload, path.stem if source != "-" else "Story")
        except PayloadError as exc:
            raise UserError(f"{source}: {exc}") from None

    from qg_studio.store import Store
    from qg_studio.store import StoreError

    with Store() as store:
        try:
            project = store.find_project(source)
        except StoreError as exc:
            raise UserError(f"{exc} (and no file {source!r})") from None
        story = store.latest_story(project.id)
        if story is None:
            raise UserError(f"project {project.name!r} has no story yet")
        return story.title or project.name, story.sections, store.list_items(story.id)


def _last_json_object(text: str, source: str) -> dict:
    """The whole text as JSON, else its last line (generate's stdout may precede it)."""
    for candidate in [text, *reversed([ln for ln in text.splitlines() if ln.strip()])]:
        try:
            value = json.loads(candidate)
        except json.JSONDecodeError:
            continue
        except RecursionError:
            raise UserError(f"{source} is nested too deeply to be a question set") from None
        if isinstance(value, dict):
            return value
    raise UserError(
        f"{source} holds no JSON object (expected the last line of `qg-studio generate --json`)"
    )


def _answerer(args):
    """The answerer that checks a quiz's wrong options; a worksheet has none to check."""
    from qg_studio.services.answers import answerer_named

    return None if args.format == "xlsx" else answerer_named(args.answerer)


def cmd_export(args) -> int:
    from qg_studio.export import export_story
    from qg_studio.export.worksheet import WorksheetOptions
    from qg_studio.paths import output_file
    from qg_studio.paths import write_file

    title, sections, items = load_source(args.source)
    title = args.title or title
    if not items:
        raise UserError(f"{args.source} has no questions to export")
    options = WorksheetOptions(
        paper=args.paper,
        questions_only=args.questions_only,
        show_element=True if args.show_element else None,
        template=args.template,
    )
    try:
        result = export_story(
            args.format,
            title,
            sections,
            items,
            kept_only=args.kept_only,
            worksheet=options,
            answerer=_answerer(args),
        )
    except (OSError, ValueError) as exc:
        raise UserError(str(exc)) from None
    try:
        out = write_file(output_file(args.out, result.filename), result.data)
    except OSError as exc:
        raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    report = result.report
    print(f"wrote {out} ({args.format}): {report.written} question(s)")
    for warning in report.warnings():
        print(f"warning: {warning}", file=sys.stderr)
    return exit_with(args, {"out": str(out), "format": args.format, **report.to_dict()})
