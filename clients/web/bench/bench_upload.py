#!/usr/bin/env python3
"""Four 9 MB photos saved as one post through the bridge, as the page does it: each sent as a file to
``POST /uploads`` (streamed to the page's satchel in chunks), then ``diary.create`` with their upload ids
over the page's WebSocket. Prints the time from the first byte sent to the saved post, median of runs.

usage: bench_upload.py [--runs N] [--binary PATH]   (the satchel binary: else as satchel-client finds it)
The photos are PNGs of noise made here (noise does not compress: 9 MB each, 1,800×1,666 pixels).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib

import aiohttp

from satchel_client import find_binary


def noisy_png(width: int, height: int, seed: int) -> bytes:
    generator = random.Random(seed)
    rows = b"".join(b"\x00" + generator.randbytes(width * 3) for _ in range(height))
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b""))


async def save_post(origin: str, token: str, photos: list[bytes]) -> float:
    headers = {"Origin": origin}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.ws_connect(f"{origin}/ws?token={token}", max_msg_size=0) as ws:
            page = None
            while page is None:
                message = json.loads((await ws.receive()).data)
                if message.get("method") == "bridge/status" and message["params"].get("state") == "ready":
                    page = message["params"]["page"]
            started = time.perf_counter()
            images = []
            for photo in photos:
                async with session.post(f"{origin}/uploads?page={page}&token={token}", data=photo,
                                        headers={"Content-Type": "application/octet-stream"}) as answer:
                    body = await answer.json()
                    assert answer.status == 200, body
                    images.append({"uploadId": body["uploadId"]})
            await ws.send_str(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "diary.create",
                                          "params": {"text": "four", "images": images}}))
            while True:
                message = json.loads((await ws.receive()).data)
                if message.get("id") == 1:
                    assert "result" in message, message
                    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary")
    options = parser.parse_args()
    binary = find_binary(options.binary)
    photos = [noisy_png(1800, 1666, seed) for seed in range(4)]
    times = []
    with tempfile.TemporaryDirectory() as folder:
        bridge = subprocess.Popen(
            [sys.executable, "-m", "satchel_web", "--port", "0", "--db", os.path.join(folder, "b.sqlite")],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "SATCHEL_BINARY": binary})
        try:
            line = ""
            while not (found := re.search(r"(http://127\.0\.0\.1:\d+)/\?token=([\w-]+)", line)):
                line = bridge.stdout.readline()
                if not line:
                    raise SystemExit("the bridge printed no URL")
            origin, token = found.groups()
            for _ in range(options.runs):
                times.append(asyncio.run(save_post(origin, token, photos)))
        finally:
            bridge.terminate()
            bridge.wait()
    sizes = ", ".join(f"{len(photo) / 1e6:.1f}" for photo in photos)
    print(f"four photos ({sizes} MB) uploaded and saved as one post, {os.cpu_count()} cores, {binary}: "
          f"median {statistics.median(times):.2f} s [{min(times):.2f}-{max(times):.2f}] of {len(times)} runs")


if __name__ == "__main__":
    main()
