"""Dependencies point downward: api → service → engine/store/embed/llm → model.

Parses imports with ``ast`` so a layer reaching upward fails the build.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "omoide"

ENGINE_ALLOWED = {"omoide.model", "omoide.errors", "omoide.engine", "numpy"}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def modules(package: str) -> list[Path]:
    return sorted((SRC / package).rglob("*.py"))


@pytest.mark.parametrize("path", modules("engine"), ids=lambda p: p.name)
def test_engine_is_pure(path: Path) -> None:
    for name in imports_of(path):
        top = name.split(".")[0]
        if top == "omoide":
            assert any(name == a or name.startswith(a + ".") for a in ENGINE_ALLOWED), name
        else:
            assert top in {"numpy"} or _is_stdlib(top), f"{path.name} imports {name}"


def _is_stdlib(top: str) -> bool:
    import sys

    return top in sys.stdlib_module_names or top == "__future__"


@pytest.mark.parametrize("package", ["engine", "store", "embed", "llm", "service"])
def test_nothing_below_api_imports_web_or_mcp(package: str) -> None:
    for path in modules(package):
        for name in imports_of(path):
            top = name.split(".")[0]
            assert top not in {"fastapi", "starlette", "mcp", "uvicorn"}, f"{path}: {name}"
            assert not name.startswith("omoide.api"), f"{path}: {name}"
            assert name != "omoide.cli", f"{path}: {name}"


def test_only_config_reads_the_environment() -> None:
    for path in SRC.rglob("*.py"):
        # e5.py sets the OpenMP wait policy for the library it loads (a write, not a setting).
        if path.name in {"config.py", "e5.py"}:
            continue
        text = path.read_text(encoding="utf-8")
        assert "os.environ" not in text and "getenv" not in text, path
