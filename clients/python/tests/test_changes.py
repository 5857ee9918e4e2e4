"""Live changes: what another process commits arrives as ``Change`` events, in order, never as answers."""
from __future__ import annotations

import time

import pytest

from satchel_client import Change


def test_a_change_by_a_second_process_arrives_as_a_notification(tmp_path, satchel_factory):
    path = tmp_path / "shared.sqlite"
    watcher = satchel_factory(db=path)
    writer = satchel_factory(db=path)
    assert "cursor" in watcher.subscribe(["notes", "board"])
    note = writer.notes.create(title="from the other process")
    writer.board.create(title="Apple")
    writer.reminders.add(title="not watched")
    events = list(watcher.changes(timeout=1.0))
    assert [(e.domain, e.kind) for e in events] == [("notes", "created"), ("board", "created")]
    assert isinstance(events[0], Change)
    assert events[0].id == note["id"] and events[0].entity == note
    assert events[0].seq < events[1].seq


def test_a_notification_between_calls_is_kept_and_not_taken_for_an_answer(tmp_path, satchel_factory):
    path = tmp_path / "shared.sqlite"
    watcher = satchel_factory(db=path)
    writer = satchel_factory(db=path)
    watcher.subscribe()
    note = writer.notes.create(title="one")
    time.sleep(0.3)  # the notification is on the pipe before the next call
    assert watcher.ping() == {}
    assert watcher.notes.get(id=note["id"])["title"] == "one"
    writer.notes.delete(id=note["id"])
    events = list(watcher.changes(timeout=1.0))
    assert [(e.kind, e.id) for e in events] == [("created", note["id"]), ("deleted", note["id"])]
    assert events[1].entity is None


def test_own_changes_arrive_too_in_the_order_they_were_made(satchel):
    satchel.subscribe(domains=["reminders"])
    first = satchel.reminders.add(title="Milk")["reminder"]
    created = satchel.reminders.submit(id=first["id"])["created"]
    ended = satchel.reminders.endEditing()
    assert ended["removedId"] == created["id"]
    kinds = [(e.kind, e.id) for e in satchel.changes(timeout=0.5)]
    assert kinds == [("created", first["id"]), ("created", created["id"]), ("deleted", created["id"])]


def test_the_change_feed_methods_share_the_namespace(satchel):
    cursor = satchel.changes.since()["nextCursor"]
    satchel.notes.create(title="x")
    since = satchel.changes.since(cursor=cursor)
    assert [e["kind"] for e in since["events"]] == ["created"]
    assert satchel.changes.unsubscribe() == {"unsubscribed": False}


def test_an_iterator_without_timeout_ends_when_the_server_goes(satchel):
    from satchel_client import ServerExited

    satchel.subscribe()
    satchel.notes.create(title="last")
    satchel.close()
    iterator = satchel.changes()
    assert next(iterator).kind == "created"
    with pytest.raises(ServerExited):
        next(iterator)
