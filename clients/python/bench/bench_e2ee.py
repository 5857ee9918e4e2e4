#!/usr/bin/env python3
"""End-to-end encrypted sync against plain sync, side by side in one run, through a real PostgreSQL 15.

usage: bench_e2ee.py [--binary PATH] [--notes N] [--first-pull N] [--rounds N]
Two accounts of one throwaway database (clients/python/tests/postgres_cluster.py): `plain` never sets a
passphrase, `sealed` turns encryption on (`sync.unlock`). For each, in alternating rounds: a device pushes
--notes notes made offline (`sync.now`), and a new device pulls an account of --first-pull notes (after
`sync.unlock` for the sealed one, timed apart: Argon2id). Prints each round's times, the medians, and the
ratios sealed / plain.
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


def first_pull(binary: str, url: str, path: str, sealed: bool) -> tuple[float, float]:
    with Satchel(binary, db=path, args=["--sync", url], timeout=600) as device:
        unlock = 0.0
        if sealed:
            started = time.perf_counter()
            device.call("sync.unlock", {"passphrase": PASSPHRASE})
            unlock = time.perf_counter() - started
        started = time.perf_counter()
        device.call("sync.now")
        return time.perf_counter() - started, unlock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--first-pull", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
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
            pushes: dict[str, list[float]] = {"plain": [], "sealed": []}
            pulls: dict[str, list[float]] = {"plain": [], "sealed": []}
            unlocks: list[float] = []
            for round_ in range(options.rounds):
                for account in ("plain", "sealed") if round_ % 2 == 0 else ("sealed", "plain"):
                    sealed = account == "sealed"
                    path = os.path.join(folder, f"{account}-push-{round_}.sqlite")
                    fill(binary, path, options.notes, f"{account} {round_}")
                    pushes[account].append(push(binary, uris[account], path, sealed))
                    pulled, unlock = first_pull(binary, uris[account], os.path.join(folder, f"{account}-pull-{round_}.sqlite"), sealed)
                    pulls[account].append(pulled)
                    if sealed:
                        unlocks.append(unlock)
                    print(f"round {round_} {account}: push {pushes[account][-1]:.2f} s, first pull {pulled:.2f} s"
                          + (f", unlock {unlock:.2f} s" if sealed else ""), flush=True)
            print()
            print(f"on {os.cpu_count()} cores; medians of {options.rounds} rounds")
            print("| | plain | encrypted | encrypted / plain |")
            print("| --- | ---: | ---: | ---: |")
            for name, values in ((f"push of {options.notes:,} notes", pushes),
                                 (f"first pull of {options.first_pull + options.notes * options.rounds // 2:,}+ notes", pulls)):
                plain, sealed = statistics.median(values["plain"]), statistics.median(values["sealed"])
                print(f"| {name} | {plain:.2f} s | {sealed:.2f} s | {sealed / plain:.2f}x |")
            print(f"| `sync.unlock` (Argon2id, 3 passes over 64 MiB, and a round trip) | | {statistics.median(unlocks):.2f} s | |")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
