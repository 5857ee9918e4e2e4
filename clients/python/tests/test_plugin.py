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
