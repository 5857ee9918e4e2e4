"""Progress: ``progress=`` on ``call`` and on every generated method, for export and import through a file,
in both clients; where the callback runs, what it may raise, and what is sent without it."""
from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
import threading
import time

import pytest

from satchel_client import AsyncSatchel, Progress, Satchel, ValidationFailed

NOTES = 3000  # enough for an import to take several reports (at most about ten a second)


def fill(s: Satchel, count: int = NOTES) -> None:
    for start in range(0, count, 1000):
        s.batch([("notes.create", {"title": f"note {i}", "content": "x" * 100})
                 for i in range(start, min(count, start + 1000))])


def assert_reports(reports: list[Progress], total: int) -> None:
    assert reports, "no progress was reported"
    numbers = [report.progress for report in reports]
    assert numbers == sorted(set(numbers)), numbers  # strictly increasing
    assert all(report.total == total for report in reports)
    assert reports[-1].progress == total and reports[-1].fraction == 1.0


@pytest.fixture
def exported(tmp_path):
    """A database of ``NOTES`` notes exported to a file: the file's path."""
    path = tmp_path / "export.json"
    with Satchel(db=tmp_path / "source.sqlite") as s:
        fill(s)
        s.export(path=str(path))
    return path


def test_export_to_a_file_reports_progress_on_the_calling_thread(tmp_path):
    path = tmp_path / "everything.json"
    reports, threads = [], set()

    def progress(report: Progress) -> None:
        reports.append(report)
        threads.add(threading.current_thread())

    with Satchel(db=tmp_path / "db.sqlite") as s:
        fill(s)
        result = s.export(path=str(path), progress=progress)
    assert result["path"] == str(path) and result["bytes"] == path.stat().st_size
    assert result["counts"]["notes"] == NOTES
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(json.loads(path.read_text())["notes"]) == NOTES
    assert_reports(reports, NOTES)
    assert threads == {threading.current_thread()}


def test_import_from_that_file_reports_progress(exported, tmp_path):
    reports = []
    with Satchel(db=tmp_path / "empty.sqlite") as s:
        assert s.import_(path=str(exported), mode="merge", progress=reports.append) == {"imported": {"notes": NOTES}}
        assert s.server.info()["counts"]["notes"] == NOTES
        assert s.call("import", {"path": str(exported), "mode": "merge"}) == {"imported": {}}  # all there already
    assert_reports(reports, NOTES)  # (several reports: the tests of a long import below)


def test_a_bad_path_is_refused_and_changes_nothing(exported, tmp_path):
    with Satchel(memory=True) as s:
        for path in ("relative.json", str(tmp_path / "missing.json"), str(tmp_path)):
            with pytest.raises(ValidationFailed) as refused:
                s.import_(path=path, mode="replace", progress=lambda report: None)
            assert (refused.value.reason, refused.value.data["field"]) == ("invalidPath", "path")
        (tmp_path / "broken.json").write_text('{"format": "satchel", "notes": [')
        with pytest.raises(ValidationFailed):
            s.import_(path=str(tmp_path / "broken.json"), mode="replace")
        assert s.server.info()["counts"]["notes"] == 0


def test_a_callback_that_raises_is_logged_and_the_call_goes_on(tmp_path, caplog):
    calls = []

    def broken(report: Progress) -> None:
        calls.append(report)
        raise RuntimeError("the progress bar fell over")

    path = tmp_path / "out.json"
    with Satchel(db=tmp_path / "db.sqlite") as s, caplog.at_level(logging.ERROR, "satchel.client"):
        fill(s, 500)
        assert s.export(path=str(path), progress=broken)["counts"]["notes"] == 500
        assert s.ping() == {}  # the connection is fine
    assert calls and calls[-1].progress == 500
    assert "the progress bar fell over" in caplog.text


def test_a_callback_may_call_the_server_itself(tmp_path):
    seen = []
    with Satchel(db=tmp_path / "db.sqlite") as s:
        fill(s, 100)
        s.export(path=str(tmp_path / "out.json"), progress=lambda report: seen.append(s.ping()))
    assert seen and all(answer == {} for answer in seen)


ECHO = """
    for line in sys.stdin:
        request = json.loads(line)
        token = (request.get('params') or {}).get('_meta', {}).get('progressToken')
        if token is not None:
            for n in (1, 2):
                send({'jsonrpc': '2.0', 'method': 'notifications/progress',
                      'params': {'progressToken': token, 'progress': n, 'total': 2, 'message': 'step %d' % n}})
            send({'jsonrpc': '2.0', 'method': 'notifications/progress',
                  'params': {'progressToken': 'satchel-client-999', 'progress': 1}})
            send({'jsonrpc': '2.0', 'method': 'notifications/progress',
                  'params': {'progressToken': 'someone-else', 'progress': 1}})
        if 'id' in request:
            answer(request, request.get('params'))
        if token is not None:  # too late: the call has its answer
            send({'jsonrpc': '2.0', 'method': 'notifications/progress',
                  'params': {'progressToken': token, 'progress': 3, 'total': 2}})
"""


