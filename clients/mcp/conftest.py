"""Every MCP test runs in each way this SDK connects (`mode`); under SDK 2.x an MCPDeprecationWarning is an
error, so no test leans on what 2026-07-28 deprecates unless it says so (the roots of the handshake era)."""
import pytest

from mcp_session import MODES, SDK2


def pytest_configure(config):
    if SDK2:
        config.addinivalue_line("filterwarnings", "error::mcp.shared.exceptions.MCPDeprecationWarning")


@pytest.fixture(params=MODES)
def mode(request):
    return request.param
