"""``AsyncSatchel``: the same surface awaited, many calls in flight, live changes, timeouts and death."""
from __future__ import annotations

import asyncio
import os
import signal
import threading

import pytest

from processes import STUBBORN, children
from satchel_client import AsyncSatchel, Change, NotFound, Resync, Satchel, ServerExited, ValidationFailed


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def test_the_same_surface_awaited():
    async def main():
        async with AsyncSatchel(memory=True) as s:
            assert await s.ping() == {}
            note = await s.notes.create(title="Groceries", color={"hue": 0.33, "saturation": 0.4, "brightness": 1})
            assert note["color"]["hex"] == "#9BFF99"
            assert await s.call("notes.get", {"id": note["id"]}) == note
            with pytest.raises(ValidationFailed):
                await s.notes.create(title="")
            with pytest.raises(AttributeError, match="did you mean notes.list"):
                s.notes.lst
            answers = await s.batch([("ping", None), ("notes.get", {"id": "note_missing"})])
            assert answers[0] == {} and isinstance(answers[1], NotFound)
            with pytest.raises(TypeError):
                await s.notes.create(title=object())
            return s

    s = run(main())
    assert s.returncode == 0 and s.pid not in children()


def test_100_calls_in_flight_at_once_are_matched_by_id():
    async def main():
        async with AsyncSatchel(memory=True) as s:
            created = await asyncio.gather(*(s.notes.create(title=f"note {i}") for i in range(100)))
            assert [n["title"] for n in created] == [f"note {i}" for i in range(100)]
            fetched = await asyncio.gather(*(s.notes.get(id=n["id"]) for n in reversed(created)))
            assert fetched == list(reversed(created))
            mixed = await asyncio.gather(*(s.notes.get(id="nope") if i % 2 else s.ping() for i in range(100)),
                                         return_exceptions=True)
            assert all(isinstance(a, NotFound) if i % 2 else a == {} for i, a in enumerate(mixed))

    run(main())


def test_changes_from_a_second_process_arrive_in_an_async_for(tmp_path):
    async def main():
        path = tmp_path / "shared.sqlite"
        async with AsyncSatchel(db=path) as watcher, AsyncSatchel(db=path) as writer:
            await watcher.changes.subscribe(["board"])
            post = await writer.board.create(title="Cherry")
            await writer.board.vote(id=post["id"], direction="up")
            events = [event async for event in watcher.changes(timeout=1.0)]
            assert [(e.kind, e.id) for e in events] == [("created", post["id"]), ("updated", post["id"])]
            assert events[1].entity["votes"] == 1

    run(main())


def test_an_async_subscriber_far_behind_gets_a_resync_in_its_async_for(tmp_path):
    async def main():
        path = tmp_path / "shared.sqlite"
        async with AsyncSatchel(db=path) as watcher, AsyncSatchel(db=path) as writer:
            subscribed = (await watcher.changes.subscribe())["cursor"]
            await writer.batch([("notes.create", {"title": f"imported {i}"}) for i in range(501)])
            events = [event async for event in watcher.changes(timeout=1.0)]
            assert len(events) == 1 and isinstance(events[0], Resync), events[:3]
            assert events[0].since == subscribed
            post = await writer.board.create(title="after")
            events = [event async for event in watcher.changes(timeout=1.0)]
            assert [(e.domain, e.id) for e in events if isinstance(e, Change)] == [("board", post["id"])]
            assert len(events) == 1

    run(main())


def test_a_timeout_then_a_good_call(slow_feed):
    feed = slow_feed(1.0)

    async def main():
        async with AsyncSatchel(memory=True, args=["--messages-feed", feed.url], timeout=0.3) as s:
            with pytest.raises(TimeoutError):
                await s.messages.loadMore()
            s.timeout = 5
            assert await s.ping() == {}
            await asyncio.sleep(1.0)  # past the feed's answer: the load was cancelled on the server
            assert (await s.messages.list())["items"] == []

    run(main())


