"""Many sessions writing to one project at once: no errors, no acknowledged write lost.

Threads share one Store (as the app's browser sessions do); processes each open their
own (as two app servers, or the app and the CLI, would). Every worker counts the writes
the store acknowledged, and the final state must hold every one of them.
"""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest

from qg_studio.schema import QAItem
from qg_studio.schema import Section
from qg_studio.store import StaleEditError
from qg_studio.store import Store

THREADS, PROCESSES, SAVES = 4, 3, 60


def _item(question: str) -> QAItem:
    return QAItem(
        question=question,
        answers=["Elsa"],
        element="character",
        explicitness="explicit",
        sections=[1],
    )


def _save_items(store: Store, story_id: int, tag: str, n: int) -> tuple[int, list[str]]:
    """Add then edit ``n`` items; returns (errors, the questions acknowledged)."""
    errors, acknowledged = 0, []
    for i in range(n):
        try:
            [item_id] = store.add_items(story_id, [_item(f"{tag} draft {i}?")], actor=tag)
            store.update_item(item_id, tag, question=f"{tag} final {i}?")
            acknowledged.append(f"{tag} final {i}?")
        except Exception:  # noqa: BLE001 - counted, and the test asserts there are none
            errors += 1
    return errors, acknowledged


def _start_together(start_at: float) -> None:
    """Processes start at different moments; they write at the same time only if told."""
    time.sleep(max(0.0, start_at - time.time()))


def _process_items(
    path: str, story_id: int, tag: str, n: int, start_at: float = 0
) -> tuple[int, list[str]]:
    with Store(path) as store:
        _start_together(start_at)
        return _save_items(store, story_id, tag, n)


def _process_settings(path: str, project_id: int, tag: str, n: int, start_at: float = 0) -> int:
    with Store(path) as store:
        _start_together(start_at)
        for i in range(n):
            store.update_settings(project_id, **{f"{tag}-{i}": i})
    return n


def _process_sections(
    path: str, story_id: int, section_id: int, n: int, start_at: float = 0
) -> tuple[int, int]:
    """Append n words to one section, each against the version just read, retrying when
    someone else saved first; returns (saves acknowledged, refusals seen)."""
    saved = refused = 0
    with Store(path) as store:
        _start_together(start_at)
        while saved < n:
            story = store.get_story(story_id)
            sections = [
                Section(s.id, s.text + (f" w{section_id}x{saved}" if s.id == section_id else ""))
                for s in story.sections
            ]
            try:
                store.replace_sections(story_id, sections, expected_version=story.version)
                saved += 1
            except StaleEditError:
                refused += 1
    return saved, refused


def _pool(n: int):
    return multiprocessing.get_context("spawn").Pool(n)


@pytest.fixture
def story(tmp_path):
    path = tmp_path / "shared.sqlite3"
    with Store(path) as store:
        project = store.create_project("Class 4B")
        story_id = store.add_story(
            project,
            "The Mill",
            "A.\n\nB.\n\nC.",
            [Section(1, "A."), Section(2, "B."), Section(3, "C.")],
        )
    return path, project, story_id


def test_threads_sharing_one_store_lose_nothing(story):
    path, _, story_id = story
    store = Store(path)
    results: list[tuple[int, list[str]]] = []
    workers = [
        threading.Thread(
            target=lambda t=t: results.append(_save_items(store, story_id, f"thread{t}", SAVES))
        )
        for t in range(THREADS)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    errors = sum(e for e, _ in results)
    acknowledged = [q for _, done in results for q in done]
    stored = {i.question for i in store.list_items(story_id)}
    assert errors == 0
    assert len(acknowledged) == THREADS * SAVES
    assert set(acknowledged) - stored == set()  # 0 lost
    assert len(stored) == THREADS * SAVES


def test_processes_and_threads_on_one_project_lose_nothing(story):
    path, _, story_id = story
    with _pool(PROCESSES) as pool:
        start_at = time.time() + 3  # after every process has started
        pending = [
            pool.apply_async(_process_items, (str(path), story_id, f"proc{p}", SAVES, start_at))
            for p in range(PROCESSES)
        ]
        _start_together(start_at)
        # ...while this process's threads write to the same story too.
        local = Store(path)
        results = []
        threads = [
            threading.Thread(
                target=lambda t=t: results.append(_save_items(local, story_id, f"thread{t}", SAVES))
            )
            for t in range(2)
        ]
        for t in threads:
            t.start()
        results += [p.get(timeout=300) for p in pending]
        for t in threads:
            t.join()
    acknowledged = [q for _, done in results for q in done]
    stored = [i.question for i in local.list_items(story_id)]
    assert sum(e for e, _ in results) == 0
    assert len(acknowledged) == (PROCESSES + 2) * SAVES
    assert sorted(stored) == sorted(acknowledged)


def test_settings_written_by_two_processes_are_all_kept(story):
    path, project, _ = story
    with _pool(2) as pool:
        start_at = time.time() + 3
        done = pool.starmap(
            _process_settings,
            [(str(path), project, tag, 150, start_at) for tag in ("alice-tab", "bob-tab")],
        )
    settings = Store(path).get_project(project).settings
    assert sum(done) == 300
    assert (
        sum(
            1
            for key in settings
            if key.endswith(tuple(f"-{i}" for i in range(150)))
            and key.split("-")[0] in ("alice", "bob")
        )
        == 300
    )


def test_section_edits_from_two_processes_all_survive(story):
    path, _, story_id = story
    with _pool(2) as pool:
        start_at = time.time() + 3
        results = pool.starmap(
            _process_sections, [(str(path), story_id, s, 40, start_at) for s in (1, 2)]
        )
    sections = {s.id: s.text for s in Store(path).get_story(story_id).sections}
    for section_id in (1, 2):
        words = sections[section_id].split()[1:]
        assert words == [f"w{section_id}x{i}" for i in range(40)]  # 0 lost, in order
    assert sections[3] == "C."
    assert Store(path).get_story(story_id).version == 1 + sum(s for s, _ in results)


def test_connections_of_finished_threads_are_closed(story):
    """Each Streamlit script run is a thread of its own; a server runs for months."""
    path, project, _ = story
    store = Store(path)
    for _ in range(50):
        worker = threading.Thread(target=store.get_project, args=(project,))
        worker.start()
        worker.join()
    store.get_project(project)
    assert len(store._connections.opened) <= 2
