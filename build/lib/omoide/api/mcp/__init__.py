"""MCP server (official ``mcp`` SDK): the tools, stdio for desktop clients, HTTP at /mcp."""

from omoide.api.mcp.http import McpEndpoint
from omoide.api.mcp.server import build_mcp_server, fixed_persona
from omoide.api.mcp.stdio import run_stdio

__all__ = ["McpEndpoint", "build_mcp_server", "fixed_persona", "run_stdio"]
