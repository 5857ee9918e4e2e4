"""The MCP protocol versions satchel speaks, as the SDK negotiates them: the `initialize` handshake (SDK 1.x,
and SDK 2.x's `mode="legacy"`), and 2026-07-28 (SDK 2.x's default `mode="auto"`: `server/discover`, then
each request's version in its `_meta`; or a version pinned without asking).
"""
import asyncio

import pytest

import mcp
from mcp import StdioServerParameters

from mcp_session import BINARY, HANDSHAKE_MODES, SDK2, field, run

HANDSHAKE_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
MODERN = "2026-07-28"


def test_connecting_names_the_server_its_tools_and_the_newest_version_both_speak(mode):
    async def scenario(session, init):
        assert init.capabilities.tools is not None
        if mode in HANDSHAKE_MODES:
            assert field(init, "server_info").name == "satchel"
            assert field(init, "protocol_version") == HANDSHAKE_VERSIONS[0]
        else:
            assert session.protocol_version == MODERN
            assert field(init, "supported_versions") == [MODERN, *HANDSHAKE_VERSIONS]
            assert session.server_info.name == "satchel"  # the discover result's _meta stamp

    run(scenario, mode)


def client(**options):
    return mcp.Client(StdioServerParameters(command=BINARY, args=["--memory"]), **options)


@pytest.mark.skipif(not SDK2, reason="SDK 1.x speaks the handshake only")
def test_a_pinned_2026_client_is_served_without_discover_or_initialize():
    """`mode="2026-07-28"`: the SDK asks nothing first; every request carries the version in `_meta`."""
    async def main():
        async with client(mode=MODERN) as pinned:
            assert pinned.protocol_version == MODERN
            created = await pinned.call_tool("notes_create", {"title": "no handshake"})
            assert not created.is_error
            listed = await pinned.call_tool("notes_list", {})
            assert [note["title"] for note in listed.structured_content["items"]] == ["no handshake"]

    asyncio.run(main())


@pytest.mark.skipif(not SDK2, reason="SDK 1.x speaks the handshake only")
def test_a_version_the_server_does_not_speak_is_refused_naming_those_it_does():
    """-32022 with `data.supported` and `data.requested`, as the SDK reads them to pick a version again."""
    async def main():
        async with client(mode="legacy") as legacy:
            with pytest.raises(mcp.MCPError) as refused:
                await legacy.session.send_discover("2099-01-01")
            assert refused.value.error.code == -32022
            assert refused.value.error.data == {"supported": [MODERN, *HANDSHAKE_VERSIONS], "requested": "2099-01-01"}
            # The connection goes on.
            assert not (await legacy.call_tool("notes_list", {})).is_error

    asyncio.run(main())
