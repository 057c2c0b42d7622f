"""DESIGN.md, Layers: imports may only point down (hardware/vision -> rules; companion -> all)."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)

FORBIDDEN = {
    "rules": {"vision", "hardware", "companion", "kivy", "cv2", "numpy", "gpiozero", "picamera2"},
    "vision": {"hardware", "companion", "kivy", "gpiozero", "picamera2"},
    "hardware": {"companion", "kivy"},
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_point_down(layer: str) -> None:
    """DESIGN.md: "Arrows point the only way imports may go"."""
    bad = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for lineno, top in imports_of(path):
            if top in FORBIDDEN[layer]:
                bad.append(f"{path.relative_to(ROOT)}:{lineno} imports {top}")
    assert not bad, "\n".join(bad)


def test_rules_uses_only_the_standard_library() -> None:
    """DESIGN.md: "rules imports nothing of the others and no third-party package"."""
    bad = []
    for path in sorted((ROOT / "rules").rglob("*.py")):
        for lineno, top in imports_of(path):
            if top != "rules" and top not in STDLIB:
                bad.append(f"{path.relative_to(ROOT)}:{lineno} imports {top}")
    assert not bad, "\n".join(bad)


def test_only_companion_ui_imports_kivy() -> None:
    """DESIGN.md: "only companion.ui imports Kivy"."""
    bad = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[0] in {".venv", "build"} or rel.parts[:2] == ("companion", "ui") or rel.parts[0] == "tests":
            continue
        for lineno, top in imports_of(path):
            if top == "kivy":
                bad.append(f"{rel}:{lineno}")
    assert not bad, "\n".join(bad)


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    """The checker itself must be able to fail."""
    f = tmp_path / "x.py"
    f.write_text("import numpy\nfrom companion.ui import app\n")
    assert [t for _, t in imports_of(f)] == ["numpy", "companion"]
