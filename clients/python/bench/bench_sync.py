#!/usr/bin/env python3
"""Sync through a real PostgreSQL 15: how fast one device pushes, and how long a change takes to reach
another device as a `changed` notification (p50, p99).

usage: bench_sync.py [--binary PATH] [--notes N] [--samples N] [--first-pull N]
Starts a throwaway PostgreSQL 15 cluster in a temporary folder (a Unix socket only; as the `postgres`
user when run as root, as the tests do), makes a database with an owner and one account, runs
`satchel sync-setup`, then drives two satchels (each on its own SQLite file) with satchel-client:
- push: N notes made on device A while it is offline, then `sync.now` on A with --sync: notes pushed a second;
- propagation: A makes a note, B (subscribed to changes) hears of it; the time between, over --samples notes;
- first pull: a new device pulls an account of --first-pull notes with `sync.now` (progress asked for), then
  one of a tenth as many: its time, its progress reports, and the device's peak memory (VmHWM) for each, so
  the two peaks compare in one run (constant memory: their ratio near 1); and the bookkeeping: the new
  device's database against the one the notes were made in without sync (both vacuumed copies);
- another account's rows: laptop -> desktop propagation and an empty `sync.now` round (medians), before and
  after a second account keeps --other-rows notes of its own in PostgreSQL (pushed through
  `satchel.push` as that account), in one run: their ratio;
- hostile bodies: a second account's 12 board posts each carrying an unknown field of 7 MB (under the
  8 MiB cap): the peak memory of a device that pulls them.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from satchel_client import Satchel, find_binary

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
from postgres_cluster import Cluster  # noqa: E402  (the tests' throwaway PostgreSQL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--first-pull", type=int, default=100_000)
    parser.add_argument("--other-rows", type=int, default=200_000)
    options = parser.parse_args()
    binary = find_binary(options.binary)
    cluster = Cluster()
    try:
        _, uris = cluster.database(binary, ["anna"])
        url = uris["anna"]
        with tempfile.TemporaryDirectory() as folder:
            a_db, b_db = os.path.join(folder, "a.sqlite"), os.path.join(folder, "b.sqlite")
            with Satchel(binary, db=a_db) as offline:
                for start in range(0, options.notes, 1000):
                    offline.batch([("notes.create", {"title": f"note {i}", "content": "x" * 80})
                                   for i in range(start, min(options.notes, start + 1000))])
            with Satchel(binary, db=a_db, args=["--sync", url], timeout=300) as a:
                started = time.perf_counter()
                done = a.sync.now()
                pushed_in = time.perf_counter() - started
                assert done["pending"] == 0, done
                with Satchel(binary, db=b_db, args=["--sync", url], timeout=300) as b:
                    started = time.perf_counter()
                    pulled = b.sync.now()
                    pulled_in = time.perf_counter() - started
                    delays = heard(a, b, options.samples, pause=0.01)
            first_pulls = [first_pull(binary, cluster, options.first_pull // 10, folder),
                           first_pull(binary, cluster, options.first_pull, folder)]
            crowd = other_account(binary, cluster, options.other_rows, folder)
            hostile_peak = hostile_bodies(binary, cluster, folder)
        delays.sort()
        p99 = delays[min(len(delays) - 1, round(len(delays) * 0.99))]
        print(f"{os.cpu_count()} cores, satchel {binary}, PostgreSQL 15 on a Unix socket")
        print(f"push: {options.notes} notes in {pushed_in:.2f} s: {options.notes / pushed_in:,.0f} changes/s")
        print(f"pull on a new device: {pulled['pulled']} notes in {pulled_in:.2f} s: "
              f"{pulled['pulled'] / pulled_in:,.0f} changes/s")
        print(f"propagation to a subscribed device over {len(delays)} notes: p50 {statistics.median(delays) * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms")
        for notes, seconds, reports, peak, synced, plain in first_pulls:
            print(f"first pull on a new device: {notes:,} notes in {seconds:.1f} s ({notes / seconds:,.0f}/s), "
                  f"{reports} progress reports, peak memory {peak / 1024:.1f} MiB; database {synced / 2**20:.1f} MiB "
                  f"against {plain / 2**20:.1f} MiB made without sync: {synced / plain:.2f}x")
        print(f"peak memory, {first_pulls[1][0]:,} notes / {first_pulls[0][0]:,}: "
              f"{first_pulls[1][3] / first_pulls[0][3]:.2f}x")
        (alone_p50, alone_round), (crowded_p50, crowded_round) = crowd
        print(f"another account's {options.other_rows:,} private rows: propagation p50 {alone_p50 * 1000:.1f} -> "
              f"{crowded_p50 * 1000:.1f} ms ({crowded_p50 / alone_p50:.2f}x), empty round {alone_round * 1000:.1f} -> "
              f"{crowded_round * 1000:.1f} ms ({crowded_round / alone_round:.2f}x)")
        print(f"12 board posts of 7 MB from another account: the pulling device's peak memory {hostile_peak / 1024:.1f} MiB")
    finally:
        cluster.stop()


def peak_kib(pid: int) -> int:
    """The process's peak resident memory (VmHWM), in KiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise SystemExit("no VmHWM")


