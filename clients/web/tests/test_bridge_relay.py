"""The bridge's WebSocket relay without a browser: calls, batches, pages that see each other's changes, a
satchel that dies and is started again, the databases and the end, against the real ``python -m
satchel_web`` and a real satchel (``$SATCHEL_BINARY``)."""
from __future__ import annotations

import asyncio
import http.server
import json
import os
import pathlib
import signal
import stat
import threading
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from bridge_pages import CYRILLIC, JAPANESE, alive, cmdline, get, is_status, page, until
from satchel_client import Satchel
from satchel_web.page import BACKLOG

pytestmark = pytest.mark.timeout(120)


# The relay


def test_calls_are_relayed_with_their_ids(bridge, run):
    async def relay() -> None:
        async with page(bridge) as socket:
            assert await socket.result("ping") == {}
            await socket.send({"jsonrpc": "2.0", "id": "text-id", "method": "ping"})
            assert await socket.answer("text-id") == {"jsonrpc": "2.0", "id": "text-id", "result": {}}
            note = await socket.result("notes.create", {"title": "Groceries"})
            assert note["title"] == "Groceries" and note["revision"] == 1
            assert (await socket.result("notes.get", {"id": note["id"]}))["title"] == "Groceries"
            missing = await socket.call("notes.get", {"id": "note_missing"})
            assert missing["error"]["code"] == -32001
            assert missing["error"]["data"] == {"reason": "notFound", "kind": "note", "id": "note_missing"}
            assert missing["error"]["message"]
            empty = await socket.call("notes.create", {"title": "   "})
            assert empty["error"]["code"] == -32002 and empty["error"]["data"]["reason"] == "emptyNote"
            unknown = await socket.call("notes.nothing")
            assert unknown["error"]["code"] == -32601

    run(relay())


def test_malformed_frames_get_errors_and_the_page_goes_on(bridge, run):
    async def malformed() -> None:
        async with page(bridge) as socket:
            (pid,) = bridge.satchel_pids()
            null_id = lambda m: isinstance(m, dict) and m.get("id") is None and "error" in m  # noqa: E731
            await socket.send("{not json")
            assert (await socket.wait(null_id))["error"]["code"] == -32700
            await socket.send('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}')
            assert (await socket.wait(null_id))["error"]["code"] == -32700
            await socket.send("[]")
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.send("42")
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": [1], "method": "ping"})
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.ws.send_bytes(b'{"jsonrpc":"2.0","id":5,"method":"ping"}')
            assert (await socket.wait(null_id))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "1.0", "id": "v", "method": "ping"})
            assert (await socket.answer("v"))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": "m", "method": 7})
            assert (await socket.answer("m"))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": "p", "method": "ping", "params": "x"})
            assert (await socket.answer("p"))["error"]["code"] == -32600
            await socket.send({"jsonrpc": "2.0", "id": "s", "method": "ping", "params": {"x": "\ud800"}})
            assert (await socket.answer("s"))["error"]["code"] in (-32700, -32602)
            await socket.send({"jsonrpc": "2.0", "id": 99, "result": {}})  # a response: ignored
            assert await socket.result("ping") == {}
            assert bridge.satchel_pids() == [pid]
            assert bridge.process.poll() is None

    run(malformed())


def test_a_batch_is_answered_as_one_array(bridge, run):
    async def batch() -> None:
        async with page(bridge) as socket:
            await socket.send([{"jsonrpc": "2.0", "id": "a", "method": "ping"},
                               {"jsonrpc": "2.0", "method": "notifications/initialized"},
                               {"jsonrpc": "2.0", "id": "b", "method": "notes.get", "params": {"id": "note_x"}},
                               {"jsonrpc": "2.0", "id": "c"}])
            answers = await socket.wait(lambda m: isinstance(m, list))
            assert [answer["id"] for answer in answers] == ["a", "b", "c"]
            assert answers[0]["result"] == {}
            assert answers[1]["error"]["code"] == -32001
            assert answers[2]["error"]["code"] == -32600

    run(batch())


def test_the_feed_and_the_lifetime_stay_the_bridges(bridge, run):
    async def kept() -> None:
        async with page(bridge) as socket:
            (pid,) = bridge.satchel_pids()
            cursor = await socket.result("changes.subscribe", {"domains": ["board"]})
            assert isinstance(cursor["cursor"], str)
            assert await socket.result("changes.unsubscribe") == {"unsubscribed": False}
            for method in ("shutdown", "exit"):
                refused = await socket.call(method)
                assert refused["error"]["code"] == -32601
                assert refused["error"]["data"]["reason"] == "bridgeOwnsLifetime"
            await socket.send({"jsonrpc": "2.0", "method": "exit"})
            note = await socket.result("notes.create", {"title": "still subscribed"})
            change = await socket.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed")
            assert change["params"]["id"] == note["id"]
            assert await socket.result("ping") == {}
            assert bridge.satchel_pids() == [pid]

    run(kept())


