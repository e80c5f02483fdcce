"""The house rules of the code's structure that a linter does not check:
no module of dlx or sudoku reaches for another module's private names
(``_name``); what two modules share is a public name where it belongs.
(The import layers are checked by lint-imports, from pyproject.toml.)"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("dlx", "sudoku")


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_uses(path: Path) -> list[str]:
    """Where ``path`` imports or reads a private name of one of our
    modules: ``from .x import _y``, or ``x._y`` for a module ``x`` it
    imported from our packages."""
    tree = ast.parse(path.read_text())
    ours: set = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            local = (
                node.level > 0 or (node.module or "").split(".")[0] in PACKAGES
            )
            for alias in node.names:
                if local and is_private(alias.name):
                    found.append(
                        f"{path.name}:{node.lineno} imports {alias.name}"
                    )
                elif local:
                    ours.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    ours.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and is_private(node.attr)
            and isinstance(node.value, ast.Name)
            and node.value.id in ours
        ):
            found.append(
                f"{path.name}:{node.lineno} reads {node.value.id}.{node.attr}"
            )
    return found


FILES = sorted(
    p for package in PACKAGES for p in (ROOT / package).rglob("*.py")
)


@pytest.mark.parametrize(
    "path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES]
)
def test_no_module_uses_another_modules_private_names(path):
    assert private_uses(path) == []


def test_the_check_sees_a_private_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from .grid import _hidden\nfrom dlx import engines\n"
        "engines._secret\nimport os\nos._exit\n"
    )
    assert private_uses(sample) == [
        "sample.py:1 imports _hidden",
        "sample.py:3 reads engines._secret",
    ]
