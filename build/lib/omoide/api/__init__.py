"""Interfaces: HTTP (FastAPI) and MCP. Thin: validate, call one service method, render."""
