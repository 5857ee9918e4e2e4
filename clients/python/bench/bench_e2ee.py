#!/usr/bin/env python3
"""End-to-end encrypted sync against plain sync, side by side in one run, through a real PostgreSQL 15.

usage: bench_e2ee.py [--binary PATH] [--notes N] [--first-pull N] [--rounds N] [--cpu]
Two accounts of one throwaway database (clients/python/tests/postgres_cluster.py): `plain` never sets a
passphrase, `sealed` turns encryption on (`sync.unlock`). For each, in alternating rounds: a device pushes
--notes notes made offline (`sync.now`), and a new device pulls an account of --first-pull notes. The
sealed one's new device starts with the account's key in its database, as a device that unlocked before
(Argon2id is timed apart: `sync.unlock` on a device of its own). Prints each round's times, the medians,
and the ratios sealed / plain; with --cpu, also the CPU time the pulling satchel used (`perf stat`'s
task-clock over its whole life: start, pull, exit), steadier than times on a busy machine (where perf counts
instructions, they would be better still; virtual machines often do not).
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time

from satchel_client import Satchel, find_binary

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests"))
from postgres_cluster import Cluster  # noqa: E402  (the tests' throwaway PostgreSQL)

PASSPHRASE = "correct horse battery staple"


def fill(binary: str, path: str, notes: int, tag: str) -> None:
    with Satchel(binary, db=path) as offline:
        for start in range(0, notes, 1000):
            offline.batch([("notes.create", {"title": f"{tag} note {i}", "content": "a line of a note " * 5})
                           for i in range(start, min(notes, start + 1000))])


def push(binary: str, url: str, path: str, sealed: bool) -> float:
    with Satchel(binary, db=path, args=["--sync", url], timeout=600) as device:
        if sealed:
            device.call("sync.unlock", {"passphrase": PASSPHRASE})
        started = time.perf_counter()
        device.call("sync.now")
        return time.perf_counter() - started


def account_key(path: str) -> str:
    """The sealing key a device that unlocked keeps in its database (hex)."""
    with sqlite3.connect(path) as db:
        return db.execute("SELECT value FROM sync_state WHERE key = 'sealingKey'").fetchone()[0]


def counted(binary: str, folder: str, name: str) -> tuple[str, str]:
    """A script that runs `binary` under `perf stat`, and the file the count goes to."""
    out = os.path.join(folder, f"{name}.perf")
    script = os.path.join(folder, f"{name}.sh")
    with open(script, "w") as f:
        f.write(f'#!/bin/sh\nexec perf stat -x, -e task-clock -o "{out}" -- "{binary}" "$@"\n')
    os.chmod(script, 0o755)
    return script, out


def cpu_seconds(out: str) -> float:
    for line in open(out):
        if "task-clock" in line:
            return float(line.split(",")[0]) / 1000
    raise RuntimeError(f"no task-clock in {out}")


def first_pull(binary: str, url: str, path: str, key: str | None, folder: str, count: bool) -> tuple[float, float]:
    """A new device's first pull; with `key`, its database holds the account's key already."""
    with Satchel(binary, db=path):
        pass  # the database made
    if key is not None:
        with sqlite3.connect(path) as db:
            db.execute("INSERT INTO sync_state(key, value) VALUES ('sealingKey', ?)", (key,))
    run, out = counted(binary, folder, pathlib.Path(path).stem) if count else (binary, "")
    with Satchel(run, db=path, args=["--sync", url], timeout=600) as device:
        started = time.perf_counter()
        device.call("sync.now")
        elapsed = time.perf_counter() - started
    return elapsed, cpu_seconds(out) if count else 0.0


def unlock(binary: str, url: str, path: str) -> float:
    with Satchel(binary, db=path, args=["--sync", url], timeout=600) as device:
        started = time.perf_counter()
        device.call("sync.unlock", {"passphrase": PASSPHRASE})
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--first-pull", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpu", action="store_true", help="measure the pulling satchel's CPU time with perf stat")
    options = parser.parse_args()
    if options.cpu and not shutil.which("perf"):
        sys.exit("bench_e2ee: --cpu needs perf (Debian: linux-perf)")
    binary = find_binary(options.binary)
    cluster = Cluster()
    try:
        _, uris = cluster.database(binary, ["plain", "sealed"])
        with tempfile.TemporaryDirectory() as folder:
            # Each account's history for the first pulls, pushed once.
            for account in ("plain", "sealed"):
                source = os.path.join(folder, f"{account}-source.sqlite")
                fill(binary, source, options.first_pull, account)
                push(binary, uris[account], source, account == "sealed")
            key = account_key(os.path.join(folder, "sealed-source.sqlite"))
            pushes: dict[str, list[float]] = {"plain": [], "sealed": []}
            pulls: dict[str, list[float]] = {"plain": [], "sealed": []}
            counts: dict[str, list[float]] = {"plain": [], "sealed": []}
            unlocks: list[float] = []
            for round_ in range(options.rounds):
                for account in ("plain", "sealed") if round_ % 2 == 0 else ("sealed", "plain"):
                    sealed = account == "sealed"
                    path = os.path.join(folder, f"{account}-push-{round_}.sqlite")
                    fill(binary, path, options.notes, f"{account} {round_}")
                    pushes[account].append(push(binary, uris[account], path, sealed))
                    pulled, ran = first_pull(binary, uris[account], os.path.join(folder, f"{account}-pull-{round_}.sqlite"),
                                             key if sealed else None, folder, options.cpu)
                    pulls[account].append(pulled)
                    counts[account].append(ran)
                    line = f"round {round_} {account}: push {pushes[account][-1]:.2f} s, first pull {pulled:.2f} s"
                    if options.cpu:
                        line += f" ({ran:.2f} s of CPU)"
                    if sealed:
                        unlocks.append(unlock(binary, uris[account], os.path.join(folder, f"unlock-{round_}.sqlite")))
                        line += f", unlock {unlocks[-1]:.2f} s"
                    print(line, flush=True)
            print()
            # Each round's accounts are alike (the same notes, the same pushes so far), so the ratio is taken
            # within a round, and its median over the rounds: the runs before and after it share no load.
            def ratio(values: dict[str, list[float]]) -> float:
                return statistics.median(sealed / plain for plain, sealed in zip(values["plain"], values["sealed"]))

            print(f"on {os.cpu_count()} cores; medians of {options.rounds} rounds (the ratio: the median of each round's)")
            print("| | plain | encrypted | encrypted / plain |")
            print("| --- | ---: | ---: | ---: |")
            pulled_notes = options.first_pull + options.notes * options.rounds // 2
            for name, values in ((f"push of {options.notes:,} notes", pushes), (f"first pull of {pulled_notes:,}+ notes", pulls)):
                plain, sealed = statistics.median(values["plain"]), statistics.median(values["sealed"])
                print(f"| {name} | {plain:.2f} s | {sealed:.2f} s | {ratio(values):.2f}x |")
            if options.cpu:
                plain_c, sealed_c = statistics.median(counts["plain"]), statistics.median(counts["sealed"])
                print(f"| first pull, the pulling satchel's CPU time | {plain_c:.2f} s | {sealed_c:.2f} s | {ratio(counts):.2f}x |")
            print(f"| `sync.unlock` (Argon2id, 3 passes over 64 MiB, and a round trip) | | {statistics.median(unlocks):.2f} s | |")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
