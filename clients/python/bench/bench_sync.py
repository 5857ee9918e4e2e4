#!/usr/bin/env python3
"""Sync through a real PostgreSQL 15: how fast one device pushes, and how long a change takes to reach
another device as a `changed` notification (p50, p99).

usage: bench_sync.py [--binary PATH] [--notes N] [--samples N]
Starts a throwaway PostgreSQL 15 cluster in a temporary folder (a Unix socket only; as the `postgres`
user when run as root, as the tests do), makes a database with an owner and one account, runs
`satchel sync-setup`, then drives two satchels (each on its own SQLite file) with satchel-client:
- push: N notes made on device A while it is offline, then `sync.now` on A with --sync: notes pushed a second;
- propagation: A makes a note, B (subscribed to changes) hears of it; the time between, over --samples notes.
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
        delays.sort()
        p99 = delays[min(len(delays) - 1, round(len(delays) * 0.99))]
        print(f"{os.cpu_count()} cores, satchel {binary}, PostgreSQL 15 on a Unix socket")
        print(f"push: {options.notes} notes in {pushed_in:.2f} s: {options.notes / pushed_in:,.0f} changes/s")
        print(f"pull on a new device: {pulled['pulled']} notes in {pulled_in:.2f} s: "
              f"{pulled['pulled'] / pulled_in:,.0f} changes/s")
        print(f"propagation to a subscribed device over {len(delays)} notes: p50 {statistics.median(delays) * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms")
    finally:
        cluster.stop()


if __name__ == "__main__":
    sys.exit(main())
