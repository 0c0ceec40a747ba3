"""Every public name another module imports from a module of ``engine/classify`` is in that
module's ``__all__`` (qa46b: ``reason_told`` left out ``known_in``, ``PLANNED`` and
``OWN_CHANGE``, which ``detail_told`` and ``occasion_told`` import; five siblings had the same
gap). Read with ``ast``, as ``test_layers.py`` reads imports: nothing is imported to check it.
A private name (``_EN_STATE_BEFORE``) a test reaches for is no export and is not asked for."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "omoide.engine.classify"
CLASSIFY = ROOT / "src" / "omoide" / "engine" / "classify"


def _exports() -> dict[str, set[str]]:
    out = {}
    for path in CLASSIFY.glob("*.py"):
        name = PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                out[name] = set(ast.literal_eval(node.value))
    return out


def _module_of(node: ast.ImportFrom, path: Path) -> str | None:
    """The absolute name of the module ``node`` imports from (relative imports under src)."""
    if not node.level:
        return node.module
    if ROOT / "src" not in path.parents:
        return None
    parts = list(path.relative_to(ROOT / "src").with_suffix("").parts[:-1])
    parts = parts[: len(parts) - (node.level - 1)]
    return ".".join([*parts, *([node.module] if node.module else [])])


def test_every_imported_public_name_of_a_classify_module_is_in_its_all() -> None:
    exports = _exports()
    missing = []
    for folder in ("src", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "classify" not in text and CLASSIFY not in path.parents:
                continue  # imports nothing of it (parsing every file took seconds)
            for node in ast.walk(ast.parse(text)):
                if not isinstance(node, ast.ImportFrom):
                    continue
                module = _module_of(node, path)
                if module not in exports:
                    continue
                missing += [
                    f"{module}.{alias.name} (imported by {path.relative_to(ROOT)})"
                    for alias in node.names
                    if not alias.name.startswith("_")
                    and alias.name not in exports[module]
                    and f"{module}.{alias.name}" not in exports  # a submodule
                ]
    assert missing == []
