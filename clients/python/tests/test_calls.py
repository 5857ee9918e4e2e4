"""Calls, namespaces, batches and errors through the blocking client, against the real server."""
from __future__ import annotations

import inspect
import math
import re
import time

import pytest

import satchel_client
from satchel_client import (
    FreeLimitReached,
    InvalidParams,
    InvalidRequest,
    MethodNotFound,
    NotFound,
    RevisionConflict,
    Satchel,
    SatchelError,
    ShuttingDown,
    UpstreamUnavailable,
    ValidationFailed,
)
from satchel_client.errors import ERRORS_BY_CODE, error_from


def test_call_takes_a_mapping_a_sequence_or_keywords(satchel):
    by_keywords = satchel.call("notes.create", title="Groceries", content="milk")
    by_mapping = satchel.call("notes.get", {"id": by_keywords["id"]})
    by_position = satchel.call("notes.get", [by_keywords["id"]])
    assert by_mapping == by_position == by_keywords
    assert by_keywords["title"] == "Groceries" and by_keywords["content"] == "milk"
    with pytest.raises(TypeError, match="not both"):
        satchel.call("notes.get", {"id": by_keywords["id"]}, id=by_keywords["id"])


def test_namespaces_reach_every_app(satchel):
    assert satchel.ping() == {}
    note = satchel.notes.create(title="x", color={"hue": 1, "saturation": 0, "brightness": 1})
    assert note["color"]["hue"] == 1
    assert satchel.reminders.add()["reminder"]["editing"] is True
    assert satchel.board.create(title="Apple")["votes"] == 0
    assert satchel.server.info()["counts"]["notes"] == 1
    assert satchel.rpc.discover()["openrpc"].startswith("1.")
    document = satchel.export()
    assert satchel.import_(document=document, mode="merge")["imported"].get("notes", 0) == 0
    assert satchel.server.info()["counts"]["notes"] == 1


def test_a_parameter_left_out_is_not_sent_but_none_is_null(satchel):
    note = satchel.notes.create(title="due", deadline="2026-12-24T18:00:00+01:00")
    kept = satchel.notes.update(id=note["id"], title="still due")
    assert kept["deadline"] == "2026-12-24T17:00:00.000Z"
    cleared = satchel.notes.update(id=note["id"], deadline=None)
    assert cleared["deadline"] is None


def test_an_unknown_name_lists_the_close_matches(satchel):
    with pytest.raises(AttributeError, match=r"notes\.craete; did you mean notes\.create"):
        satchel.notes.craete
    with pytest.raises(AttributeError, match="did you mean ping"):
        satchel.pnig
    with pytest.raises(AttributeError, match="did you mean import_"):
        satchel.improt
    with pytest.raises(TypeError, match="titel"):
        satchel.notes.create(titel="x")


def snake(name: str) -> str:
    return re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), name)


def test_namespaces_carry_the_parameters_and_summary_of_each_method(satchel):
    discovered = {m["name"]: m for m in satchel.rpc.discover()["methods"]}
    for python_name, method in [("notes.update", "notes.update"), ("reminders.add", "reminders.add"),
                                ("search", "search"), ("import_", "import")]:
        function = satchel
        for part in python_name.split("."):
            function = getattr(function, part)
        signature = inspect.signature(function)
        expected = []
        for param in discovered[method]["params"]:  # a camelCase name is also taken in snake_case
            expected += [param["name"]] + ([snake(param["name"])] if snake(param["name"]) != param["name"] else [])
        assert list(signature.parameters) == expected + ["progress", "timeout"]
        required = {p["name"] for p in discovered[method]["params"] if p["required"]}
        assert {name for name, p in signature.parameters.items() if p.default is inspect.Parameter.empty} == required
        assert " ".join(discovered[method]["summary"].split()) in " ".join(inspect.getdoc(function).split())


def test_a_batch_answers_results_and_errors_in_order(satchel):
    note = satchel.notes.create(title="kept")
    answers = satchel.batch([
        ("notes.get", {"id": note["id"]}),
        ("notes.get", {"id": "note_missing"}),
        ("notes.create", {"title": "  "}),
        ("no.such.method", None),
        ("ping",),
        ("notes.create", {"title": "second"}),
    ])
    assert answers[0] == note
    assert isinstance(answers[1], NotFound) and answers[1].data["id"] == "note_missing"
    assert isinstance(answers[2], ValidationFailed) and answers[2].reason == "emptyNote"
    assert isinstance(answers[3], MethodNotFound)
    assert answers[4] == {}
    assert answers[5]["title"] == "second"
    assert [n["title"] for n in satchel.notes.list()["items"]] == ["kept", "second"]
    assert satchel.batch([]) == []