def test_a_slow_request_does_not_hold_up_the_bridge(bridge_factory, slow_feed, run):
    bridge = bridge_factory("--messages-feed", slow_feed.url, "--feed-timeout", "60")

    async def slow() -> None:
        async with page(bridge) as socket:
            loading = await socket.request("messages.loadMore", {"limit": 5})
            assert slow_feed.asked.wait(10)
            # answered by the bridge itself while the satchel still waits for the feed
            answer = await socket.call("changes.unsubscribe", timeout=2)
            assert answer["result"] == {"unsubscribed": False}
            slow_feed.release.set()
            assert "result" in await socket.answer(loading, timeout=20)

    run(slow())


# Pages


def test_a_change_on_one_page_reaches_the_other(bridge, run):
    async def two_pages() -> None:
        async with page(bridge) as writer, page(bridge) as reader:
            note = await writer.result("notes.create", {"title": "From the first window"})
            change = await reader.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed"
                                       and m["params"]["id"] == note["id"], timeout=5)
            params = change["params"]
            assert set(params) == {"seq", "at", "domain", "kind", "id", "entity"}
            assert (params["domain"], params["kind"]) == ("notes", "created")
            assert params["entity"]["title"] == "From the first window"
            await writer.result("notes.delete", {"id": note["id"]})
            gone = await reader.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed"
                                     and m["params"]["kind"] == "deleted", timeout=5)
            assert gone["params"]["entity"] is None

    run(two_pages())


def test_more_changes_at_once_than_are_sent_one_by_one_reach_the_page_as_one_resync(bridge, run):
    async def resync() -> None:
        async with page(bridge) as socket:
            before = await socket.result("changes.subscribe")  # the bridge's subscription, its cursor now
            is_change = lambda m: isinstance(m, dict) and m.get("method") == "changed"  # noqa: E731
            with Satchel(db=bridge.db) as other:  # one batch, one commit: 600 changes at once
                await asyncio.to_thread(other.batch, [("notes.create", {"title": f"n{i}"}) for i in range(600)])
            message = await socket.wait(lambda m: isinstance(m, dict) and m.get("method") in ("changed", "resync"))
            assert message["method"] == "resync", message
            params = message["params"]
            assert set(params) == {"since", "cursor", "seq"} and params["since"] == before["cursor"]
            walked = await socket.result("changes.since", {"cursor": params["since"], "limit": 1000})
            assert len(walked["events"]) == 600 and walked["nextCursor"] == params["cursor"]
            # The changes after it come one by one again, on the same satchel.
            note = await socket.result("notes.create", {"title": "after"})
            change = await socket.wait(is_change, timeout=5)
            assert change["params"]["id"] == note["id"]
            assert not [m for m in socket.backlog if is_change(m)], "no change of the batch was sent"

    run(resync())


def paced_fill(db: pathlib.Path, notes: Iterator[dict[str, Any]], batch: int = 250, pause: float = 0.05) -> None:
    """``notes.create`` for each of ``notes``, ``batch`` at a time with a ``pause`` after each: slowly enough
    that a subscribed satchel (which reads the change log every 50 ms) is sent every change one by one."""
    with Satchel(db=db, timeout=120) as satchel:
        while chunk := [("notes.create", params) for _, params in zip(range(batch), notes)]:
            assert not [answer for answer in satchel.batch(chunk) if isinstance(answer, Exception)]
            time.sleep(pause)


