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
# the language layer, the model and the errors. Flat engine modules (fsrs, fusion, dates, …) are
# shared helpers a subpackage does not need today; a subpackage importing another subpackage or
# a flat module fails here, so a new dependency between them is a decision, not an accident.
SUBPACKAGES = ("classify", "consolidate", "segment", "lang")
SUBPACKAGE_ALLOWED = {"omoide.model", "omoide.errors", "omoide.engine.lang"}
WORD_LISTS = {"classify/lexicon.py", "lang/stopwords.py"}  # data, exempt from the size rule
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
    return {f"omoide.engine.{pkg}.{path.stem}" for pkg in SUBPACKAGES
            for path in (SRC / "engine" / pkg).glob("*.py") if path.stem != "__init__"}


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
    outside = [p for p in SRC.rglob("*.py")
               if not any(p.is_relative_to(SRC / "engine" / pkg) for pkg in SUBPACKAGES)]
    for path in [*outside, *sorted((REPO / "bench").rglob("*.py"))]:
        reached = imported_names(path) & private
        assert not reached, f"{path.relative_to(REPO)} imports {sorted(reached)}"


@pytest.mark.parametrize("path", modules("engine"), ids=lambda p: str(p.relative_to(SRC)))
def test_engine_modules_stay_small(path: Path) -> None:
    if str(path.relative_to(SRC / "engine")) in WORD_LISTS:
        return
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(SRC)} has {lines} lines (max {MAX_LINES})"


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
