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
  the two peaks compare in one run (constant memory: their ratio near 1).
"""
from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import time

from satchel_client import Satchel, find_binary

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
from postgres_cluster import Cluster  # noqa: E402  (the tests' throwaway PostgreSQL)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--first-pull", type=int, default=100_000)
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
                    b.changes.subscribe(["notes"])
                    feed = iter(b.changes(timeout=10))
                    delays = []
                    for i in range(options.samples):
                        made_at = time.perf_counter()
                        note = a.notes.create(title=f"live {i}")
                        for change in feed:
                            if change.id == note["id"]:
                                delays.append(time.perf_counter() - made_at)
                                break
                        else:
                            raise SystemExit(f"note {i} never arrived")
                        time.sleep(0.01)
            first_pulls = [first_pull(binary, cluster, options.first_pull // 10, folder),
                           first_pull(binary, cluster, options.first_pull, folder)]
        delays.sort()
        p99 = delays[min(len(delays) - 1, round(len(delays) * 0.99))]
        print(f"{os.cpu_count()} cores, satchel {binary}, PostgreSQL 15 on a Unix socket")
        print(f"push: {options.notes} notes in {pushed_in:.2f} s: {options.notes / pushed_in:,.0f} changes/s")
        print(f"pull on a new device: {pulled['pulled']} notes in {pulled_in:.2f} s: "
              f"{pulled['pulled'] / pulled_in:,.0f} changes/s")
        print(f"propagation to a subscribed device over {len(delays)} notes: p50 {statistics.median(delays) * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms")
        for notes, seconds, reports, peak in first_pulls:
            print(f"first pull on a new device: {notes:,} notes in {seconds:.1f} s ({notes / seconds:,.0f}/s), "
                  f"{reports} progress reports, peak memory {peak / 1024:.1f} MiB")
        print(f"peak memory, {first_pulls[1][0]:,} notes / {first_pulls[0][0]:,}: "
              f"{first_pulls[1][3] / first_pulls[0][3]:.2f}x")
    finally:
        cluster.stop()


def peak_kib(pid: int) -> int:
    """The process's peak resident memory (VmHWM), in KiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise SystemExit("no VmHWM")


def first_pull(binary: str, cluster: Cluster, notes: int, folder: str) -> tuple[int, float, int, int]:
    """An account of `notes` notes (made on one device, pushed), then pulled whole by a new device with
    `sync.now`: answers (notes, seconds, progress reports, the new device's peak memory in KiB)."""
    _, uris = cluster.database(binary, ["reader"])
    made, fresh = os.path.join(folder, f"made-{notes}.sqlite"), os.path.join(folder, f"new-{notes}.sqlite")
    with Satchel(binary, db=made) as offline:
        for start in range(0, notes, 1000):
            offline.batch([("notes.create", {"title": f"note {i}", "content": "x" * 80})
                           for i in range(start, min(notes, start + 1000))])
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
    return notes, seconds, len(reports), peak


if __name__ == "__main__":
    sys.exit(main())
