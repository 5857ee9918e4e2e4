"""Runs satchel as an MCP server under the official MCP Python SDK, the way each SDK connects.

SDK 1.x has one way: the `initialize` handshake ("handshake"). SDK 2.x has two: `mode="legacy"`, the same
handshake, and its default, `mode="auto"`, which asks `server/discover` and speaks 2026-07-28 (no
handshake, no roots, the version in each request's `_meta`) when the server answers it.
"""
import asyncio
import base64
import os
import pathlib

import mcp
import mcp.types as types
from mcp import StdioServerParameters

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("SATCHEL_BINARY", str(ROOT / ".build" / "debug" / "satchel"))

#: Whether this is SDK 2.x, whose `Client` chooses how to connect.
SDK2 = hasattr(mcp, "Client")
#: The ways this SDK connects.
MODES = ["legacy", "auto"] if SDK2 else ["handshake"]
#: The modes that speak a handshake version, where a client may have roots.
HANDSHAKE_MODES = ("handshake", "legacy")

#: A 4x3 PNG, for photos handed over by path.
PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAQAAAADCAIAAAA7ljmRAAAAEElEQVR4nGM4EaABRww4OQAsNg8BoqhHXQAAAABJRU5ErkJggg==")


def field(model, name):
    """Reads a field of an MCP SDK model by its snake_case name (as in SDK 2.x), or by its camelCase name in SDK 1.x."""
    if name in type(model).model_fields:
        return getattr(model, name)
    first, *rest = name.split("_")
    return getattr(model, first + "".join(word.capitalize() for word in rest))


def run(scenario, mode, roots=None, args=()):
    """Runs `scenario(session, init)` against a new satchel (started with `args` too), connected in `mode`;
    `init` is what connecting answered (`initialize`'s or `server/discover`'s result). With `roots` (a list
    of folders, which the scenario may change), the client declares MCP's roots capability and answers
    `roots/list` with them."""
    async def list_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=folder.as_uri(), name=folder.name) for folder in roots])

    callback = list_roots if roots is not None else None
    params = StdioServerParameters(command=BINARY, args=["--memory", *args])

    async def main():
        if mode == "handshake":
            from mcp import ClientSession
            from mcp.client.stdio import stdio_client

            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write, list_roots_callback=callback) as session:
                    return await scenario(session, await session.initialize())
        async with mcp.Client(params, mode=mode, list_roots_callback=callback) as client:
            session = client.session
            return await scenario(session, session.initialize_result or session.discover_result)

    return asyncio.run(main())


def error_of(result):
    """The `data` of a tool's error result (reason and field)."""
    assert field(result, "is_error"), result
    return field(result, "structured_content")["error"]["data"]