def psql(uri: str, statement: str) -> str:
    """Runs `statement` through psql as the URI's role; answers what it printed (unaligned, tuples only)."""
    return subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", uri, "-c", statement],
                          check=True, capture_output=True, text=True).stdout


def vacuumed_size(path: str, folder: str) -> int:
    """The size of a vacuumed copy of the SQLite database at `path`, in bytes."""
    copy = os.path.join(folder, f"vacuumed-{os.getpid()}-{time.monotonic_ns()}.sqlite")
    database = sqlite3.connect(path)
    try:
        database.execute("VACUUM INTO ?", (copy,))
    finally:
        database.close()
    size = os.path.getsize(copy)
    os.remove(copy)
    return size


def first_pull(binary: str, cluster: Cluster, notes: int, folder: str) -> tuple[int, float, int, int, int, int]:
    """An account of `notes` notes (made on one device, pushed), then pulled whole by a new device with
    `sync.now`: answers (notes, seconds, progress reports, the new device's peak memory in KiB, its
    database's size and that of the database the notes were made in before it synced, vacuumed)."""
    _, uris = cluster.database(binary, ["reader"])
    made, fresh = os.path.join(folder, f"made-{notes}.sqlite"), os.path.join(folder, f"new-{notes}.sqlite")
    with Satchel(binary, db=made) as offline:
        for start in range(0, notes, 1000):
            offline.batch([("notes.create", {"title": f"note {i}", "content": "x" * 80})
                           for i in range(start, min(notes, start + 1000))])
    plain = vacuumed_size(made, folder)
    with Satchel(binary, db=made, args=["--sync", uris["reader"]], timeout=600) as maker:
        assert maker.sync.now()["pending"] == 0
    reports = []
    with Satchel(binary, db=fresh, args=["--sync", uris["reader"]], timeout=600) as device:
        started = time.perf_counter()
        device.sync.now(progress=reports.append)
        seconds = time.perf_counter() - started
        assert device.server.info()["counts"]["notes"] == notes
        assert reports and reports[-1].progress == reports[-1].total, reports[-3:]
        peak = peak_kib(device.pid)
    return notes, seconds, len(reports), peak, vacuumed_size(fresh, folder), plain


def heard(maker: Satchel, listener: Satchel, samples: int, pause: float,
          between: Callable[[], None] | None = None) -> list[float]:
    """Makes `samples` notes on `maker`, each once `listener` (subscribed) heard of the one before; answers
    the seconds from each note's making to its `changed` notification. `between` runs after each."""
    listener.changes.subscribe(["notes"])
    feed = iter(listener.changes(timeout=10))
    delays = []
    for i in range(samples):
        made_at = time.perf_counter()
        note = maker.notes.create(title=f"live {i}")
        for change in feed:
            if change.id == note["id"]:
                delays.append(time.perf_counter() - made_at)
                break
        else:
            raise SystemExit(f"note {i} never arrived")
        time.sleep(pause)
        if between:
            between()
    listener.changes.unsubscribe()
    return delays


