"""Layers import downward only (docs/architecture.md): an engine never reaches the
platform, the platform never the server, nothing the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "pelisali"
LAYER = {
    "money": 0, "rng": 0, "cards": 1, "rules": 1, "games": 2, "poker": 2, "engine": 3,
    "tournaments": 3,
    "analysis": 4, "platform": 5, "server": 6, "web": 6, "cli": 7,
}


def layer_of(module: str) -> tuple[str, int] | None:
    parts = module.split(".")
    if parts[0] != "pelisali" or len(parts) < 2:
        return None
    return parts[1], LAYER[parts[1]]


def imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return found


MODULES = sorted(p for p in SRC.rglob("*.py") if "migrations" not in p.parts)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_a_module_imports_only_its_own_layer_and_those_below(path: Path) -> None:
    relative = path.relative_to(SRC)
    if len(relative.parts) == 1 and relative.stem == "__init__":
        return
    own = relative.parts[0] if len(relative.parts) > 1 else relative.stem
    upward = [m for m in imports(path)
              if (found := layer_of(m)) is not None and found[1] > LAYER[own]]
    assert not upward, f"{relative} imports from a higher layer: {upward}"


def test_every_package_has_a_layer() -> None:
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and not p.name.startswith("_")}
    modules = {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert packages | modules <= set(LAYER)
