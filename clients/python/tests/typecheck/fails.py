"""Mistakes a type checker must report: each line marked `# error` (and no other)."""
from __future__ import annotations

from satchel_client import AsyncSatchel, AsyncSatchelFactory, Satchel


async def forgotten_await(s: AsyncSatchel) -> None:
    s.ping()  # error
    note = s.notes.create(title="x")
    print(note["id"])  # error


def misspelt(s: Satchel) -> None:
    s.notes.craete(title="x")  # error
    s.noets.create(title="x")  # error
    s.notes.update(id="x", ifRevison=1)  # error


def wrong_key(s: Satchel) -> None:
    print(s.notes.create(title="x")["titel"])  # error


def wrong_choice(s: Satchel) -> None:
    s.board.vote(id="x", direction="sideways")  # error


async def async_factory_is_not_started(async_satchel_factory: AsyncSatchelFactory) -> None:
    async_satchel_factory(db=3)  # error


def resync_not_handled(s: Satchel) -> None:
    for change in s.changes():
        print(change.kind)  # error