def propagation_and_round(laptop: Satchel, desktop: Satchel, samples: int) -> tuple[float, float]:
    """Medians of: a note made on `laptop` until `desktop` hears of it; an empty `sync.now` on `desktop`."""
    rounds = []

    def empty_round() -> None:
        started = time.perf_counter()
        desktop.sync.now()
        rounds.append(time.perf_counter() - started)

    delays = heard(laptop, desktop, samples, pause=0.05, between=empty_round)
    return statistics.median(delays), statistics.median(rounds)


def other_account(binary: str, cluster: Cluster, rows: int, folder: str) -> list[tuple[float, float]]:
    """Alice's laptop and desktop, measured alone, then after Boris keeps `rows` private notes in PostgreSQL."""
    name, uris = cluster.database(binary, ["alice", "boris"])
    owner = cluster.uri(f"owner_{name.removeprefix('satchel_')}", name)
    psql(owner, f"INSERT INTO satchel.meta VALUES ('quota_rows_per_minute', '{rows * 2}') ON CONFLICT DO NOTHING")
    laptop_db, desktop_db = os.path.join(folder, "crowd-laptop.sqlite"), os.path.join(folder, "crowd-desktop.sqlite")
    measured = []
    with Satchel(binary, db=laptop_db, args=["--sync", uris["alice"]], timeout=300) as laptop, \
            Satchel(binary, db=desktop_db, args=["--sync", uris["alice"]], timeout=300) as desktop:
        laptop.sync.now()
        desktop.sync.now()
        measured.append(propagation_and_round(laptop, desktop, 40))
        body = ("jsonb_build_object('id', 'note_b' || n, 'title', 'note ' || n, 'content', repeat('x', 80), "
                "'color', jsonb_build_object('hue', 0, 'saturation', 0, 'brightness', 1), "
                "'createdAt', '2026-11-27T00:00:00.000Z', 'updatedAt', '2026-11-27T00:00:00.000Z', 'revision', 1)")
        for start in range(0, rows, 1000):
            psql(uris["boris"], f"""SELECT satchel.push('00000000-0000-4000-8000-000000000001', (
                SELECT jsonb_agg(jsonb_build_object('device_seq', n + 1, 'domain', 'notes', 'entity', 'note_b' || n,
                    'op', 'put', 'body', {body}))
                FROM generate_series({start}, {min(rows, start + 1000) - 1}) AS n))""")
        measured.append(propagation_and_round(laptop, desktop, 40))
    return measured


def hostile_bodies(binary: str, cluster: Cluster, folder: str) -> int:
    """Mallory's 12 board posts of 7 MB each, pulled by a new device of Alice's: its peak memory, in KiB."""
    _, uris = cluster.database(binary, ["alice", "mallory"])
    for index in range(12):
        psql(uris["mallory"], f"""SELECT satchel.push('00000000-0000-4000-8000-000000000002', jsonb_build_array(
            jsonb_build_object('device_seq', {index + 1}, 'domain', 'board', 'entity', 'bp_big{index}', 'op', 'put',
                'body', jsonb_build_object('id', 'bp_big{index}', 'title', 'Big {index}', 'revision', 1,
                    'createdAt', '2026-11-27T00:00:00.000Z', 'padding', repeat(md5('{index}'), 7 * 1024 * 1024 / 32)))))""")
    with Satchel(binary, db=os.path.join(folder, "hostile.sqlite"), args=["--sync", uris["alice"]], timeout=300) as device:
        device.sync.now()
        assert len(device.board.list(limit=50)["items"]) == 12
        return peak_kib(device.pid)


if __name__ == "__main__":
    sys.exit(main())