def test_a_batch_refused_as_a_whole_raises(satchel):
    with pytest.raises(InvalidRequest) as refused:
        satchel.batch([("ping", None)] * 1001)
    assert refused.value.code == -32600
    assert satchel.ping() == {}


def test_every_error_code_has_its_class():
    expected = {
        -32700: "ParseError", -32600: "InvalidRequest", -32601: "MethodNotFound", -32602: "InvalidParams",
        -32603: "InternalError", -32001: "NotFound", -32002: "ValidationFailed", -32003: "FreeLimitReached",
        -32004: "UpstreamUnavailable", -32005: "StorageFailure", -32006: "RevisionConflict",
        -32007: "ShuttingDown", -32800: "RequestCancelled",
    }
    assert {code: cls.__name__ for code, cls in ERRORS_BY_CODE.items()} == expected
    for code, name in expected.items():
        error = error_from({"code": code, "message": "m", "data": {"reason": "r"}})
        assert type(error) is getattr(satchel_client, name)
        assert isinstance(error, SatchelError) and error.code == code and error.reason == "r"
    other = error_from({"code": -32099, "message": "new"})
    assert type(other) is SatchelError and other.code == -32099 and other.reason is None


def test_domain_errors_arrive_as_their_classes(satchel_factory, slow_feed):
    s = satchel_factory(args=["--free-limit", "1", "--messages-feed", "http://127.0.0.1:9/none", "--feed-timeout", "2"])
    with pytest.raises(NotFound) as missing:
        s.notes.get(id="note_nope")
    assert missing.value.reason == "notFound" and missing.value.data["kind"] == "note"
    with pytest.raises(ValidationFailed) as empty:
        s.notes.create(title=" ")
    assert empty.value.reason == "emptyNote" and empty.value.message
    note = s.notes.create(title="one")
    with pytest.raises(FreeLimitReached) as full:
        s.notes.create(title="two")
    assert full.value.data["limit"] == 1
    with pytest.raises(RevisionConflict) as conflict:
        s.notes.update(id=note["id"], title="x", ifRevision=7)
    assert conflict.value.data["current"] == 1
    with pytest.raises(UpstreamUnavailable) as upstream:
        s.messages.loadMore()
    assert upstream.value.reason == "connectionFailed"
    with pytest.raises(InvalidParams) as bad:
        s.notes.list(limit=0)
    assert bad.value.data["field"] == "limit"
    with pytest.raises(MethodNotFound):
        s.call("notes.nothing")
    assert s.call("shutdown") is None
    with pytest.raises(ShuttingDown) as ending:
        s.ping()
    assert ending.value.reason == "shuttingDown"


def test_messages_follow_the_session_language(satchel_factory):
    s = satchel_factory(args=["--locale", "ja"])
    with pytest.raises(NotFound) as missing:
        s.notes.get(id="note_nope")
    assert missing.value.reason == "notFound"
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in missing.value.message)


def test_params_json_cannot_carry_are_refused_before_anything_is_sent(satchel):
    with pytest.raises(TypeError, match="JSON"):
        satchel.notes.create(title="x", color={"hue": object(), "saturation": 0, "brightness": 1})
    with pytest.raises(TypeError, match="JSON"):
        satchel.notes.create(title="x", color={"hue": math.nan, "saturation": 0, "brightness": 1})
    with pytest.raises(TypeError, match="JSON"):
        satchel.batch([("ping", None), ("notes.create", {"title": b"bytes"})])
    assert satchel.server.info()["counts"]["notes"] == 0
    assert satchel.ping() == {}


def test_a_line_the_server_cannot_read_fails_its_own_call_only(satchel_factory):
    s = satchel_factory(args=["--max-message-bytes", "1000"])
    with pytest.raises(InvalidRequest) as too_long:
        s.notes.create(title="x", content="y" * 5000)
    assert too_long.value.reason == "messageTooLarge"
    assert s.notes.create(title="short")["title"] == "short"