def test_kill_9_during_a_call(slow_feed):
    feed = slow_feed(5.0)

    async def main():
        async with AsyncSatchel(memory=True, args=["--messages-feed", feed.url]) as s:
            threading.Timer(0.3, os.kill, (s.pid, signal.SIGKILL)).start()
            with pytest.raises(ServerExited) as died:
                await s.messages.loadMore()
            assert died.value.returncode == -signal.SIGKILL
            with pytest.raises(ServerExited):
                await s.ping()
            with pytest.raises(ServerExited):
                async for _ in s.changes():
                    pass
            return s

    s = run(main())
    assert s.pid not in children()


def test_a_call_before_start_is_a_clear_error():
    async def main():
        s = AsyncSatchel(memory=True)
        with pytest.raises(RuntimeError, match="not started"):
            await s.ping()
        await s.close()

    run(main())


def test_open_close_cycles_leave_no_process():
    async def main():
        for _ in range(20):
            s = await AsyncSatchel(memory=True).start()
            await s.ping()
            await s.close()
            assert s.returncode == 0

    run(main())
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_a_chatty_server_never_blocks_and_its_stderr_is_logged(caplog):
    import logging

    caplog.set_level(logging.DEBUG, logger="satchel.server")

    async def main():
        async with AsyncSatchel(memory=True, args=["--log-level", "debug"]) as s:
            for _ in range(2000):  # each is logged on stderr: far more than a pipe holds
                await s.notify("notes.get", {"id": "x" * 200})
            assert await s.ping() == {}

    run(main())
    messages = [r.getMessage() for r in caplog.records if r.name == "satchel.server"]
    assert any(m.startswith("serving on stdio") for m in messages)
    assert sum("notification notes.get failed" in m for m in messages) > 100


def test_other_notifications_reach_the_handler(stand_in):
    server = stand_in("""
        for line in sys.stdin:
            request = json.loads(line)
            if request['method'] == 'anything':
                send({'jsonrpc': '2.0', 'method': 'notifications/progress', 'params': {'progress': 1}})
            if 'id' in request:
                answer(request, {'echo': request['method']})
    """)
    seen = []

    async def main():
        async with AsyncSatchel(server, on_notification=lambda m, p: seen.append((m, p)), timeout=5) as s:
            assert await s.call("anything") == {"echo": "anything"}

    run(main())
    assert seen == [("notifications/progress", {"progress": 1})]


def test_a_server_that_fails_to_start_reports_its_code_and_stderr_at_the_start():
    async def main():
        s = AsyncSatchel(memory=True, args=["--no-such-flag"])
        with pytest.raises(ServerExited) as failed:
            await s.start()
        assert failed.value.returncode == 2
        assert any("--no-such-flag" in line for line in failed.value.stderr)
        assert "before answering its first request" in str(failed.value)
        return s

    s = run(main())
    assert s.pid not in children()


def test_a_server_that_ignores_the_polite_end_is_killed(stand_in):
    stubborn = stand_in(STUBBORN)

    async def main():
        s = await AsyncSatchel(stubborn, timeout=1).start()  # it ignores SIGTERM from now on
        await s.close(grace=0.3)
        return s

    s = run(main())
    assert s.returncode == -signal.SIGKILL and s.pid not in children()


def test_a_program_that_is_not_a_server_fails_at_the_start():
    async def main():
        with pytest.raises(ServerExited, match="before answering its first request"):
            await AsyncSatchel("/bin/true").start()

    run(main())
    assert not children()


def test_a_client_used_from_another_event_loop_says_so_instead_of_hanging():
    async def start():
        return await AsyncSatchel(memory=True).start()

    loop = asyncio.new_event_loop()
    s = loop.run_until_complete(start())
    try:
        async def elsewhere():
            with pytest.raises(RuntimeError, match="another event loop"):
                await s.ping()
            with pytest.raises(RuntimeError, match="another event loop"):
                await s.close()

        run(elsewhere())
        assert loop.run_until_complete(s.ping()) == {}
    finally:
        loop.run_until_complete(s.close())
        loop.close()
    assert s.returncode == 0