def test_a_page_that_reads_slower_than_a_burst_of_changes_gets_the_newest_of_each_domain(bridge, run):
    total = 50_000  # more than the socket's buffers hold: the rest waits in the bridge, or not at all

    async def burst() -> None:
        async with page(bridge) as socket:
            # The page reads nothing while another process creates the notes, then reads everything. The
            # batches are paced so that the satchel sends them change by change (at most 500 at a time: a
            # satchel further behind sends one resync instead); past BACKLOG, the bridge keeps only the newest
            # change of each domain.
            await asyncio.to_thread(paced_fill, bridge.db, ({"title": f"n{i}"} for i in range(total)))
            await asyncio.sleep(0.2)
            # Then 600 more in one commit: one resync for them, after the changes the bridge held back.
            with Satchel(db=bridge.db) as other:
                await asyncio.to_thread(other.batch, [("notes.create", {"title": f"m{i}"}) for i in range(600)])
                end = other.changes.since()["nextCursor"]
            notifications, told, most_skipped, resyncs, last = 0, 0, 0, [], None
            while not resyncs or resyncs[-1]["cursor"] != end:
                message = await socket.receive(timeout=30)
                if isinstance(message, dict) and message.get("method") == "changed":
                    notifications, last = notifications + 1, message
                    skipped = message["params"].get("skipped", 0)
                    told, most_skipped = told + 1 + skipped, max(most_skipped, skipped)
                elif isinstance(message, dict) and message.get("method") == "resync":
                    resyncs.append(message["params"])
            assert last["params"]["entity"]["title"] == f"n{total - 1}"  # the newest change, before the resync
            with Satchel(db=bridge.db) as s:  # what each resync stands for: the events from since up to cursor
                for resync in resyncs:
                    after = s.changes.since(cursor=resync["cursor"], limit=1)["events"]  # the first one past it
                    cursor, stop = resync["since"], after[0]["seq"] if after else None
                    while cursor != resync["cursor"]:
                        walked = s.changes.since(cursor=cursor, limit=1000)
                        events = [e for e in walked["events"] if stop is None or e["seq"] < stop]
                        told, cursor = told + len(events), walked["nextCursor"]
                        if len(events) < len(walked["events"]):
                            break
            assert told == total + 600, "every change is sent, counted in the skipped of a newer one, or in a resync"
            assert notifications + len(resyncs) < total - BACKLOG, f"{notifications} notifications for {total} changes"
            # The newest may come on its own when the page has caught up by then; what it skipped came before.
            assert most_skipped > 0, f"the bridge held nothing back ({notifications} changes, {len(resyncs)} resyncs)"
            assert await socket.result("ping") == {}

    run(burst())


def test_each_page_has_a_satchel_and_a_language_of_its_own_that_end_with_it(bridge, run):
    async def pages() -> None:
        async with page(bridge) as russian:
            (first,) = bridge.satchel_pids()
            await russian.result("initialize", {"locale": "ru"})
            async with page(bridge) as english:
                pids = bridge.satchel_pids()
                assert len(pids) == 2 and first in pids
                message = (await english.call("notes.get", {"id": "note_x"}))["error"]["message"]
                assert not CYRILLIC.search(message)
                assert CYRILLIC.search((await russian.call("notes.get", {"id": "note_x"}))["error"]["message"])
            assert until(lambda: bridge.satchel_pids() == [first])
        assert until(lambda: bridge.satchel_pids() == [])

    run(pages())


def test_satchel_flags_go_to_every_page_and_demo_only_to_the_first_satchel(bridge_factory, run):
    bridge = bridge_factory("--demo", "--locale", "ja")

    async def seeded() -> None:
        async with page(bridge) as socket:
            info = await socket.result("server.info")
            assert info["database"] == str(bridge.db)
            assert info["counts"]["board"] == 20
            assert JAPANESE.search((await socket.call("notes.get", {"id": "note_x"}))["error"]["message"])
            (pid,) = bridge.satchel_pids()
            argv = cmdline(pid)
            assert "--demo" not in argv
            assert argv[argv.index("--locale") + 1] == "ja"
            assert argv[argv.index("--db") + 1] == str(bridge.db)

    run(seeded())


# A satchel that dies


