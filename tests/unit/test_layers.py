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


# -- the storage port (issue 11) ---------------------------------------------------------------

# Store modules every layer may use: the port itself and the in-memory vector index. Every
# other module under store/ belongs to an adapter (sqlite, postgres, …).
STORE_SHARED = {"omoide.store", "omoide.store.port", "omoide.store.vectors"}


def _adapters() -> set[str]:
    return {f"omoide.store.{p.name}" for p in (SRC / "store").iterdir()
            if p.is_dir() and (p / "__init__.py").exists()}


def _outside_store() -> list[Path]:
    """Every module but the store package and the composition root."""
    return [p for p in sorted(SRC.rglob("*.py"))
            if p.relative_to(SRC).parts[0] != "store"
            and p.relative_to(SRC).as_posix() != "wiring.py"]


def test_there_is_an_adapter_to_guard() -> None:
    assert "omoide.store.sqlite" in _adapters()


@pytest.mark.parametrize("path", _outside_store(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_only_store_and_wiring_import_an_adapter(path: Path) -> None:
    for name in imports_of(path):
        for adapter in _adapters():
            assert not (name == adapter or name.startswith(adapter + ".")), f"{path}: {name}"


@pytest.mark.parametrize("package", ["service", "api", "engine", "llm", "embed"])
def test_layers_above_the_store_see_only_the_port(package: str) -> None:
    for path in modules(package):
        for name in imports_of(path):
            if name.startswith("omoide.store"):
                assert name in STORE_SHARED, f"{path}: {name}"
            assert name != "sqlite3", f"{path}: {name}"


@pytest.mark.parametrize("module", ["cli.py", "jobs.py"])
def test_cli_and_jobs_see_only_the_port(module: str) -> None:
    for name in imports_of(SRC / module):
        if name.startswith("omoide.store"):
            assert name in STORE_SHARED, f"{module}: {name}"
        assert name != "sqlite3", f"{module}: {name}"
        assert name != "omoide.wiring" or module == "cli.py", f"{module}: {name}"


def test_model_is_a_leaf() -> None:
    """Domain types import nothing from the project at import time but errors and themselves."""
    for path in modules("model"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = {n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module}
        for name in top:
            if name.split(".")[0] == "omoide":
                assert name == "omoide.errors" or name.startswith("omoide.model"), \
                    f"{path}: {name}"


def _reaches_into_the_store(path: Path) -> list[str]:
    """``app.store`` / ``app.jobs`` (or ``omoide.…``): a route or command doing a service's job."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{node.value.id}.{node.attr}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in {"store", "jobs"}
            and isinstance(node.value, ast.Name) and node.value.id in {"app", "omoide"}]


@pytest.mark.parametrize("path", [*modules("api"), SRC / "cli.py"],
                         ids=lambda p: p.relative_to(SRC).as_posix())
def test_routes_and_commands_call_services_not_the_store(path: Path) -> None:
    assert _reaches_into_the_store(path) == [], path
