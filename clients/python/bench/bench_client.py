#!/usr/bin/env python3
"""What satchel-client costs: calls/s through AsyncSatchel (and Satchel) against a raw pipe doing the same
requests, one at a time and pipelined, in one run and interleaved, so the machine's noise hits all alike.

usage: bench_client.py [--binary PATH] [--one N] [--pipelined N] [--rounds R] [--before SRC] [--instructions]
The raw pipe is the least a client can do: json.dumps, one write, read one line, json.loads; pipelined, it
writes all its lines at once from a thread, as ../shared/bench/drive.py does (whose own figures follow the
table when that file is there). The bare asyncio loop is the least an asyncio client can do: the same
requests, each answer read by a reader callback of the event loop and handed to the caller's future.
--pipelined 0 measures one call at a time only; --before SRC also runs, alternating in every round, the
satchel_client package found in the folder SRC (an older checkout's clients/python/src), for ratios of a
change measured in the same run. Ratios are given with their spread over the rounds: median [min-max].
--instructions counts instead the instructions the client process executes a call (under valgrind's
callgrind: a run of 3,500 calls less one of 500), which the machine's noise does not touch.
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
    return one / single.wall, single.cpu / one * 1e6, pipelined / many if pipelined else 0.0


def bare_asyncio_round(binary: str, folder: str, workload: str, one: int) -> tuple[float, float]:
    async def main() -> tuple[float, float]:
        pipe = RawPipe(argv(binary, folder, f"bare-{workload}"))
        ids = [pipe.call("notes.create", {"title": f"n{i}"})["id"] for i in range(200)]
        output = pipe.process.stdout.fileno()
        os.set_blocking(output, False)
        loop = asyncio.get_running_loop()
        waiting: dict[int, asyncio.Future] = {}

        def readable() -> None:
            pipe.buffer += os.read(output, 1 << 16)
            *lines, pipe.buffer = pipe.buffer.split(b"\n")
            for line in lines:
                answer = json.loads(line)
                waiting.pop(answer["id"]).set_result(answer["result"])

        loop.add_reader(output, readable)
        with Clock() as single:
            for i in range(one):
                line = pipe.line(workload, params_for(workload, i, ids))
                waiting[pipe.next_id] = future = loop.create_future()
                os.write(pipe.process.stdin.fileno(), line)
                await future
        loop.remove_reader(output)
        pipe.close()
        return one / single.wall, single.cpu / one * 1e6

    return asyncio.run(main())


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
        return one / single.wall, single.cpu / one * 1e6, pipelined / many if pipelined else 0.0

    return asyncio.run(main())


def sync_round(binary: str, folder: str, workload: str, one: int) -> tuple[float, float]:
    with Satchel(binary, db=os.path.join(folder, f"sync-{workload}.sqlite")) as s:
        ids = [s.notes.create(title=f"n{i}")["id"] for i in range(200)]
        with Clock() as single:
            for i in range(one):
                s.call(workload, params_for(workload, i, ids))
        return one / single.wall, single.cpu / one * 1e6


HERE = pathlib.Path(__file__).resolve().parent


def measure(kind: str, binary: str, workload: str, one: int, pipelined: int, src: pathlib.Path) -> list[float]:
    """One round of one client, in a Python of its own that imports satchel_client from ``src``."""
    done = subprocess.run(
        [sys.executable, str(HERE / "bench_client.py"), "--round", kind, "--binary", binary, "--one", str(one),
         "--pipelined", str(pipelined), workload],
        env={**os.environ, "PYTHONPATH": str(src)}, capture_output=True, text=True, check=True,
    )
    return json.loads(done.stdout)


def instructions(kind: str, binary: str, workload: str, src: pathlib.Path) -> float:
    """Instructions of the client process a call, for one client (callgrind; 3,500 calls less 500)."""
    counts = []
    for calls in (500, 3500):
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             str(HERE / "bench_client.py"), "--round", kind, "--binary", binary, "--one", str(calls),
             "--pipelined", "0", workload],
            env={**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}, capture_output=True, text=True,
            check=True,
        )
        counts.append(int(done.stderr.rsplit("Collected : ", 1)[1].split()[0]))
    return (counts[1] - counts[0]) / 3000


def print_instructions(binary: str, workloads: list[str], libraries: dict[str, pathlib.Path]) -> None:
    print(f"## satchel-client: instructions of the client process a call ({binary}, one at a time, callgrind)\n")
    print("| workload | raw loop | bare asyncio loop | " + " | ".join(
        f"`Satchel` {name} | `AsyncSatchel` {name}" for name in libraries) + " |")
    print("| --- | --- | --- | " + " | ".join("--- | ---" for _ in libraries) + " |")
    for workload in workloads:
        now = libraries["now"]
        cells = [instructions("raw", binary, workload, now), instructions("bare", binary, workload, now)]
        for src in libraries.values():
            cells += [instructions("sync", binary, workload, src), instructions("async", binary, workload, src)]
        print(f"| `{workload}` | " + " | ".join(f"{cell / 1000:.1f} k" for cell in cells) + " |", flush=True)


def run_round(kind: str, binary: str, workload: str, one: int, pipelined: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder:
        if kind == "raw":
            return list(raw_round(binary, folder, workload, one, pipelined))
        if kind == "bare":
            return list(bare_asyncio_round(binary, folder, workload, one))
        if kind == "async":
            return list(async_round(binary, folder, workload, one, pipelined))
        return list(sync_round(binary, folder, workload, one))


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}x [{min(values):.2f}-{max(values):.2f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=None)
    parser.add_argument("--one", type=int, default=3000, help="one-at-a-time calls per run")
    parser.add_argument("--pipelined", type=int, default=20000, help="pipelined calls per run (0: none)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", type=pathlib.Path, help="another satchel_client's src folder, to compare")
    parser.add_argument("--instructions", action="store_true", help="instructions a call (valgrind), not time")
    parser.add_argument("--round", help=argparse.SUPPRESS)
    parser.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    options = parser.parse_args()
    binary = find_binary(options.binary)
    if options.round:
        print(json.dumps(run_round(options.round, binary, options.workloads[0], options.one, options.pipelined)))
        return
    libraries = {"now": HERE.parent / "src"}
    if options.before:
        libraries["before"] = options.before.resolve()
    if options.instructions:
        print_instructions(binary, options.workloads, libraries)
        return
    print(f"## satchel-client against a raw pipe ({binary}, {os.cpu_count()} cores, {options.rounds} rounds, "
          "each client in a Python of its own, in turn; rates and CPU: medians; ratio = time per call / the raw "
          "loop's in the same round, median [min-max]; CPU = the client process's own, µs per call)\n")
    print("| workload | library | raw 1-at-a-time/s | AsyncSatchel | ratio | Satchel (sync) | ratio "
          "| client CPU raw / async / sync | bare asyncio loop: ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    pipelined_rows = []
    for workload in options.workloads:
        rounds: dict[str, list[list[float]]] = {}
        for _ in range(options.rounds):
            plan = [("raw", "now"), ("bare", "now")] + [(kind, name) for name in libraries for kind in ("async", "sync")]
            for kind, name in plan:
                pipelined = options.pipelined if kind in ("raw", "async") and name == "now" else 0
                rounds.setdefault(f"{kind} {name}", []).append(
                    measure(kind, binary, workload, options.one, pipelined, libraries[name]))
        raw = rounds["raw now"]
        ratio = {key: [row[0] / each[0] for row, each in zip(raw, values)] for key, values in rounds.items()}
        rate = {key: statistics.median(each[0] for each in values) for key, values in rounds.items()}
        cpu = {key: statistics.median(each[1] for each in values) for key, values in rounds.items()}
        for name in libraries:
            bare = spread(ratio["bare now"]) if name == "now" else ""
            print(f"| `{workload}` | {name} | {rate['raw now']:,.0f} | {rate[f'async {name}']:,.0f} "
                  f"| {spread(ratio[f'async {name}'])} | {rate[f'sync {name}']:,.0f} | {spread(ratio[f'sync {name}'])} "
                  f"| {cpu['raw now']:.0f} / {cpu[f'async {name}']:.0f} / {cpu[f'sync {name}']:.0f} | {bare} |",
                  flush=True)
        if options.pipelined:
            raw_many = statistics.median(each[2] for each in raw)
            async_many = statistics.median(each[2] for each in rounds["async now"])
            pipelined_rows.append(f"| `{workload}` | {raw_many:,.0f} | {async_many:,.0f} | {raw_many / async_many:.2f}x |")
    if pipelined_rows:
        print(f"\n{options.pipelined:,} calls pipelined (AsyncSatchel: one task a call, `asyncio.gather`):\n")
        print("| workload | raw pipelined/s | AsyncSatchel pipelined | ratio |\n| --- | --- | --- | --- |")
        print("\n".join(pipelined_rows))
    drive = pathlib.Path(__file__).resolve().parents[3].parent / "shared" / "bench" / "drive.py"
    if drive.is_file() and options.pipelined:
        print("\n`drive.py` on the same binary, for reference:\n")
        for workload in ("ping", "create", "get"):
            with tempfile.TemporaryDirectory() as folder:
                done = subprocess.run([sys.executable, str(drive), workload, str(options.pipelined), "--",
                                       *argv(binary, folder, "drive")], capture_output=True, text=True)
            print(f"    {done.stdout.strip()}")


if __name__ == "__main__":
    main()
