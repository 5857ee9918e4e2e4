#!/usr/bin/env python3
"""Bounded work on hostile input: for each input, how long satchel takes to answer it, how long a `ping`
sent right behind it waits, and satchel's peak memory (VmHWM) afterwards.

usage: bench_bounded.py [--binary PATH] [--only NAME]
Each case runs in a fresh satchel on a temporary database file, over raw pipes (the request and the ping
are written in one `write`, as a pipelining client would). Inputs past the documented bounds are answered
with an error, which is measured the same way.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from satchel_client import find_binary


class Raw:
    """satchel over raw pipes: lines in, (time, message) out."""

    def __init__(self, binary: str, args: list[str]) -> None:
        self.binary, self.args = binary, args
        self.last_peak = float("nan")
        self.process = subprocess.Popen([binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL)
        self.buffer = b""
        self.next_id = 1

    def send(self, *requests: tuple[str, dict]) -> list[int]:
        ids, lines = [], []
        for method, params in requests:
            ids.append(self.next_id)
            lines.append(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
            self.next_id += 1
        assert self.process.stdin
        self.process.stdin.write(("\n".join(lines) + "\n").encode())
        self.process.stdin.flush()
        return ids

    def answers(self, ids: list[int], timeout: float = 120) -> dict[int, tuple[float, dict]]:
        """Waits for the answers to `ids`: each with the moment it arrived."""
        found: dict[int, tuple[float, dict]] = {}
        deadline = time.perf_counter() + timeout
        assert self.process.stdout
        fd = self.process.stdout.fileno()
        while len(found) < len(ids) and time.perf_counter() < deadline:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                message = json.loads(line)
                if message.get("id") in ids:
                    found[message["id"]] = (time.perf_counter(), message)
            if len(found) == len(ids):
                break
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    break
                self.buffer += chunk
        return found

    def call(self, method: str, params: dict) -> dict:
        [id] = self.send((method, params))
        return self.answers([id])[id][1]

    def peak_mib(self) -> float:
        """The peak resident memory so far (of a process that has ended: the last one measured)."""
        try:
            with open(f"/proc/{self.process.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        self.last_peak = int(line.split()[1]) / 1024
        except FileNotFoundError:
            pass
        return self.last_peak

    def close(self) -> None:
        assert self.process.stdin
        if not self.process.stdin.closed:
            self.process.stdin.close()
        self.process.wait(timeout=120)


def timed(raw: Raw, method: str, params: dict) -> tuple[float, float, str]:
    """Sends the request and a ping together: (its answer's seconds, the ping's seconds, what it answered)."""
    started = time.perf_counter()
    request, ping = raw.send((method, params), ("ping", {}))
    found = raw.answers([request, ping])
    answer_at, answer = found.get(request, (float("nan"), {}))
    ping_at, _ = found.get(ping, (float("nan"), {}))
    if "error" in answer:
        what = "error " + str(answer["error"].get("data", {}).get("reason", answer["error"]["code"]))
    elif method == "search":
        what = f"{len(answer['result']['hits'])} hits"
    else:
        what = "ok"
    return answer_at - started, ping_at - started, what


def search_case(content: dict, queries: list[str]) -> Callable[[Raw], list[tuple[str, float, float, str]]]:
    def run(raw: Raw) -> list[tuple[str, float, float, str]]:
        method, params = next(iter(content.items()))
        stored = raw.call(method, params)
        assert "result" in stored, stored
        rows = []
        for query in queries:
            label = f"search {query[:12]!r}{'…' if len(query) > 12 else ''} ({len(query)} chars)"
            rows.append((label, *timed(raw, "search", {"query": query})))
        return rows
    return run


def burst(raw: Raw) -> list[tuple[str, float, float, str]]:
    """100,000 notes pipelined, then a search that must index them all first, with a ping behind it."""
    for start in range(0, 100_000, 1000):
        ids = raw.send(*[("notes.create", {"title": f"burst {i}", "content": f"river station {i % 97}"})
                         for i in range(start, start + 1000)])
        raw.answers(ids)
    return [("search 'burst 1234' after 100,000 creates", *timed(raw, "search", {"query": "burst 1234"}))]


def import_elsewhere(raw: Raw) -> list[tuple[str, float, float, str]]:
    """Another process imports 100,000 notes into the same file while this one is subscribed: this one's
    pings meanwhile (the worst wait), and how long it takes to exit once its input closes."""
    path = raw.args[raw.args.index("--db") + 1]
    raw.call("changes.subscribe", {})
    notes = [{"id": f"note_i{i}", "title": f"imported {i}", "content": "x" * 40,
              "color": {"hue": 0, "saturation": 0, "brightness": 1}, "deadline": None,
              "createdAt": "2026-01-01T00:00:00.000Z", "updatedAt": "2026-01-01T00:00:00.000Z", "revision": 1}
             for i in range(100_000)]
    document = {"format": "satchel", "version": 1, "images": [], "notes": notes, "photos": [], "reminders": [],
                "diary": [], "messages": [], "messageFeeds": [], "board": []}
    folder = os.path.dirname(path)
    with open(os.path.join(folder, "import.json"), "w") as file:
        json.dump(document, file)
    other = Raw(raw.binary, ["--db", path])
    started = time.perf_counter()
    [importing] = other.send(("import", {"path": os.path.join(folder, "import.json"), "mode": "merge"}))
    worst = 0.0
    done = False
    while not done:
        before = time.perf_counter()
        raw.call("ping", {})
        worst = max(worst, time.perf_counter() - before)
        done = bool(other.answers([importing], timeout=0.05))
    took = time.perf_counter() - started
    other.close()
    for _ in range(20):  # what the notifier still has to say
        before = time.perf_counter()
        raw.call("ping", {})
        worst = max(worst, time.perf_counter() - before)
    raw.peak_mib()
    before = time.perf_counter()
    raw.close()
    exit_seconds = time.perf_counter() - before
    return [(f"import of 100,000 elsewhere ({took:.1f} s)", worst, worst, f"exit {exit_seconds:.3f} s")]


CASES: dict[str, Callable[[Raw], list[tuple[str, float, float, str]]]] = {
    "burst": burst,
    "import-elsewhere": import_elsewhere,
    "w-run": search_case({"notes.create": {"content": "w" * 1_000_000}},
                         ["w" * 10, "w" * 30, "w" * 64, " ".join("w" * (10 + i) for i in range(32)), "w" * 5000]),
    "ab-run": search_case({"notes.create": {"content": "ab" * 50_000}}, ["ab" * 32, "ab" * 50]),
    "dashes": search_case({"notes.create": {"content": "-" * 20_000}}, ["-" * 20, "-" * 19 + "x"]),
    "one-letter-100k": search_case({"diary.create": {"text": "q" * 100_000}}, ["q" * 30, "q" * 29 + "z"]),
    "marks": search_case({"notes.create": {"title": "a" + "\u0301" * 31}},
                         ["a" + "\u0301" * 31, "a" + "\u0301" * 200_000]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary")
    parser.add_argument("--only")
    options = parser.parse_args()
    binary = find_binary(options.binary)
    print(f"cores: {os.cpu_count()}")
    print(f"{'input':<48} {'answer s':>9} {'ping s':>8} {'peak MiB':>9}  answer")
    for name, case in CASES.items():
        if options.only and name != options.only:
            continue
        with tempfile.TemporaryDirectory() as folder:
            raw = Raw(binary, ["--db", os.path.join(folder, "bench.sqlite")])
            try:
                for label, answer, ping, what in case(raw):
                    print(f"{name + ': ' + label:<48} {answer:9.3f} {ping:8.3f} {raw.peak_mib():9.1f}  {what}",
                          flush=True)
            finally:
                raw.close()


if __name__ == "__main__":
    sys.exit(main())
