"""Finding the ``satchel`` binary and building its command line; the server's stderr as log records."""
from __future__ import annotations

import logging
import os
import pathlib
import shutil
from collections.abc import Mapping, Sequence

from .errors import BinaryNotFound

SERVER_LOG = logging.getLogger("satchel.server")

_LEVELS = {"error": logging.ERROR, "warn": logging.WARNING, "info": logging.INFO, "debug": logging.DEBUG}


def find_binary(binary: str | os.PathLike[str] | None = None, start: pathlib.Path | None = None) -> str:
    """The server to run: ``binary``, else ``$SATCHEL_BINARY``, else ``satchel`` on ``PATH``, else a
    checkout's ``.build/release/satchel`` or ``.build/debug/satchel`` (the checkout around ``start``, by
    default the working directory)."""
    if binary is not None:
        path = os.fspath(binary)
        resolved = shutil.which(path) if os.sep not in path else (path if runnable(path) else None)
        if resolved is None:
            raise BinaryNotFound(f"the satchel binary {path!r} {why_not(path)}")
        return resolved
    from_env = os.environ.get("SATCHEL_BINARY")
    if from_env:
        if not runnable(from_env):
            raise BinaryNotFound(f"$SATCHEL_BINARY names {from_env!r}, which {why_not(from_env)}")
        return from_env
    on_path = shutil.which("satchel")
    if on_path:
        return on_path
    looked: list[str] = []
    origin = (start or pathlib.Path.cwd()).resolve()
    for folder in (origin, *origin.parents):
        if not (folder / "Package.swift").is_file():
            continue
        for flavour in ("release", "debug"):
            candidate = folder / ".build" / flavour / "satchel"
            looked.append(str(candidate))
            if runnable(candidate):
                return str(candidate)
        break
    checkout = ", ".join(looked) if looked else "no Satchel checkout around the working directory"
    raise BinaryNotFound(
        "no satchel binary found: pass binary=..., set $SATCHEL_BINARY, put `satchel` on PATH, or build a "
        f"checkout (`swift build -c release`) so that .build/release/satchel or .build/debug/satchel exists "
        f"(looked at: {checkout})"
    )


def runnable(path: str | os.PathLike[str]) -> bool:
    """A file this process may execute (a folder has the execute bit too, and is not one)."""
    return os.path.isfile(path) and os.access(path, os.X_OK)


def why_not(path: str) -> str:
    """Why ``path`` cannot be run, in words."""
    if os.path.isdir(path):
        return "is a directory, not an executable"
    if os.path.exists(path):
        return "is not executable"
    return "does not exist or is not executable"


def command(
    binary: str | os.PathLike[str] | None,
    db: str | os.PathLike[str] | None,
    memory: bool,
    args: Sequence[str],
) -> list[str]:
    """The argument vector that starts the server."""
    if db is not None and memory:
        raise ValueError("pass either db=... or memory=True, not both")
    argv = [find_binary(binary)]
    if db is not None:
        argv += ["--db", os.fspath(db)]
    if memory:
        argv.append("--memory")
    if isinstance(args, (str, bytes)):
        raise TypeError("args is a sequence of arguments, not one string")
    return argv + [str(arg) for arg in args]


def environment(env: Mapping[str, str] | None) -> dict[str, str] | None:
    """The server's environment: this process's, with ``env`` laid over it."""
    return None if env is None else {**os.environ, **env}


def log_server_line(line: str) -> None:
    """Passes one line of the server's stderr to the ``satchel.server`` logger, at the level it names."""
    text = line.rstrip("\r\n")
    if not text:
        return
    level = logging.WARNING
    if text.startswith("satchel: "):
        name, _, rest = text[len("satchel: "):].partition(": ")
        if name in _LEVELS:
            level, text = _LEVELS[name], rest
    SERVER_LOG.log(level, "%s", text)