def test_only_a_call_with_progress_carries_a_token_and_gets_its_own_reports(stand_in, caplog):
    others, reports = [], []
    with Satchel(stand_in(ECHO), on_notification=lambda m, p: others.append(p)) as s, \
            caplog.at_level(logging.DEBUG, "satchel.client"):
        assert s.call("anything", {"a": 1}) == {"a": 1}
        assert s.notes.create(title="x") == {"title": "x"}
        assert s.server.info() is None  # no params at all
        sent = s.call("anything", {"a": 1, "_meta": {"trace": "t1"}}, progress=reports.append)
        assert sent["a"] == 1 and sent["_meta"]["trace"] == "t1"
        token = sent["_meta"]["progressToken"]
        assert isinstance(token, str) and token.startswith("satchel-client-")
        assert s.export(path="/x", progress=reports.append)["_meta"]["progressToken"] != token  # one per call
        s.ping()  # the late reports have been read by now
    assert reports == [Progress(1, 2, "step 1"), Progress(2, 2, "step 2")] * 2
    assert [p["progressToken"] for p in others] == ["someone-else"] * 2  # not ours: as before, to the handler
    assert "progress for no call in flight" in caplog.text


def test_reports_read_before_the_caller_waits_still_reach_its_callback(stand_in):
    """The reader thread may take a quick call's reports and its answer before the calling thread starts to
    wait: the reports wait for it, and reach the callback before the call returns."""
    import sys

    # Threads switch as often as they can, and one more competes: the reader thread often takes the whole
    # answer between the caller's write and its wait, as on a busy machine.
    spinning = threading.Event()
    spinner = threading.Thread(target=lambda: [None for _ in iter(spinning.is_set, True)], daemon=True)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    spinner.start()
    try:
        with Satchel(stand_in(ECHO)) as s:
            for _ in range(300):
                reports: list[Progress] = []
                s.call("anything", {"a": 1}, progress=reports.append)
                assert reports == [Progress(1, 2, "step 1"), Progress(2, 2, "step 2")]
    finally:
        spinning.set()
        sys.setswitchinterval(interval)


def test_progress_is_checked_before_anything_is_sent(satchel):
    async def coroutine(report: Progress) -> None:
        pass

    with pytest.raises(TypeError, match="callable"):
        satchel.export(progress="yes")
    with pytest.raises(TypeError, match="AsyncSatchel"):
        satchel.export(progress=coroutine)
    with pytest.raises(TypeError, match="by name"):
        satchel.call("notes.get", ["note_x"], progress=print)
    with pytest.raises(TypeError, match="not both"):
        satchel.call("export", {"_meta": {"progressToken": "mine"}}, progress=print)
    assert satchel.ping() == {}


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 60))


def test_async_export_and_import_report_progress_in_the_awaiting_task(exported, tmp_path):
    async def main():
        plain, awaited, tasks, finished = [], [], set(), []

        async def slow(report: Progress) -> None:
            tasks.add(asyncio.current_task())
            await asyncio.sleep(0.01)
            awaited.append(report)

        async with AsyncSatchel(db=tmp_path / "db.sqlite") as s:
            imported = await s.import_(path=str(exported), mode="replace", progress=slow)
            finished.append(len(awaited))  # every report was handled before the call returned
            assert imported == {"imported": {"notes": NOTES}}
            out = tmp_path / "again.json"
            result = await s.export(path=str(out), progress=plain.append)
            assert result["counts"]["notes"] == NOTES and out.stat().st_size == result["bytes"]
        assert tasks == {asyncio.current_task()}
        assert finished == [len(awaited)]
        return plain, awaited

    plain, awaited = run(main())
    assert_reports(awaited, NOTES)
    assert_reports(plain, NOTES)


def test_async_calls_in_flight_together_keep_their_reports_apart(tmp_path):
    async def main():
        async with AsyncSatchel(db=tmp_path / "db.sqlite") as s:
            await s.batch([("notes.create", {"title": f"n{i}"}) for i in range(300)])
            first, second = [], []
            results = await asyncio.gather(
                s.export(path=str(tmp_path / "1.json"), progress=first.append),
                s.export(path=str(tmp_path / "2.json"), progress=second.append),
            )
            assert [r["counts"]["notes"] for r in results] == [300, 300]
            return first, second

    first, second = run(main())
    assert_reports(first, 300)
    assert_reports(second, 300)


