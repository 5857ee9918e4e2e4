"""A server that stops reading, an unreadable notification, a handler that calls back, a batch refused as a
whole: the client stays in control, in both flavours."""
from __future__ import annotations

import asyncio
import gc
import logging
import signal
import time

import pytest

from processes import children
from satchel_client import AsyncSatchel, InvalidRequest, Satchel

BIG = "x" * (1 << 20)  # far more than a pipe holds

# Answers the client's first ping once it has set itself up, then reads nothing more and ignores SIGTERM.
DEAF = """
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    answer(json.loads(sys.stdin.readline()), {})
    time.sleep(60)
"""


def test_a_call_to_a_server_that_stopped_reading_times_out_and_close_ends_it(stand_in):
    s = Satchel(stand_in(DEAF), timeout=1)
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        s.call("write", {"text": BIG})
    with pytest.raises(TimeoutError):
        s.call("again")
    assert time.monotonic() - started < 5
    s.close(grace=0.3)
    assert time.monotonic() - started < 10
    assert s.returncode == -signal.SIGKILL and s.pid not in children()


def test_the_same_with_the_asyncio_client(stand_in):
    async def main():
        s = await AsyncSatchel(stand_in(DEAF), timeout=1).start()
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            await s.call("write", {"text": BIG})
        with pytest.raises(TimeoutError):
            await s.call("again")
        await s.close(grace=0.3)
        assert time.monotonic() - started < 10
        return s

    s = asyncio.run(main())
    assert s.returncode == -signal.SIGKILL and s.pid not in children()


def test_a_close_that_is_interrupted_still_ends_the_server(stand_in):
    async def main():
        s = await AsyncSatchel(stand_in(DEAF), timeout=1).start()
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(s.close(grace=5), 0.3)
        await s.close()  # the second close has nothing left to do
        return s

    s = asyncio.run(main())
    for _ in range(50):
        if s.pid not in children():
            break
        time.sleep(0.1)
    assert s.pid not in children()


def test_cancelling_one_waiting_call_leaves_the_others_alone(stand_in):
    slow_reader = stand_in("""
        answer(json.loads(sys.stdin.readline()), {})  # the client's first ping
        time.sleep(1.0)
        for line in sys.stdin:
            request = json.loads(line)
            if 'id' in request:
                answer(request, {'method': request['method']})
    """)

    async def main():
        async with AsyncSatchel(slow_reader, timeout=10) as s:
            first = asyncio.ensure_future(s.call("first", {"text": BIG}))
            second = asyncio.ensure_future(s.call("second", {"text": BIG}))
            await asyncio.sleep(0.2)
            first.cancel()
            assert await second == {"method": "second"}
            assert await s.call("third") == {"method": "third"}
            assert first.cancelled()

    asyncio.run(main())


def test_an_unreadable_notification_does_not_take_the_next_answer(satchel_factory, caplog):
    s = satchel_factory(args=["--max-message-bytes", "1000"])
    s.notify("notes.create", {"title": "x" * 5000})
    assert s.ping() == {}
    assert s.notes.create(title="fits")["title"] == "fits"
    assert any("could not read a notification" in r.getMessage() for r in caplog.records)

    async def main():
        async with AsyncSatchel(memory=True, args=["--max-message-bytes", "1000"]) as a:
            await a.notify("notes.create", {"title": "x" * 5000})
            assert await a.ping() == {}

    asyncio.run(main())


def test_a_handler_that_calls_the_client_gets_a_clear_error_instead_of_a_deadlock(stand_in):
    server = stand_in("""
        for line in sys.stdin:
            request = json.loads(line)
            if request['method'] == 'poke':
                send({'jsonrpc': '2.0', 'method': 'notifications/message', 'params': {}})
            if 'id' in request:
                answer(request, {})
    """)
    raised = []

    def handler(method, params):
        try:
            s.call("inside")
        except RuntimeError as error:
            raised.append(str(error))

    with Satchel(server, on_notification=handler, timeout=3) as s:
        assert s.call("poke") == {}
        assert s.call("after") == {}
    assert raised and "another thread" in raised[0]


def test_a_batch_that_times_out_leaves_no_unretrieved_errors(satchel_factory, slow_feed, caplog):
    feed = slow_feed(1.0)

    async def main():
        async with AsyncSatchel(memory=True, args=["--messages-feed", feed.url], timeout=0.3) as s:
            with pytest.raises(TimeoutError):
                await s.batch([("messages.loadMore", None), ("ping", None), ("ping", None)])
            s.timeout = 5
            assert await s.ping() == {}

    with caplog.at_level(logging.ERROR, logger="asyncio"):
        asyncio.run(main())
        gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


def test_a_one_entry_batch_refused_as_a_whole_raises(satchel):
    deep: list = []
    for _ in range(80):
        deep = [deep]
    with pytest.raises(InvalidRequest) as refused:
        satchel.batch([("notes.create", {"title": "x", "content": deep})])
    assert refused.value.reason == "tooDeep"
    with pytest.raises(TypeError):
        satchel.notes.create(title="a\ud800")
    assert satchel.ping() == {}