def test_changes_without_a_subscription_says_so():
    async def main():
        async with AsyncSatchel(memory=True) as s:
            with pytest.raises(RuntimeError, match="subscribe"):
                s.changes()
            await s.changes.subscribe(["notes"])
            await s.notes.create(title="x")
            assert [c.kind async for c in s.changes(timeout=0.5)] == ["created"]

    run(main())


def test_close_on_a_hung_server_takes_at_most_its_grace(stand_in):
    async def main():
        s = await AsyncSatchel(stand_in(STUBBORN), timeout=5).start()
        started = asyncio.get_running_loop().time()
        await s.close(grace=1.0)
        assert asyncio.get_running_loop().time() - started < 1.4
        return s

    s = run(main())
    assert s.returncode == -signal.SIGKILL and s.pid not in children()


# Answers each request; at "last" it writes its answer (and a line more) and exits at once, with a code.
ANSWERS_THEN_EXITS = """
    for line in sys.stdin:
        request = json.loads(line)
        answer(request, {'method': request['method']})
        if request['method'] == 'last':
            send({'jsonrpc': '2.0', 'method': 'notifications/message', 'params': {'text': 'bye'}})
            sys.exit(3)
"""


def test_what_a_server_wrote_before_it_ended_arrives_before_the_end(stand_in):
    server = stand_in(ANSWERS_THEN_EXITS)
    seen = []

    async def main():
        async with AsyncSatchel(server, on_notification=lambda method, params: seen.append(params)) as s:
            for _ in range(20):  # the exit must not overtake the answer however the loop's turns fall
                assert await s.call("again") == {"method": "again"}
            assert await s.call("last") == {"method": "last"}
            with pytest.raises(ServerExited) as ended:
                await s.ping()
            assert ended.value.returncode == 3
            assert seen == [{"text": "bye"}]

    run(main())
    with Satchel(server, on_notification=lambda method, params: seen.append(params)) as s:
        assert s.call("last") == {"method": "last"}
        with pytest.raises(ServerExited) as ended:
            s.ping()
        assert ended.value.returncode == 3
    assert seen == [{"text": "bye"}] * 2


def test_an_async_client_dropped_without_closing_ends_its_server_with_a_resource_warning():
    import gc
    import pathlib
    import time
    import warnings

    async def main() -> tuple[int, list[warnings.WarningMessage]]:
        client = await AsyncSatchel(memory=True).start()
        await client.ping()
        pid = client.pid
        assert pid is not None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            del client
            gc.collect()
        await asyncio.sleep(0.2)
        return pid, caught

    pid, caught = asyncio.run(main())
    assert any(issubclass(w.category, ResourceWarning) and "unclosed <AsyncSatchel" in str(w.message) for w in caught), caught
    for _ in range(50):
        if not pathlib.Path(f"/proc/{pid}").exists() or "Z" in pathlib.Path(f"/proc/{pid}/stat").read_text().split()[2]:
            break
        time.sleep(0.1)
    stat = pathlib.Path(f"/proc/{pid}/stat")
    assert not stat.exists() or stat.read_text().split()[2] == "Z", "the server is still running"


def test_an_async_client_open_when_its_event_loop_ends_is_closed_then_with_a_resource_warning(monkeypatch):
    import gc
    import sys
    import warnings

    kept: list[AsyncSatchel] = []

    async def main() -> None:
        client = await AsyncSatchel(memory=True).start()
        await client.notes.create(title="left open")
        kept.append(client)

    unraisable: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        asyncio.run(main())
        client = kept.pop()
        assert client.returncode == 0 and client.pid not in children()  # shut down politely, and waited for
        pid = client.pid
        del client
        gc.collect()  # and nothing of it is left to fail later, on a loop that is closed
    assert [str(w.message) for w in caught] == [
        f"<AsyncSatchel pid={pid} running> was still open when its event loop ended: closed then; close it, or use "
        "`async with AsyncSatchel(...) as s:`"
    ]
    assert unraisable == []
