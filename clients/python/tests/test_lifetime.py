"""Process lifetime: finding the binary, timeouts, a server that dies, closing, and nothing leaked."""
from __future__ import annotations

import datetime
import logging
import os
import pathlib
import shutil
import signal
import threading
import time

import pytest

from processes import STUBBORN, children, open_fds
from satchel_client import BinaryNotFound, Satchel, ServerExited, find_binary

REAL = find_binary()


def test_the_binary_is_the_argument_then_the_environment_then_path_then_the_checkout(tmp_path, monkeypatch):
    on_path = tmp_path / "bin" / "satchel"
    checkout = tmp_path / "checkout"
    release = checkout / ".build" / "release" / "satchel"
    debug = checkout / ".build" / "debug" / "satchel"
    for link in (on_path, release, debug):
        link.parent.mkdir(parents=True)
        link.symlink_to(REAL)
    (checkout / "Package.swift").write_text("// a checkout\n")
    (checkout / "Sources").mkdir()
    monkeypatch.setenv("SATCHEL_BINARY", REAL)
    monkeypatch.setenv("PATH", str(on_path.parent))
    assert find_binary(str(debug)) == str(debug)
    assert find_binary() == REAL
    monkeypatch.delenv("SATCHEL_BINARY")
    assert find_binary(start=checkout) == str(on_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert find_binary(start=checkout / "Sources") == str(release)
    release.unlink()
    assert find_binary(start=checkout) == str(debug)


def test_no_binary_found_names_all_four_places(tmp_path, monkeypatch):
    monkeypatch.delenv("SATCHEL_BINARY", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BinaryNotFound) as missing:
        find_binary(start=tmp_path)
    message = str(missing.value)
    for place in ("binary=", "$SATCHEL_BINARY", "PATH", ".build/release/satchel", ".build/debug/satchel"):
        assert place in message
    with pytest.raises(BinaryNotFound, match="does not exist"):
        Satchel(tmp_path / "nothing-here")


def test_a_call_past_its_timeout_raises_and_the_connection_stays_usable(satchel_factory, slow_feed):
    feed = slow_feed(1.0)
    s = satchel_factory(args=["--messages-feed", feed.url], timeout=0.3)
    with pytest.raises(TimeoutError, match="messages.loadMore"):
        s.messages.loadMore(limit=2)
    s.timeout = 5
    assert s.ping() == {}  # answered at once: the load was cancelled on the server
    assert s.notes.create(title="after")["title"] == "after"
    time.sleep(1.0)  # past the feed's answer
    assert s.messages.list()["items"] == []


def test_kill_9_during_a_call_raises_server_exited_then_and_later(satchel_factory, slow_feed):
    feed = slow_feed(5.0)
    s = satchel_factory(args=["--messages-feed", feed.url])
    threading.Timer(0.3, os.kill, (s.pid, signal.SIGKILL)).start()
    started = time.monotonic()
    with pytest.raises(ServerExited) as died:
        s.messages.loadMore()
    assert time.monotonic() - started < 4
    assert died.value.returncode == -signal.SIGKILL
    with pytest.raises(ServerExited):
        s.ping()
    with pytest.raises(ServerExited):
        s.batch([("ping", None)])
    with pytest.raises(ServerExited):
        list(s.changes(timeout=1))
    s.close()
    assert s.pid not in children()


def test_a_server_that_fails_to_start_reports_its_code_and_stderr_at_construction():
    with pytest.raises(ServerExited) as failed:
        Satchel(memory=True, args=["--no-such-flag"])
    assert failed.value.returncode == 2
    assert any("--no-such-flag" in line for line in failed.value.stderr)
    assert "--no-such-flag" in str(failed.value) and "before answering its first request" in str(failed.value)


def test_close_sends_shutdown_and_exit_then_ends_input(stand_in, tmp_path):
    log = tmp_path / "heard"
    polite = stand_in(f"""
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        heard = open({str(log)!r}, 'w')
        for line in sys.stdin:
            request = json.loads(line)
            heard.write(request['method'] + '\\n'); heard.flush()
            if 'id' in request:
                answer(request, None)
        heard.write('end of input\\n')
    """)
    s = Satchel(polite)
    s.close(grace=5)
    assert log.read_text().split("\n")[:4] == ["ping", "shutdown", "exit", "end of input"]  # ping: at the start
    assert s.returncode == 0


def test_close_ends_the_real_server_with_code_0(tmp_path):
    s = Satchel(db=tmp_path / "db.sqlite")
    s.reminders.add(title="")  # a blank reminder in editing: cleaned up when the connection ends
    s.reminders.add(title="kept")
    s.close()
    assert s.returncode == 0
    s.close()
    with Satchel(db=tmp_path / "db.sqlite") as again:
        assert [r["title"] for r in again.reminders.list()["items"]] == ["kept"]


def test_a_server_that_ignores_the_polite_end_is_terminated_then_killed(stand_in):
    stubborn = stand_in(STUBBORN)
    s = Satchel(stubborn, timeout=1)  # it ignores SIGTERM from now on
    started = time.monotonic()
    s.close(grace=0.3)
    assert time.monotonic() - started < 5
    assert s.returncode == -signal.SIGKILL
    assert s.pid not in children()


def test_other_notifications_reach_the_handler_and_are_never_taken_for_answers(stand_in):
    server = stand_in("""
        for line in sys.stdin:
            request = json.loads(line)
            send({'jsonrpc': '2.0', 'method': 'notifications/progress', 'params': {'progress': 1}})
            for seq, at in ((6, ''), (7, '2026-11-25T21:25:00.504Z')):  # a change without its time is no Change
                send({'jsonrpc': '2.0', 'method': 'changed', 'params': {'seq': seq, 'at': at, 'domain': 'notes',
                      'kind': 'created', 'id': 'note_1', 'entity': None}})
            if 'id' in request:
                answer(request, {'echo': request['method']})
    """)
    seen = []
    with Satchel(server, on_notification=lambda method, params: seen.append((method, params))) as s:
        s.changes.subscribe()
        seen.clear()  # what came with the first ping's answer and the subscription's
        changes = list(s.changes(timeout=0.5))
        assert [change.seq for change in changes] == [7, 7]
        assert changes[0].at == datetime.datetime(2026, 11, 25, 21, 25, 0, 504000, tzinfo=datetime.timezone.utc)
        assert s.call("anything") == {"echo": "anything"}
        assert s.call("again") == {"echo": "again"}
        assert seen == [("notifications/progress", {"progress": 1})] * 2
        assert [change.seq for change in s.changes(timeout=0.5)] == [7, 7]


def test_a_chatty_server_never_blocks_and_its_stderr_is_logged(satchel_factory, caplog):
    caplog.set_level(logging.DEBUG, logger="satchel.server")
    s = satchel_factory(args=["--log-level", "debug"])
    for _ in range(2000):  # each is logged on stderr: far more than a pipe holds
        s.notify("notes.get", {"id": "x" * 200})
    assert s.ping() == {}
    records = [r for r in caplog.records if r.name == "satchel.server"]
    assert any(r.levelno == logging.INFO and r.getMessage().startswith("serving on stdio") for r in records)
    assert sum("notification notes.get failed" in r.getMessage() for r in records) > 100


def test_200_open_close_cycles_leak_no_process_thread_or_descriptor():
    Satchel(memory=True).close()  # warm up what is opened once (logging, codecs)
    fds, threads = open_fds(), set(threading.enumerate())
    pids = set()
    for _ in range(200):
        with Satchel(memory=True) as s:
            pids.add(s.pid)
            s.ping()
    assert set(threading.enumerate()) <= threads
    assert len(open_fds()) <= len(fds)
    assert not pids & set(children())
    with pytest.raises(ChildProcessError):  # no child at all: none running, no zombie
        os.waitpid(-1, os.WNOHANG)


def test_an_unclosed_client_leaves_no_orphan_when_its_python_ends(tmp_path):
    import subprocess
    import sys

    script = (
        "import sys; from satchel_client import Satchel\n"
        "s = Satchel(memory=True); s.ping(); print(s.pid, flush=True)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "SATCHEL_BINARY": REAL})
    pid = int(done.stdout.split()[0])
    for _ in range(50):
        if not pathlib.Path(f"/proc/{pid}").exists():
            break
        time.sleep(0.1)
    assert not pathlib.Path(f"/proc/{pid}").exists()


def test_shutil_sees_the_real_binary():
    assert shutil.which(REAL)


def test_a_folder_or_a_program_that_is_not_a_server_fails_at_construction(tmp_path):
    with pytest.raises(BinaryNotFound, match="is a directory"):
        Satchel(str(tmp_path))
    with pytest.raises(BinaryNotFound, match="is a directory"):
        Satchel(binary="/tmp")
    started = time.monotonic()
    with pytest.raises(ServerExited, match=r"exited with code 0 before answering its first request.*true"):
        Satchel(binary="/bin/true")
    with pytest.raises(ServerExited) as failed:
        Satchel(binary="/bin/false")
    assert failed.value.returncode == 1
    assert time.monotonic() - started < 5
    assert not children()


CTRL_C = {
    "Satchel": (
        "import time; from satchel_client import Satchel\n"
        "with Satchel(memory=True) as s:\n"
        "    print(s.pid, flush=True)\n"
        "    try:\n"
        "        time.sleep(30)\n"
        "    except KeyboardInterrupt:\n"
        "        print('interrupted', s.notes.create(title='after Ctrl-C')['title'], flush=True)\n"
    ),
    "AsyncSatchel": (
        "import asyncio; from satchel_client import AsyncSatchel\n"
        "async def main():\n"
        "    async with AsyncSatchel(memory=True) as s:\n"
        "        print(s.pid, flush=True)\n"
        "        try:\n"
        "            await asyncio.sleep(30)\n"
        "        except asyncio.CancelledError:\n"
        "            pass\n"
        "        print('interrupted', (await s.notes.create(title='after Ctrl-C'))['title'], flush=True)\n"
        "try:\n"
        "    asyncio.run(main())\n"
        "except KeyboardInterrupt:\n"
        "    pass\n"
    ),
}


@pytest.mark.parametrize("kind", sorted(CTRL_C))
def test_ctrl_c_in_a_terminal_interrupts_the_caller_and_the_server_goes_on(kind):
    """A terminal sends Ctrl-C's SIGINT to its whole foreground process group: the caller's, which the
    server must not be in."""
    import subprocess
    import sys

    # The script leads a process group of its own, as a shell's foreground job does, and hears SIGINT as
    # such a job does (a test run started in the background of a shell inherits it ignored).
    script = subprocess.Popen([sys.executable, "-c", CTRL_C[kind]], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, start_new_session=True, env={**os.environ, "SATCHEL_BINARY": REAL},
                              preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert script.stdout is not None
        server = int(script.stdout.readline())
        time.sleep(0.3)
        os.killpg(script.pid, signal.SIGINT)
        out, err = script.communicate(timeout=30)
    finally:
        script.kill()
    assert out.strip() == "interrupted after Ctrl-C", err
    assert script.returncode == 0, err
    for _ in range(50):
        if not pathlib.Path(f"/proc/{server}").exists():
            break
        time.sleep(0.1)
    assert not pathlib.Path(f"/proc/{server}").exists(), "the server ends with its client"


def test_a_client_dropped_without_closing_ends_its_server_and_threads_with_a_resource_warning():
    import gc
    import warnings

    s = Satchel(memory=True)
    s.notes.create(title="x")
    pid = s.pid
    ours = {t for t in threading.enumerate() if t.name.endswith(f"-{pid}")}
    assert len(ours) == 3  # reader, stderr, writer
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        del s
        gc.collect()
    assert any(issubclass(w.category, ResourceWarning) and "unclosed <Satchel" in str(w.message) for w in caught)
    for _ in range(50):
        if pid not in children() and not any(t.is_alive() for t in ours):
            break
        time.sleep(0.1)
    assert pid not in children()  # ended and waited for: no zombie either
    assert not any(t.is_alive() for t in ours)


def test_close_on_a_hung_server_takes_at_most_its_grace(stand_in):
    s = Satchel(stand_in(STUBBORN), timeout=5)  # answers nothing after the first ping, ignores SIGTERM
    started = time.monotonic()
    s.close(grace=1.0)
    assert time.monotonic() - started < 1.4
    assert s.returncode == -signal.SIGKILL and s.pid not in children()
