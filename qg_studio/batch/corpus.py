"""The stories of a corpus: a folder of .txt/.docx files or a FairytaleQA-layout folder.

Each story gets a key (its path inside the corpus, or split/name) that the manifest
remembers across runs, and an output name that is the same on every run: names are
given in sorted order, so a resumed run writes each story under the name it had.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

STORY_SUFFIXES = (".txt", ".docx")


class CorpusError(ValueError):
    """A corpus that cannot be read at all (missing, empty): one line, exit status 2."""


@dataclass(frozen=True)
class StoryJob:
    key: str  # stable id in the manifest
    path: str  # the file to read (.txt/.docx), or the FairytaleQA root
    name: str  # output story name
    split: str  # output split
    kind: str = "file"  # "file" or "fairytaleqa"
    # The file's bytes, sent along where the worker may be on another machine (Ray).
    data: bytes | None = field(default=None, repr=False)

    def source_file(self) -> Path:
        """The one file a worker reads for this story."""
        if self.kind == "fairytaleqa":
            from qg_studio.data.fairytaleqa import story_path

            return story_path(self.path, self.split, self.name)
        return Path(self.path)


def is_fairytaleqa(root: Path) -> bool:
    return (root / "section-stories").is_dir()


def find_stories(corpus: str | Path, split: str | None = None) -> list[StoryJob]:
    """Every story of ``corpus`` in a stable order; ``split`` picks a FairytaleQA split,
    or names the split a folder of files is written under (default train)."""
    root = Path(corpus)
    if not root.is_dir():
        raise CorpusError(f"no such folder: {corpus}")
    jobs = (
        _fairytaleqa_jobs(root, split)
        if is_fairytaleqa(root)
        else _file_jobs(root, split or "train")
    )
    if not jobs:
        what = (
            f"no stories in {root}/section-stories/{split or '*'}"
            if is_fairytaleqa(root)
            else f"no .txt or .docx files in {root}"
        )
        raise CorpusError(what)
    return jobs


def _fairytaleqa_jobs(root: Path, split: str | None) -> list[StoryJob]:
    from qg_studio.data.fairytaleqa import story_names

    splits = (
        [split]
        if split
        else sorted(p.name for p in (root / "section-stories").iterdir() if p.is_dir())
    )
    jobs = []
    for name in splits:
        try:
            names = story_names(root, name)
        except FileNotFoundError as exc:
            raise CorpusError(str(exc)) from None
        jobs += [
            StoryJob(f"{name}/{story}", str(root), story, name, "fairytaleqa") for story in names
        ]
    return jobs


def _file_jobs(root: Path, split: str) -> list[StoryJob]:
    from qg_studio.data.fairytaleqa import safe_name
    from qg_studio.data.projects import slug

    # Top-level files first, so a story keeps its own name when a subfolder repeats it.
    files = sorted(
        (
            p
            for p in root.rglob("*")
            if p.is_file()
            and p.suffix.lower() in STORY_SUFFIXES
            and not any(part.startswith(".") for part in p.relative_to(root).parts)
        ),
        key=lambda p: (len(p.relative_to(root).parts), p.relative_to(root).as_posix()),
    )
    used: set[str] = set()
    jobs = []
    for path in files:
        stem = (
            path.stem
            if safe_name(path.stem) and path.stem == path.stem.strip()
            else slug(path.stem)
        )
        name, n = stem, 1
        while name.lower() in used:  # a.txt, a.docx, sub/a.txt: one name each
            n += 1
            name = f"{stem}-{n}"
        used.add(name.lower())
        jobs.append(StoryJob(path.relative_to(root).as_posix(), str(path), name, split))
    return jobs
