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
import subprocess
import sys
import tempfile
import time

from satchel_client import Satchel, find_binary

PG = pathlib.Path("/usr/lib/postgresql/15/bin")


def as_postgres(*command: str) -> None:
    prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
    subprocess.run([*prefix, *command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   cwd="/tmp")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--samples", type=int, default=200)
    options = parser.parse_args()
    binary = find_binary(options.binary)
    cluster = tempfile.mkdtemp(prefix="satchel-pg-bench-")
    if os.getuid() == 0:
        shutil_owner = subprocess.run(["id", "-u", "postgres"], capture_output=True, text=True).stdout.strip()
        os.chown(cluster, int(shutil_owner), -1)
    os.chmod(cluster, 0o700)
    as_postgres(str(PG / "initdb"), "-D", f"{cluster}/data", "-A", "trust", "-U", "postgres", "--no-sync",
                "-E", "UTF8", "--locale=C")
    as_postgres(str(PG / "pg_ctl"), "-D", f"{cluster}/data", "-l", f"{cluster}/log", "-w", "-o",
                f"-k {cluster} -c listen_addresses='' -c fsync=off", "start")
    try:
        def psql(sql: str) -> None:
            subprocess.run(["psql", "-h", cluster, "-U", "postgres", "-d", "postgres", "-c", sql], check=True,
                           stdout=subprocess.DEVNULL)

        psql("CREATE ROLE owner LOGIN")
        psql("CREATE DATABASE shared OWNER owner")
        psql("CREATE ROLE anna LOGIN")
        subprocess.run([binary, "sync-setup", f"postgresql:///shared?host={cluster}&user=owner"], check=True,
                       stdout=subprocess.DEVNULL)
        url = f"postgresql:///shared?host={cluster}&user=anna"
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
        as_postgres(str(PG / "pg_ctl"), "-D", f"{cluster}/data", "-m", "immediate", "-w", "stop")
        subprocess.run(["rm", "-rf", cluster], check=False)


if __name__ == "__main__":
    sys.exit(main())
