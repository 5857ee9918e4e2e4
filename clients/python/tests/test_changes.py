"""Live changes: what another process commits arrives as ``Change`` events, in order, never as answers."""
from __future__ import annotations

import time

import pytest

from satchel_client import Change, Resync


def test_a_change_by_a_second_process_arrives_as_a_notification(tmp_path, satchel_factory):
    path = tmp_path / "shared.sqlite"
    watcher = satchel_factory(db=path)
    writer = satchel_factory(db=path)
    assert "cursor" in watcher.changes.subscribe(["notes", "board"])
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
    watcher.changes.subscribe()
    note = writer.notes.create(title="one")
    time.sleep(0.3)  # the notification is on the pipe before the next call
    assert watcher.ping() == {}
    assert watcher.notes.get(id=note["id"])["title"] == "one"
    writer.notes.delete(id=note["id"])
    events = list(watcher.changes(timeout=1.0))
    assert [(e.kind, e.id) for e in events] == [("created", note["id"]), ("deleted", note["id"])]
    assert events[1].entity is None


def test_own_changes_arrive_too_in_the_order_they_were_made(satchel):
    satchel.changes.subscribe(domains=["reminders"])
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

    satchel.changes.subscribe()
    satchel.notes.create(title="last")
    satchel.close()
    iterator = satchel.changes()
    assert next(iterator).kind == "created"
    with pytest.raises(ServerExited):
        next(iterator)


def test_changes_without_a_subscription_says_so_instead_of_waiting_for_ever(satchel):
    with pytest.raises(RuntimeError, match="subscribe"):
        satchel.changes()
    satchel.call("changes.subscribe")  # any way of asking counts
    satchel.notes.create(title="x")
    assert [e.kind for e in satchel.changes(timeout=0.5)] == ["created"]
    satchel.changes.unsubscribe()
    with pytest.raises(RuntimeError, match="subscribe"):
        satchel.changes(timeout=0.1)


def test_a_change_carries_its_time_as_a_datetime(satchel):
    import datetime

    satchel.changes.subscribe()
    before = datetime.datetime.now(datetime.timezone.utc)
    note = satchel.notes.create(title="x")
    (change,) = satchel.changes(timeout=0.5)
    assert isinstance(change.at, datetime.datetime) and change.at.tzinfo is not None
    assert abs((change.at - before).total_seconds()) < 5
    assert change.at.isoformat(timespec="milliseconds").replace("+00:00", "Z") == note["createdAt"]


def test_subscribe_on_the_client_is_the_same_call_and_deprecated(satchel):
    with pytest.warns(DeprecationWarning, match="changes.subscribe"):
        assert "cursor" in satchel.subscribe(["notes"])
    satchel.notes.create(title="x")
    assert [e.domain for e in satchel.changes(timeout=0.5)] == ["notes"]


def test_a_subscriber_far_behind_gets_one_resync_then_the_changes_after_it(tmp_path, satchel_factory):
    path = tmp_path / "shared.sqlite"
    seen: list[tuple[str, object]] = []
    watcher = satchel_factory(db=path, on_notification=lambda method, params: seen.append((method, params)))
    writer = satchel_factory(db=path)
    subscribed = watcher.changes.subscribe(["notes"])["cursor"]
    created = writer.batch([("notes.create", {"title": f"imported {i}"}) for i in range(600)])
    assert all("id" in note for note in created)
    time.sleep(0.3)  # the resync is on the pipe before the next call, which reads it with its own answer
    assert watcher.ping() == {}
    (resync,) = watcher.changes(timeout=1.0)  # one value for 600 changes, not 600 Change events
    assert isinstance(resync, Resync) and not isinstance(resync, Change)
    assert resync.since == subscribed and resync.cursor != subscribed
    assert seen == []  # not a notification for on_notification: it is part of the feed
    skipped, cursor = [], resync.since
    while cursor != resync.cursor:  # what the resync stands for, walked at the reader's pace
        page = watcher.changes.since(cursor=cursor, limit=1000)
        skipped += page["events"]
        cursor = page["nextCursor"]
    assert [e["id"] for e in skipped] == [note["id"] for note in created]
    after = writer.notes.create(title="after the import")
    (change,) = watcher.changes(timeout=1.0)  # the feed goes on one change at a time
    assert isinstance(change, Change) and (change.kind, change.id) == ("created", after["id"])