@pytest.fixture
def slow_feed() -> Iterator[Any]:
    """A messages feed that answers only once ``release`` is set; ``asked`` is set when it is asked."""

    class Feed(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            feed.asked.set()
            feed.release.wait(60)
            body = json.dumps({"result": ["one", "two"]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Feed)
    server.daemon_threads = True
    feed = type("SlowFeed", (), {})()
    feed.asked, feed.release = threading.Event(), threading.Event()
    feed.url = f"http://127.0.0.1:{server.server_port}/history"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield feed
    feed.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture
def slow_start(tmp_path) -> Iterator[Any]:
    """``binary``: a satchel that takes a second to start while the file ``hold`` exists, and fails to
    start while ``fail`` exists."""
    real = os.environ.get("SATCHEL_BINARY") or "satchel"
    wrapper = tmp_path / "satchel"
    hold, fail = tmp_path / "hold", tmp_path / "fail"
    wrapper.write_text(f'#!/bin/sh\nif [ -e "{fail}" ]; then echo "not today" >&2; exit 3; fi\n'
                       f'if [ -e "{hold}" ]; then sleep 1; fi\nexec "{real}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    yield type("SlowStart", (), {"binary": str(wrapper), "hold": hold, "fail": fail})()


def test_kill_9_restarts_the_pages_satchel_and_keeps_its_language(bridge_factory, slow_feed, slow_start, run):
    bridge = bridge_factory("--binary", slow_start.binary, "--messages-feed", slow_feed.url, "--feed-timeout", "60")

    async def killed() -> None:
        async with page(bridge) as socket:
            await socket.result("initialize", {"locale": "ru"})
            loading = await socket.request("messages.loadMore", {"limit": 5})
            assert slow_feed.asked.wait(10)
            behind = await socket.request("ping")  # not held back by the load: answered at once
            assert await socket.answer(behind) == {"jsonrpc": "2.0", "id": behind, "result": {}}
            (pid,) = bridge.satchel_pids()
            slow_start.hold.touch()
            os.kill(pid, signal.SIGKILL)

            order = [await socket.receive()]
            assert is_status(order[0], "restarting")
            waiting = await socket.request("ping")  # while the new satchel starts
            answer = await socket.answer(loading)
            assert answer["error"] == {"code": -32099, "message": "The server stopped; it is starting again",
                                       "data": {"reason": "serverRestarted"}}
            slow_start.hold.unlink()
            while not is_status(message := await socket.receive(), "ready"):
                order.append(message)
            assert not any(isinstance(m, dict) and m.get("id") == waiting for m in order)
            assert await socket.answer(waiting) == {"jsonrpc": "2.0", "id": waiting, "result": {}}

            (new,) = bridge.satchel_pids()
            assert new != pid
            assert await socket.result("ping") == {}
            message = (await socket.call("notes.get", {"id": "note_x"}))["error"]["message"]
            assert CYRILLIC.search(message), message
            note = await socket.result("notes.create", {"title": "after the restart"})
            change = await socket.wait(lambda m: isinstance(m, dict) and m.get("method") == "changed")
            assert change["params"]["id"] == note["id"]

    run(killed())


# Databases and the end


def test_memory_shares_one_temporary_database_and_removes_it_at_exit(bridge_factory, run):
    bridge = bridge_factory("--memory", db=None)
    databases: list[pathlib.Path] = []

    async def shared() -> None:
        async with page(bridge) as first, page(bridge) as second:
            for socket in (first, second):
                databases.append(pathlib.Path((await socket.result("server.info"))["database"]))
            note = await first.result("notes.create", {"title": "shared"})
            items = (await second.result("notes.list"))["items"]
            assert [item["id"] for item in items] == [note["id"]]

    run(shared())
    path = databases[0]
    assert databases == [path, path]
    assert path.is_file()
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    bridge.stop()
    assert bridge.process.returncode == 0
    assert not path.exists() and not path.parent.exists()


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_closes_every_satchel_and_exits_0(bridge_factory, run, signum):
    bridge = bridge_factory()
    pids: list[int] = []

    async def open_pages() -> None:
        async with page(bridge) as first, page(bridge) as second:
            pids.extend(bridge.satchel_pids())
            assert len(pids) == 2
            bridge.process.send_signal(signum)
            for socket in (first, second):
                frame = await socket.ws.receive(10)
                assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSING, aiohttp.WSMsgType.CLOSED)
            assert bridge.process.wait(20) == 0

    run(open_pages())
    assert [pid for pid in pids if alive(pid)] == []


def test_a_satchel_that_does_not_start_again_is_tried_until_it_does(bridge_factory, slow_start, run):
    bridge = bridge_factory("--binary", slow_start.binary)

    async def retried() -> None:
        async with page(bridge) as socket:
            (pid,) = bridge.satchel_pids()
            slow_start.fail.touch()
            os.kill(pid, signal.SIGKILL)
            await socket.status("restarting")
            waiting = await socket.request("ping")
            await asyncio.sleep(2)
            assert not any(is_status(m, "ready") or m.get("id") == waiting for m in socket.backlog)
            with pytest.raises(asyncio.TimeoutError):
                await socket.receive(timeout=0.5)
            slow_start.fail.unlink()
            await socket.status("ready", timeout=15)
            assert await socket.answer(waiting) == {"jsonrpc": "2.0", "id": waiting, "result": {}}
            assert bridge.process.poll() is None

    run(retried())