def test_async_a_callback_that_raises_is_logged(tmp_path, caplog):
    def broken(report: Progress) -> None:
        raise ValueError("plain")

    async def broken_later(report: Progress) -> None:
        await asyncio.sleep(0)
        raise ValueError("awaited")

    async def main():
        async with AsyncSatchel(db=tmp_path / "db.sqlite") as s:
            await s.notes.create(title="one")
            for callback in (broken, broken_later):
                exported = await s.call("export", {"path": str(tmp_path / "x.json"), "overwrite": True}, progress=callback)
                assert exported["bytes"] > 0
            assert await s.ping() == {}

    with caplog.at_level(logging.ERROR, "satchel.client"):
        run(main())
    assert "plain" in caplog.text and "awaited" in caplog.text
    assert os.path.exists(tmp_path / "x.json")


def test_export_keeps_a_file_that_is_there_unless_told_to_overwrite(tmp_path):
    path = tmp_path / "thesis.txt"
    path.write_text("three years of work")
    with Satchel(memory=True) as s:
        fill(s)
        with pytest.raises(ValidationFailed) as refused:
            s.export(path=str(path))
        assert refused.value.reason == "fileExists" and refused.value.data["field"] == "path"
        assert path.read_text() == "three years of work"
        assert s.export(path=str(path), overwrite=True)["counts"]["notes"] == NOTES
    assert len(json.loads(path.read_text())["notes"]) == NOTES


LARGE = 20_000


@pytest.fixture(scope="module")
def large_export(tmp_path_factory):
    """``LARGE`` notes exported to a file, and a timeout for importing them: far longer than the quietest
    time between two reports (or before the first), far shorter than the import, as the binary under test
    does them (a debug build reads the file for half a second before its first report; a release build
    imports it all in less): their geometric mean, each side at least twice as far. A busy machine can
    stall one import for long enough to spoil the measure; it is taken again then."""
    folder = tmp_path_factory.mktemp("large")
    path = folder / "export.json"
    with Satchel(db=folder / "source.sqlite") as s:
        fill(s, LARGE)
        s.export(path=str(path))
    for _ in range(3):
        marks = []
        with Satchel(memory=True) as s:
            marks.append(time.monotonic())
            s.import_(path=str(path), mode="merge", progress=lambda report: marks.append(time.monotonic()))
            took = time.monotonic() - marks[0]
        quiet = max(later - earlier for earlier, later in zip(marks, marks[1:]))
        if took >= 4 * quiet:
            return path, (quiet * took) ** 0.5
    raise AssertionError(f"an import of {took:.2f} s with a quiet time of {quiet:.2f} s shows nothing")


def import_in_time(path, timeout, run) -> tuple[float, list[Progress]] | None:
    """Imports ``path`` by ``run(path, timeout, on_progress)`` (a fresh client each time): how long it took
    and the reports, or ``None`` when it timed out — which it may only do when a time between two reports
    (or since the last) really reached the timeout: a stall of a busy machine, not a deadline the reports
    failed to push back."""
    marks = [time.monotonic()]
    reports: list[Progress] = []

    def on_progress(report: Progress) -> None:
        reports.append(report)
        marks.append(time.monotonic())

    try:
        run(path, timeout, on_progress)
    except TimeoutError:
        ended = time.monotonic()
        quietest = max(later - earlier for earlier, later in zip(marks, marks[1:] + [ended]))
        assert quietest >= timeout - 0.05, f"timed out after {timeout:.2f} s though reports came every {quietest:.2f} s at most"
        return None
    return time.monotonic() - marks[0], reports


def assert_the_deadline_moves(path, timeout, run) -> None:
    """A call whose reports come more often than its timeout ends well after the timeout has passed (tried
    again, up to three times, when a busy machine stalled one for longer than the timeout)."""
    for _ in range(3):
        outcome = import_in_time(path, timeout, run)
        if outcome is not None:
            took, reports = outcome
            assert took > timeout, "the import was too quick to show anything"
            assert_reports(reports, LARGE)
            assert len(reports) >= 3
            return
    raise AssertionError("every import stalled for longer than its timeout")


def test_progress_reports_extend_the_deadline_of_a_long_call(large_export):
    def run(path, timeout, on_progress):
        with Satchel(memory=True, timeout=timeout) as s:
            assert s.import_(path=str(path), mode="merge", progress=on_progress) == {"imported": {"notes": LARGE}}

    assert_the_deadline_moves(*large_export, run)


def test_progress_reports_extend_the_deadline_of_a_long_call_with_asyncio(large_export):
    def run(path, timeout, on_progress):
        async def main():
            async with AsyncSatchel(memory=True) as s:
                await s.import_(path=str(path), mode="merge", progress=on_progress, timeout=timeout)

        asyncio.run(main())

    assert_the_deadline_moves(*large_export, run)
