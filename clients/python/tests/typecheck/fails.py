"""Mistakes a type checker must report: each line marked `# error` (and no other)."""
from __future__ import annotations

import asyncio

from satchel_client import AsyncSatchel, AsyncSatchelFactory, Change, Satchel, SatchelError


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


async def gathered_results_keep_their_types(s: AsyncSatchel) -> None:
    note, post = await asyncio.gather(s.notes.get(id="x"), s.board.get(id="y"))
    print(note["titel"])  # error
    print(post["votes"] + "")  # error


def a_colour_is_three_numbers(s: Satchel) -> None:
    s.notes.create(title="x", color={"hue": "red", "saturation": 0.4, "brightness": 1})  # error
    s.notes.update(id="x", color={"hue": 0.5, "saturation": 0.4})  # error


def an_image_input_is_one_of_its_shapes(s: Satchel) -> None:
    s.photos.add(image={"path": 3})  # error


def a_change_carries_an_entity(s: Satchel) -> None:
    for change in s.changes():
        if isinstance(change, Change) and change.entity is not None:
            print(change.entity["id"] + 1)  # error


def error_data_has_the_fields_the_server_sends(error: SatchelError) -> None:
    if error.data is not None:
        print(error.data["currnet"])  # error
