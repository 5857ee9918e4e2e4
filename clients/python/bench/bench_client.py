#!/usr/bin/env python3
"""What satchel-client costs: calls/s through AsyncSatchel (and Satchel) against a raw pipe doing the same
requests, one at a time and pipelined, in one run and interleaved, so the machine's noise hits all alike.

usage: bench_client.py [--binary PATH] [--one N] [--pipelined N] [--rounds R]
The raw pipe is the least a client can do: json.dumps, one write, read one line, json.loads; pipelined, it
writes all its lines at once from a thread, as ../shared/bench/drive.py does (whose own figures follow the
table when that file is there).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from satchel_client import AsyncSatchel, Satchel, find_binary

WORKLOADS = ("ping", "notes.get", "notes.create")


def params_for(workload: str, i: int, ids: list[str]) -> dict | None:
    if workload == "notes.get":
        return {"id": ids[i % len(ids)]}
    if workload == "notes.create":
        return {"title": f"note {i}", "content": "x" * 80}
    return None


class RawPipe:
    def __init__(self, argv: list[str]) -> None:
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, bufsize=0)
        self.buffer = b""
        self.next_id = 0

    def line(self, method: str, params: dict | None) -> bytes:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        return (json.dumps(message) + "\n").encode()

    def read_line(self) -> bytes:
        while b"\n" not in self.buffer:
            self.buffer += os.read(self.process.stdout.fileno(), 1 << 16)
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def call(self, method: str, params: dict | None) -> object:
        os.write(self.process.stdin.fileno(), self.line(method, params))
        return json.loads(self.read_line())["result"]

    def pipelined(self, method: str, count: int, ids: list[str]) -> None:
        payload = b"".join(self.line(method, params_for(method, i, ids)) for i in range(count))
        writer = threading.Thread(target=self.process.stdin.write, args=(payload,))
        writer.start()
        for _ in range(count):
            json.loads(self.read_line())["result"]
        writer.join()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def argv(binary: str, folder: str, name: str) -> list[str]:
    return [binary, "--db", os.path.join(folder, name + ".sqlite")]


def timed(action) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


class Clock:
    """Wall time and this process's CPU time (the client's own work, steadier on a busy machine)."""

    def __enter__(self) -> Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu


def raw_round(binary: str, folder: str, workload: str, one: int, pipelined: int) -> tuple[float, float, float]:
    pipe = RawPipe(argv(binary, folder, f"raw-{workload}"))
    ids = [pipe.call("notes.create", {"title": f"n{i}"})["id"] for i in range(200)]
    with Clock() as single:
        for i in range(one):
            pipe.call(workload, params_for(workload, i, ids))
    many = timed(lambda: pipe.pipelined(workload, pipelined, ids))
    pipe.close()
    return one / single.wall, single.cpu / one * 1e6, pipelined / many


def async_round(binary: str, folder: str, workload: str, one: int, pipelined: int) -> tuple[float, float, float]:
    async def main() -> tuple[float, float, float]:
        async with AsyncSatchel(binary, db=os.path.join(folder, f"async-{workload}.sqlite")) as s:
            ids = [(await s.notes.create(title=f"n{i}"))["id"] for i in range(200)]
            with Clock() as single:
                for i in range(one):
                    await s.call(workload, params_for(workload, i, ids))
            started = time.perf_counter()
            await asyncio.gather(*(s.call(workload, params_for(workload, i, ids)) for i in range(pipelined)))
            many = time.perf_counter() - started
        return one / single.wall, single.cpu / one * 1e6, pipelined / many

    return asyncio.run(main())


def sync_round(binary: str, folder: str, workload: str, one: int) -> tuple[float, float]:
    with Satchel(binary, db=os.path.join(folder, f"sync-{workload}.sqlite")) as s:
        ids = [s.notes.create(title=f"n{i}")["id"] for i in range(200)]
        with Clock() as single:
            for i in range(one):
                s.call(workload, params_for(workload, i, ids))
        return one / single.wall, single.cpu / one * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=None)
    parser.add_argument("--one", type=int, default=3000, help="one-at-a-time calls per run")
    parser.add_argument("--pipelined", type=int, default=20000, help="pipelined calls per run")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    binary = find_binary(options.binary)
    print(f"## satchel-client against a raw pipe ({binary}, {os.cpu_count()} cores, {options.rounds} rounds; "
          "medians; ratio = library time per call / raw time per call; CPU = the client process's own, "
          "µs per call)\n")
    print("| workload | raw 1-at-a-time/s | AsyncSatchel | ratio | Satchel (sync) | ratio | client CPU raw / async "
          "/ sync | raw pipelined/s | AsyncSatchel pipelined | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for workload in WORKLOADS:
        rows = []
        for _ in range(options.rounds):
            with tempfile.TemporaryDirectory() as folder:
                raw_one, raw_cpu, raw_many = raw_round(binary, folder, workload, options.one, options.pipelined)
                async_one, async_cpu, async_many = async_round(
                    binary, folder, workload, options.one, options.pipelined)
                sync_one, sync_cpu = sync_round(binary, folder, workload, options.one)
            rows.append((raw_one, async_one, sync_one, raw_cpu, async_cpu, sync_cpu, raw_many, async_many))
        raw_one, async_one, sync_one, raw_cpu, async_cpu, sync_cpu, raw_many, async_many = (
            statistics.median(c) for c in zip(*rows))
        print(f"| `{workload}` | {raw_one:,.0f} | {async_one:,.0f} | {raw_one / async_one:.2f}x "
              f"| {sync_one:,.0f} | {raw_one / sync_one:.2f}x | {raw_cpu:.0f} / {async_cpu:.0f} / {sync_cpu:.0f} "
              f"| {raw_many:,.0f} | {async_many:,.0f} | {raw_many / async_many:.2f}x |", flush=True)
    drive = pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "bench" / "drive.py"
    if drive.is_file():
        print("\n`drive.py` on the same binary, for reference:\n")
        for workload in ("ping", "create", "get"):
            with tempfile.TemporaryDirectory() as folder:
                done = subprocess.run([sys.executable, str(drive), workload, str(options.pipelined), "--",
                                       *argv(binary, folder, "drive")], capture_output=True, text=True)
            print(f"    {done.stdout.strip()}")


if __name__ == "__main__":
    main()
