"""``python -m satchel_web [--port N] [--binary PATH] [satchel flags...]``: the bridge's command line.

Prints one line on stdout once it listens, ``Satchel web: http://127.0.0.1:PORT/?token=TOKEN``; logs go to
stderr. Every flag it does not know goes to each satchel unchanged.
"""
from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

from satchel_client import BinaryNotFound, find_binary

from .bridge import Options, run
from .exchange import MAX_UPLOAD_BYTES

LOG = logging.getLogger("satchel.web")


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m satchel_web", allow_abbrev=False,
        description="The five Satchel apps in the browser: serves the app on 127.0.0.1 and gives every open "
                    "page a satchel of its own, all on one database.",
        epilog="Every other flag goes to satchel unchanged (--locale L, --free-limit N, --messages-feed URL, "
               "...; see `satchel --help`).",
    )
    parser.add_argument("--port", type=port, default=8765, help="the port to listen on; 0: any free one "
                        "(default: 8765)")
    parser.add_argument("--binary", help="the satchel to run (default: $SATCHEL_BINARY, `satchel` on PATH, "
                        "else the checkout's .build/release or .build/debug)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db", metavar="PATH", help="the database every page shares (default: satchel's own)")
    where.add_argument("--memory", action="store_true",
                       help="a temporary database, shared by every page and removed at exit")
    parser.add_argument("--demo", action="store_true", help="fill an empty database with sample data first")
    parser.add_argument("--max-import-bytes", type=size, default=MAX_UPLOAD_BYTES, metavar="N",
                        help=f"the largest file an import may send (default: {MAX_UPLOAD_BYTES}, 4 GiB)")
    return parser


def port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0 to 65535)")
    return value


def size(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a size in bytes (1 or more)")
    return value


def options(argv: Sequence[str] | None = None) -> Options:
    """The command line as ``Options``; exits 2 (with a message) when it is wrong."""
    known, rest = parser().parse_known_args(argv)
    try:
        binary = find_binary(known.binary)
    except BinaryNotFound as problem:
        LOG.error("%s", problem)
        raise SystemExit(2) from None
    return Options(binary=binary, port=known.port, db=known.db, memory=known.memory, demo=known.demo,
                   args=tuple(rest), max_import_bytes=known.max_import_bytes)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the bridge until SIGINT or SIGTERM; the exit code."""
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    return run(options(argv))


if __name__ == "__main__":
    sys.exit(main())
