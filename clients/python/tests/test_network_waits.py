"""A call that waits on the server's network (``messages.loadMore``) is answered after later calls: the
client matches answers by id, and cancels such a call on the server when its caller gives up on it."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest

from satchel_client import AsyncSatchel, InvalidRequest


def test_a_write_is_answered_while_a_load_waits_on_the_feed(satchel_factory, slow_feed):
    feed = slow_feed(1.5)
    s = satchel_factory(args=["--messages-feed", feed.url], timeout=10)
    loaded: list[dict] = []
    load = threading.Thread(target=lambda: loaded.append(s.messages.loadMore(limit=2)))
    started = time.monotonic()
    load.start()
    time.sleep(0.2)  # the load is in flight
    assert s.notes.create(title="meanwhile")["title"] == "meanwhile"
    assert time.monotonic() - started < 1.2, "the write did not wait for the feed"
    assert not loaded
    load.join(10)
    assert [m["text"] for m in loaded[0]["items"]] == ["one", "two"]


def test_a_line_the_server_cannot_read_is_not_taken_for_the_load_in_flight(satchel_factory, slow_feed):
    feed = slow_feed(1.0)
    s = satchel_factory(args=["--messages-feed", feed.url, "--max-message-bytes", "4096"], timeout=10)
    loaded: list[dict] = []
    load = threading.Thread(target=lambda: loaded.append(s.messages.loadMore(limit=2)))
    load.start()
    time.sleep(0.2)
    # Too long for the server to read: answered with id null, which belongs to this call, not the load.
    with pytest.raises(InvalidRequest):
        s.notes.create(title="x" * 5000)
    load.join(10)
    assert [m["text"] for m in loaded[0]["items"]] == ["one", "two"]


def test_a_blocking_call_that_times_out_is_cancelled_on_the_server(satchel_factory, slow_feed):
    feed = slow_feed(1.0)
    s = satchel_factory(args=["--messages-feed", feed.url])
    with pytest.raises(TimeoutError):
        s.messages.loadMore(limit=2, timeout=0.3)
    time.sleep(1.0)  # past the feed's answer: nothing of it is stored
    assert s.messages.list()["items"] == []
    assert len(s.messages.loadMore(limit=2)["items"]) == 2


def test_async_answers_by_id_and_a_cancelled_task_cancels_the_load(slow_feed):
    feed = slow_feed(1.0)

    async def main():
        async with AsyncSatchel(memory=True, args=["--messages-feed", feed.url], timeout=10) as s:
            load = asyncio.ensure_future(s.messages.loadMore(limit=2))
            write = asyncio.ensure_future(s.notes.create(title="meanwhile"))
            done, _ = await asyncio.wait({load, write}, return_when=asyncio.FIRST_COMPLETED)
            assert done == {write}
            assert [m["text"] for m in (await load)["items"]] == ["one", "two"]

            task = asyncio.ensure_future(s.messages.loadMore(limit=2))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert await s.ping() == {}
            await asyncio.sleep(1.0)  # past the feed's answer: the cancelled load stored nothing
            assert len((await s.messages.list())["items"]) == 2

    asyncio.run(main())
