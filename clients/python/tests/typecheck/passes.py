"""Code a type checker must accept: the documented surface, typed as it behaves."""
from __future__ import annotations

import asyncio
from datetime import datetime

from satchel_client import (
    AsyncSatchel, AsyncSatchelFactory, Change, Entity, ErrorData, Resync, Satchel, SatchelError, SatchelFactory,
)
from satchel_client.api import BoardPost, Note, RemindersListResult


def blocking(s: Satchel) -> str:
    note: Note = s.notes.create(title="x", color={"hue": 0.3, "saturation": 0.4, "brightness": 1})
    s.notes.update(id=note["id"], if_revision=note["revision"], timeout=5)
    s.notes.update(id=note["id"], ifRevision=note["revision"] + 1, deadline=None)
    s.notes.move(id=note["id"], to_index=0)
    s.notes.move(id=note["id"], toIndex=0)
    page: RemindersListResult = s.reminders.list()
    titles = [reminder["title"] for reminder in page["items"]]
    cursor: str = s.changes.subscribe(["notes"])["cursor"]
    for change in s.changes(timeout=0.1):
        if isinstance(change, Resync):
            since: str = change.since
            s.changes.since(cursor=since)
            continue
        when: datetime = change.at  # always there: an aware datetime
        entity: Entity | None = change.entity
        print(change.kind, change.id, when.tzinfo, cursor, entity["id"] if entity is not None else None)
    votes = s.board.list(sort="hot")["items"][0].get("myVote")
    s.notes.update(id=note["id"], color=note["color"])  # a colour as answered is taken back
    s.photos.add(image=s.images.upload(b"\x89PNG..."))
    s.diary.create(images=[{"path": "/tmp/a.png"}, {"data": "iVBORw0KGgo=", "mimeType": "image/png"}])
    return note["color"]["hex"] + ",".join(titles) + str(votes)


def errors(s: Satchel) -> int | None:
    try:
        s.notes.get(id="x")
    except SatchelError as error:
        data: ErrorData | None = error.data
        reason: str | None = error.reason
        print(reason, data.get("field") if data is not None else None)
        return data.get("current") if data is not None else None
    return None


async def awaited(s: AsyncSatchel) -> int:
    note = await s.notes.create(title="x")
    await s.changes.subscribe()
    async for change in s.changes(timeout=0.1):
        if isinstance(change, Change):
            seen: Change = change
            print(seen.seq)
        else:
            print(change.cursor)
    info = await s.server.info(timeout=None)
    same, post = await asyncio.gather(s.notes.get(id=note["id"]), s.board.get(id="x"))
    both: tuple[Note, BoardPost] = (same, post)
    return note["revision"] + info["schemaVersion"] + len(both)


def fixture(satchel_factory: SatchelFactory) -> Satchel:
    return satchel_factory(db="x.sqlite", args=["--locale", "ja"])


async def async_fixture(async_satchel_factory: AsyncSatchelFactory) -> int:
    async with async_satchel_factory(db="x.sqlite") as s:
        return (await s.notes.create(title="x"))["revision"]
