"""Dependencies point downward: api → service → engine/store/embed/llm → model; and each thing
that must exist once (the error body, the MCP tool plumbing, the memory's field list, the search
and history shapes, the "time since last access" rule) has one home.

Parses source with ``ast`` (or, for SQL and expressions, reads it as text) so a layer reaching
upward, or a second copy of a single source, fails the build.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "omoide"

ENGINE_ALLOWED = {"omoide.model", "omoide.engine", "numpy"}


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


@pytest.mark.parametrize("path", modules("engine"), ids=lambda p: str(p.relative_to(SRC)))
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


# Engine subpackages: each is used through its ``__init__`` (its public face) and depends only on
# the language layer, the model and the engine's own errors (``engine/errors.py``, a leaf). Other
# flat engine modules (fsrs, fusion, dates, …) are shared helpers a subpackage does not need
# today; a subpackage importing another subpackage or a flat module fails here, so a new
# dependency between them is a decision, not an accident.
SUBPACKAGES = ("classify", "consolidate", "segment", "lang")
SUBPACKAGE_ALLOWED = {"omoide.model", "omoide.engine.errors", "omoide.engine.lang"}
WORD_LISTS = {"engine/classify/lexicon.py"}  # data, exempt from the size rule
MAX_LINES = 400
REPO = SRC.parents[1]


def imported_names(path: Path) -> set[str]:
    """Like :func:`imports_of`, plus ``pkg.name`` for every ``from pkg import name``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = imports_of(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def _private_modules() -> set[str]:
    return {
        f"omoide.engine.{pkg}.{path.stem}"
        for pkg in SUBPACKAGES
        for path in (SRC / "engine" / pkg).glob("*.py")
        if path.stem != "__init__"
    }


@pytest.mark.parametrize("package", SUBPACKAGES)
def test_engine_subpackages_depend_only_on_lang_and_model(package: str) -> None:
    own = f"omoide.engine.{package}"
    for path in modules(f"engine/{package}"):
        for name in imports_of(path):
            if not name.startswith("omoide"):
                continue
            ok = name == own or name.startswith(own + ".") or name in SUBPACKAGE_ALLOWED
            assert ok, f"engine/{package}/{path.name} imports {name}"


def test_engine_subpackages_are_used_through_their_public_face() -> None:
    """Outside a subpackage, src and bench import ``omoide.engine.X``, never a module inside it
    (tests of a private module may)."""
    private = _private_modules()
    outside = [
        p
        for p in SRC.rglob("*.py")
        if not any(p.is_relative_to(SRC / "engine" / pkg) for pkg in SUBPACKAGES)
    ]
    for path in [*outside, *sorted((REPO / "bench").rglob("*.py"))]:
        reached = imported_names(path) & private
        assert not reached, f"{path.relative_to(REPO)} imports {sorted(reached)}"


def test_modules_stay_small() -> None:
    """Every module of the package, engine or not, has at most ``MAX_LINES`` lines (word lists
    excepted): past that, it is split by concept."""
    too_long = {
        path.relative_to(SRC).as_posix(): lines
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).as_posix() not in WORD_LISTS
        and (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert too_long == {}, f"modules over {MAX_LINES} lines: {too_long}"


@pytest.mark.parametrize("package", ["engine", "store", "embed", "llm", "service"])
def test_nothing_below_api_imports_web_or_mcp(package: str) -> None:
    for path in modules(package):
        for name in imports_of(path):
            top = name.split(".")[0]
            assert top not in {"fastapi", "starlette", "mcp", "uvicorn"}, f"{path}: {name}"
            assert not name.startswith("omoide.api"), f"{path}: {name}"
            assert name != "omoide.cli", f"{path}: {name}"


def test_the_http_connection_layer_knows_nothing_of_the_dashboard() -> None:
    """``api/http/protocol.py`` (the connection, before the app) asks the app for a refused
    request's page (``app.state.refusal_page``); it imported the dashboard to decide itself."""
    for name in imports_of(SRC / "api" / "http" / "protocol.py"):
        assert not name.startswith("omoide.api.http.dashboard"), name


def test_only_config_reads_the_environment() -> None:
    for path in SRC.rglob("*.py"):
        # e5.py sets the OpenMP wait policy for the library it loads (a write, not a setting).
        if path.relative_to(SRC).as_posix() in {"config/process.py", "embed/e5.py"}:
            continue
        text = path.read_text(encoding="utf-8")
        assert "os.environ" not in text and "getenv" not in text, path


# -- the storage port (issue 11) ---------------------------------------------------------------

# Store modules every layer may use: the port itself and the in-memory vector index. Every
# other module under store/ belongs to an adapter (sqlite, postgres, …).
STORE_SHARED = {"omoide.store", "omoide.store.port", "omoide.store.vectors"}


def _adapters() -> set[str]:
    return {
        f"omoide.store.{p.name}"
        for p in (SRC / "store").iterdir()
        if p.is_dir()
        and (p / "__init__.py").exists()
        and f"omoide.store.{p.name}" not in STORE_SHARED
    }


def test_the_port_depends_only_on_the_model() -> None:
    """The port's protocols name domain types and each other, never an adapter or a service."""
    for path in modules("store/port"):
        for name in imports_of(path):
            if name.startswith("omoide"):
                ok = name == "omoide.model" or name.startswith(
                    ("omoide.model.", "omoide.store.port")
                )
                assert ok, f"{_relative(path)} imports {name}"


def test_the_port_is_used_through_its_public_face() -> None:
    """Outside the port package, code imports ``omoide.store.port``, never a module in it."""
    inside = {f"omoide.store.port.{p.stem}" for p in (SRC / "store" / "port").glob("*.py")}
    for path in [*SRC.rglob("*.py"), *sorted((REPO / "bench").rglob("*.py"))]:
        if path.is_relative_to(SRC / "store" / "port"):
            continue
        reached = imported_names(path) & inside
        assert not reached, f"{path.relative_to(REPO)} imports {sorted(reached)}"


def _outside_store() -> list[Path]:
    """Every module but the store package and the composition root's storage wiring."""
    return [
        p
        for p in sorted(SRC.rglob("*.py"))
        if p.relative_to(SRC).parts[0] != "store"
        and p.relative_to(SRC).as_posix() != "wiring/storage.py"
    ]


def test_there_is_an_adapter_to_guard() -> None:
    assert "omoide.store.sqlite" in _adapters()


@pytest.mark.parametrize("path", _outside_store(), ids=lambda p: p.relative_to(SRC).as_posix())
def test_only_store_and_storage_wiring_import_an_adapter(path: Path) -> None:
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
                assert name == "omoide.errors" or name.startswith("omoide.model"), f"{path}: {name}"


def _reaches_into_the_store(path: Path) -> list[str]:
    """``app.store`` / ``app.jobs`` (or ``omoide.…``): a route or command doing a service's job."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{node.value.id}.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in {"store", "jobs"}
        and isinstance(node.value, ast.Name)
        and node.value.id in {"app", "omoide"}
    ]


@pytest.mark.parametrize(
    "path", [*modules("api"), SRC / "cli.py"], ids=lambda p: p.relative_to(SRC).as_posix()
)
def test_routes_and_commands_call_services_not_the_store(path: Path) -> None:
    assert _reaches_into_the_store(path) == [], path


# -- single sources ------------------------------------------------------------------------


def _relative(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def _nodes(path: Path) -> Iterator[ast.AST]:
    return ast.walk(ast.parse(path.read_text(encoding="utf-8")))


def _dict_keys(node: ast.AST) -> set[str]:
    if not isinstance(node, ast.Dict):
        return set()
    return {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}


def test_engine_raises_its_own_errors() -> None:
    """The engine raises ``engine.errors`` subclasses, never a bare ValueError or an API error."""
    for path in modules("engine"):
        for node in _nodes(path):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", None)
                assert name != "ValueError", f"{_relative(path)}:{node.lineno}"


def _is_error_body(key: ast.expr | None, value: ast.expr) -> bool:
    """``"error": {"code": …}`` / ``{"message": …}`` / ``dict(code=…)`` (not a JSON schema that
    merely describes a property named error)."""
    if not (isinstance(key, ast.Constant) and key.value == "error"):
        return False
    if isinstance(value, ast.Dict):
        return bool(_dict_keys(value) & {"code", "message"})
    return isinstance(value, ast.Call) and getattr(value.func, "id", None) == "dict"


def test_the_error_body_is_built_in_one_place() -> None:
    """``{"error": {"code", "message", …}}`` is written only by ``omoide.errors.error_body``."""
    for path in SRC.rglob("*.py"):
        if _relative(path) == "errors.py":
            continue
        for node in _nodes(path):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    assert not _is_error_body(key, value), (
                        f"{_relative(path)}:{node.lineno} builds an error body by hand"
                    )
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
                assert "error" not in {k.arg for k in node.keywords}, _relative(path)


def test_mcp_tools_share_one_tooling_module() -> None:
    """Annotations and the tool result are made in ``api/mcp/tooling.py`` only, and the tool
    modules do not import ``server.py`` (which imports them)."""
    for path in modules("api/mcp"):
        if path.name == "tooling.py":
            continue
        for node in _nodes(path):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None)
                assert name not in {"ToolAnnotations", "CallToolResult", "TextContent"}, (
                    f"{_relative(path)}:{node.lineno}"
                )
        if path.name.startswith("tools_"):
            assert "omoide.api.mcp.server" not in imports_of(path), _relative(path)


# The export file format declares each record's fields and types: a versioned file format of
# its own, which must not change when the memory JSON does.
FORMAT_DEFINITIONS = ("engine/transfer_format.py", "engine/transfer_check.py")


def test_the_memory_field_list_lives_in_model() -> None:
    """The memory JSON and the version image come from ``model.VERSIONED_FIELDS`` /
    ``MEMORY_FIELDS``; no other dict literal names most of those fields by hand."""
    from omoide.model import VERSIONED_FIELDS

    for path in SRC.rglob("*.py"):
        if _relative(path).startswith("model/") or _relative(path) in FORMAT_DEFINITIONS:
            continue
        for node in _nodes(path):
            named = _dict_keys(node) & set(VERSIONED_FIELDS)
            assert len(named) <= len(VERSIONED_FIELDS) // 2, (
                f"{_relative(path)}:{getattr(node, 'lineno', '?')} lists memory fields: "
                f"{sorted(named)}"
            )


@pytest.mark.parametrize(
    "shape", [{"query", "mode", "results"}, {"key", "versions"}, {"key", "history"}]
)
def test_search_and_history_shapes_come_from_render(shape: set[str]) -> None:
    """HTTP, MCP and the CLI answer a search or a history through ``api/render.py``."""
    for path in SRC.rglob("*.py"):
        if _relative(path) in ("api/render.py", *FORMAT_DEFINITIONS):
            continue
        for node in _nodes(path):
            assert not shape <= _dict_keys(node), f"{_relative(path)}:{node.lineno}"


_SINCE_LAST_ACCESS = re.compile(
    r"last_accessed\b[\"'\]]*\s+or\b|COALESCE\(\s*[\w.]*last_accessed", re.IGNORECASE
)


def test_time_since_last_access_is_stated_once() -> None:
    """Counting from the last recall, else from creation, is ``engine.fsrs.recall_anchor``."""
    for path in SRC.rglob("*.py"):
        if _relative(path) == "engine/fsrs.py":
            continue
        found = _SINCE_LAST_ACCESS.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{_relative(path)}: {found.group(0) if found else ''}"


# The class of a name's characters and its length, as a pattern writes them (``_-]{1,64}``, or
# in an HTML pattern ``_\-]{1,64}``): persona names, block names, memory keys.
_NAME_CLASS = re.compile(r"A-Za-z0-9_\\?-\]\{\{?1,")


def test_the_name_pattern_is_written_once() -> None:
    """``model.NAME_PATTERN`` (with ``MAX_NAME_CHARS``) is the one persona/block name pattern:
    the services' patterns, the HTTP schemas, the store's check and the dashboard's form field
    take it; ``model/admin.py`` once held a copy of its own beside the services' one."""
    found = [
        _relative(path)
        for path in sorted(SRC.rglob("*"))
        if path.suffix in {".py", ".html", ".js"}
        and _NAME_CLASS.search(path.read_text(encoding="utf-8"))
    ]
    assert found == ["model/admin.py"], found
