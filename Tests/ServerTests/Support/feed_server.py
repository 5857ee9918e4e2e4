#!/usr/bin/env python3
"""A message feed for tests: serves GET /feed?offset=N&limit=M over HTTP on 127.0.0.1.

usage: feed_server.py COUNT [--shape result|messages] [--fail-first N] [--delay S] [--malformed]
                      [--endless fast|slow] [--ignore-limit] [--text-size N]
Prints the port on its first line, then serves until stdin closes. COUNT messages exist, newest first.
--endless: a body that never ends (fast: as fast as it is read; slow: a byte every 50 ms);
--ignore-limit: every message from offset on, whatever the limit; --text-size: each text that long.
Every request is logged to stderr as "offset limit status".
"""
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

args = sys.argv[1:]
count = int(args[0])
shape = args[args.index("--shape") + 1] if "--shape" in args else "messages"
fail_first = int(args[args.index("--fail-first") + 1]) if "--fail-first" in args else 0
delay = float(args[args.index("--delay") + 1]) if "--delay" in args else 0.0
malformed = "--malformed" in args
endless = args[args.index("--endless") + 1] if "--endless" in args else None
ignore_limit = "--ignore-limit" in args
text_size = int(args[args.index("--text-size") + 1]) if "--text-size" in args else 0
state = {"requests": 0}
lock = threading.Lock()


def message(index):
    return {
        "id": f"m{index}",
        "text": f"message {index}" + "x" * max(0, text_size - len(f"message {index}")),
        "sentAt": f"2026-01-01T00:{(count - index) // 60 % 60:02d}:{(count - index) % 60:02d}.000Z",
        "author": {"name": f"user {index % 3}", "avatarUrl": "https://example.org/a.png" if index % 2 else "ftp://nope"},
    }


class Feed(BaseHTTPRequestHandler):
    def do_GET(self):
        query = parse_qs(urlparse(self.path).query)
        offset, limit = int(query["offset"][0]), int(query["limit"][0])
        with lock:
            state["requests"] += 1
            failing = state["requests"] <= fail_first
        if delay:
            time.sleep(delay)
        if endless:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            try:
                self.wfile.write(b'{"messages": [')
                while True:
                    if endless == "slow":
                        self.wfile.write(b" ")
                        self.wfile.flush()
                        time.sleep(0.05)
                    else:
                        self.wfile.write(b" " * 65536)
            except OSError:  # satchel hung up
                pass
            print(f"{offset} {limit} endless", file=sys.stderr, flush=True)
            return
        if failing:
            self.send_response(503)
            self.end_headers()
            self.wfile.write(b"try later")
            status = 503
        else:
            indexes = range(offset, count if ignore_limit else min(count, offset + limit))
            if malformed:
                body = b'{"messages": [{"text": 5}]}'
            elif shape == "result":
                body = json.dumps({"result": [f"message {i}" for i in indexes]}).encode()
            else:
                body = json.dumps({"messages": [message(i) for i in indexes]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            status = 200
        print(f"{offset} {limit} {status}", file=sys.stderr, flush=True)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Feed)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
