"""Several processes opening one new SQLite database at once (a study and a reader polling it)."""

from __future__ import annotations

import multiprocessing

from vivace_lab.store import Store


def _open(url: str) -> None:
    Store(url).close()


def test_processes_creating_the_schema_at_once_all_succeed(tmp_path):
    # forked, not spawned: separate processes with connections of their own all the same, without
    # a new interpreter importing SQLAlchemy 40 times (2 minutes on a busy 2-core machine)
    context = multiprocessing.get_context("fork")
    for attempt in range(10):
        url = f"sqlite:///{tmp_path / f'new-{attempt}.db'}"
        openers = [context.Process(target=_open, args=(url,)) for _ in range(4)]
        for process in openers:
            process.start()
        for process in openers:
            process.join(120)
        assert [process.exitcode for process in openers] == [0, 0, 0, 0], f"database {attempt}"
