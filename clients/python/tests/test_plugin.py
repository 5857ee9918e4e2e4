"""The pytest plugin, run the way its users run it: a test file of theirs, collected by pytest."""
from __future__ import annotations


def test_the_fixtures_give_a_fresh_server_per_test_and_more_on_demand(pytester):
    pytester.makepyfile(
        """
        import os

        def test_one(satchel):
            satchel.notes.create(title="only here")
            assert satchel.server.info()["database"] == ":memory:"

        def test_two_is_fresh(satchel):
            assert satchel.notes.list()["items"] == []

        def test_two_processes_on_one_file(satchel_factory, tmp_path):
            first = satchel_factory(db=tmp_path / "db.sqlite")
            second = satchel_factory(db=tmp_path / "db.sqlite", args=["--locale", "ru"])
            first.notes.create(title="shared")
            assert [n["title"] for n in second.notes.list()["items"]] == ["shared"]
            assert first.pid != second.pid
            pids.extend([first.pid, second.pid])

        pids = []

        def test_they_were_closed():
            assert pids and not any(os.path.exists(f"/proc/{pid}") and
                                    open(f"/proc/{pid}/stat").read().split()[2] != "Z" for pid in pids)
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)


def test_the_binary_option_names_the_server(pytester, tmp_path):
    pytester.makepyfile("def test_it(satchel):\n    satchel.ping()\n")
    result = pytester.runpytest_subprocess("--satchel-binary", str(tmp_path / "missing"))
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*does not exist or is not executable*"])


def test_the_async_factory_serves_async_tests_of_any_runner_and_ends_what_is_left_running(pytester):
    pytester.makepyfile(
        """
        import asyncio
        import os

        import pytest

        pids = []

        @pytest.fixture
        def anyio_backend():
            return "asyncio"

        @pytest.mark.anyio
        async def test_under_anyio(async_satchel_factory, tmp_path):
            async with async_satchel_factory(db=tmp_path / "db.sqlite") as s:
                note = await s.notes.create(title="async")
                assert (await s.notes.get(id=note["id"]))["title"] == "async"
                pids.append(s.pid)

        def test_under_asyncio_run(async_satchel_factory):
            async def main():
                async with async_satchel_factory(args=["--locale", "ja"]) as s:
                    assert (await s.server.info())["database"] == ":memory:"
                    pids.append(s.pid)
            asyncio.run(main())

        @pytest.mark.anyio
        async def test_left_running(async_satchel_factory):
            s = await async_satchel_factory().start()
            pids.append(s.pid)

        def alive(pid):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
            except OSError:
                return False

        def test_all_ended():
            assert len(pids) == 3
            assert not any(alive(pid) for pid in pids)
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-W", "always::ResourceWarning")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["*ResourceWarning: test_left_running left 1 AsyncSatchel open*"])


def test_an_async_satchel_left_open_is_reported_on_the_test_that_left_it_and_nothing_after(pytester):
    pytester.makepyfile(
        """
        import asyncio
        import gc

        import pytest

        kept, loops, pids = [], [], []

        @pytest.fixture
        def anyio_backend():
            return "asyncio"

        @pytest.mark.anyio
        async def test_left_open_under_anyio(async_satchel_factory):
            s = await async_satchel_factory().start()
            await s.changes.subscribe()
            kept.append(s)
            pids.append(s.pid)

        def test_left_open_under_asyncio_run(async_satchel_factory):
            async def main():
                s = await async_satchel_factory(args=["--locale", "ja"]).start()
                await s.notes.create(title="left")
                kept.append(s)
                pids.append(s.pid)
            asyncio.run(main())

        def test_left_open_in_a_loop_that_is_still_there(async_satchel_factory):
            loops.append(asyncio.new_event_loop())
            s = loops[0].run_until_complete(async_satchel_factory().start())
            kept.append(s)
            pids.append(s.pid)

        def test_the_next_test_meets_nothing_of_them():
            loops.pop().close()
            kept.clear()
            gc.collect()  # what a client left open leaves behind would fail this test

        def test_all_ended():
            def alive(pid):
                try:
                    with open(f"/proc/{pid}/stat") as stat:
                        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
                except OSError:
                    return False
            assert len(pids) == 3 and not any(alive(pid) for pid in pids)
        """
    )
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-W", "error::ResourceWarning", "-W", "error::pytest.PytestUnraisableExceptionWarning"
    )
    result.assert_outcomes(passed=5, errors=3)  # each test passed; the three that left one open, not their teardown
    result.stdout.fnmatch_lines([
        "*ERROR at teardown of test_left_open_under_anyio*",
        "E * ResourceWarning: test_left_open_under_anyio left 1 AsyncSatchel open *: <AsyncSatchel pid=* closed> "
        "made at test_*.py:14, closed when its event loop ended",
        "*ERROR at teardown of test_left_open_under_asyncio_run*",
        "E * ResourceWarning: test_left_open_under_asyncio_run left 1 AsyncSatchel open *: <AsyncSatchel pid=* closed> "
        "made at test_*.py:21, closed when its event loop ended",
        "*ERROR at teardown of test_left_open_in_a_loop_that_is_still_there*",
        "E * ResourceWarning: test_left_open_in_a_loop_that_is_still_there left 1 AsyncSatchel open *: "
        "<AsyncSatchel pid=* running> made at test_*.py:29, closed after the test, in its event loop",
    ])


def test_a_failed_call_is_reported_at_the_line_that_made_it(pytester):
    pytester.makepyfile(
        """
        import traceback

        import pytest

        from satchel_client import NotFound

        @pytest.fixture
        def anyio_backend():
            return "asyncio"

        def test_blocking(satchel):
            satchel.notes.get(id="note_gone")

        def test_upload(satchel):
            satchel.images.upload(b"not an image")

        @pytest.mark.anyio
        async def test_async(async_satchel_factory):
            async with async_satchel_factory() as s:
                await s.board.get(id="bp_gone")

        def test_the_traceback_ends_at_the_public_call(satchel):
            with pytest.raises(NotFound) as caught:
                satchel.call("notes.get", id="note_gone")
            frames = traceback.extract_tb(caught.value.__traceback__)
            assert frames[0].line == 'satchel.call("notes.get", id="note_gone")'
            assert [frame.filename.rpartition("/")[2] for frame in frames[1:]] == ["client.py"] * len(frames[1:])
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=3, passed=1)
    for call, error in [('satchel.notes.get(id="note_gone")', "NotFound"),
                        ('satchel.images.upload(b"not an image")', "ValidationFailed"),
                        ('await s.board.get(id="bp_gone")', "NotFound")]:
        result.stdout.fnmatch_lines([f">*{call}", f"E*satchel_client.errors.{error}: *"], consecutive=True)
    assert "satchel_client/" not in result.stdout.str()  # no frame of the client's