def test_the_binary_can_be_named_and_the_database_chosen(tmp_path, satchel_factory):
    path = tmp_path / "notes.sqlite"
    first = satchel_factory(db=path)
    first.notes.create(title="kept on disk")
    first.close()
    again = Satchel(satchel_client.find_binary(), db=path)
    with again:
        assert [n["title"] for n in again.notes.list()["items"]] == ["kept on disk"]
        assert again.server.info()["database"] == str(path)
    with pytest.raises(ValueError, match="not both"):
        Satchel(db=path, memory=True)


def test_camel_case_parameters_are_also_taken_in_snake_case(satchel):
    note = satchel.notes.create(title="a")
    satchel.notes.create(title="b")
    updated = satchel.notes.update(id=note["id"], title="a2", if_revision=note["revision"])
    with pytest.raises(RevisionConflict):
        satchel.notes.update(id=note["id"], title="stale", if_revision=note["revision"])
    with pytest.raises(RevisionConflict):
        satchel.notes.update(id=note["id"], title="stale", ifRevision=note["revision"])
    assert satchel.notes.move(id=note["id"], to_index=1)["id"] == note["id"]
    assert [n["id"] for n in satchel.notes.list()["items"]][1] == note["id"]
    assert satchel.notes.move(id=note["id"], toIndex=0)["revision"] >= updated["revision"]
    with pytest.raises(TypeError, match="not both"):
        satchel.notes.update(id=note["id"], ifRevision=1, if_revision=1)
    with pytest.raises(TypeError, match="toIndex"):
        satchel.notes.move(id=note["id"])
    satchel.reminders.add()
    assert satchel.reminders.end_editing()["removedId"] is not None  # a method too: endEditing


def test_a_timeout_of_one_call_is_the_clients_own_and_never_sent(satchel_factory, slow_feed):
    feed = slow_feed(1.0)
    s = satchel_factory(args=["--messages-feed", feed.url], timeout=30)
    # The server refuses a parameter it does not know: this one never reaches it.
    assert s.notes.create(title="x", timeout=5)["title"] == "x"
    assert s.call("notes.create", {"title": "y"}, timeout=5)["title"] == "y"
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="messages.loadMore within 0.3 s"):
        s.messages.loadMore(limit=2, timeout=0.3)
    assert time.monotonic() - started < 0.9
    assert s.timeout == 30
    assert len(s.messages.loadMore(limit=2, timeout=None)["items"]) == 2


def test_an_answer_that_comes_after_the_reading_call_returned_reaches_its_caller(satchel_factory, slow_feed):
    # Without live changes or a handler nobody watches the pipe between calls: a call reads its own answer.
    # A call made while another reads (here: both wait 0.5 s for the feed, one after the other) is answered
    # after that one has returned, and the reader thread must be watching by then.
    import threading

    feed = slow_feed(0.5)
    s = satchel_factory(args=["--messages-feed", feed.url])
    s.timeout = 5
    second: list[object] = []
    later = threading.Timer(0.1, lambda: second.append(s.messages.loadMore(limit=2)))
    later.start()
    first = s.messages.loadMore(limit=2)
    later.join(10)
    assert [m["text"] for m in first["items"]] == ["one", "two"] and len(second) == 1  # the second in time


def test_threads_calling_at_once_each_get_their_own_answers_and_every_change_arrives(satchel_factory, slow_feed):
    import threading

    feed = slow_feed(0.5)
    s = satchel_factory(args=["--messages-feed", feed.url])
    s.changes.subscribe(["notes"])
    made: dict[int, list[str]] = {}
    failures: list[BaseException] = []

    def work(number: int) -> None:
        try:
            ids = made.setdefault(number, [])
            for i in range(100):
                note = s.notes.create(title=f"{number}-{i}")
                assert note["title"] == f"{number}-{i}"
                assert s.call("notes.get", {"id": note["id"]})["title"] == f"{number}-{i}"
                ids.append(note["id"])
        except BaseException as error:  # reported by the test thread
            failures.append(error)

    slow = threading.Thread(target=lambda: s.messages.loadMore(limit=2))  # in flight while the others call
    threads = [threading.Thread(target=work, args=(number,)) for number in range(6)]
    for thread in [slow, *threads]:
        thread.start()
    for thread in [slow, *threads]:
        thread.join(60)
    assert not failures
    changes = list(s.changes(timeout=1.0))
    assert len(changes) == 600 and all(change.kind == "created" for change in changes)
    for number, ids in made.items():  # each thread's notes in the order it made them
        assert [c.id for c in changes if c.entity is not None and c.entity["title"].startswith(f"{number}-")] == ids
    assert [m["text"] for m in s.messages.list()["items"]] == ["one", "two"]
