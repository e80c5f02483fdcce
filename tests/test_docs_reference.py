"""The API reference and the names the docs cite cannot drift from the code.

* Every public name a package exports (``__all__`` of ``dlx``,
  ``sudoku`` and of each module the reference renders) is on a page of
  docs/api/: rendered by a ``::: path`` directive of mkdocstrings, where
  it is defined, and under the name a user imports it by.
* Every dotted ``dlx.…``/``sudoku.…`` path that README.md, docs/**/*.md
  or the packages' source (docstrings, comments) mention names a real
  module or attribute: a module that moved leaves no stale path behind.
* The pages and docstrings tell the present: the history of a change
  (which issue, what it used to do) is CHANGELOG.md's.
* Every public function and method of ``dlx``, ``dlx.jobs``,
  ``dlx.formats``, ``sudoku`` and the problem builders has the google
  sections (``Args``, ``Returns``/``Yields``) from which mkdocstrings
  renders its parameter table.

The checks are static (no site is built): they read the pages'
directives and the modules' source as mkdocstrings does, with its
options of mkdocs.yml (``filters: ["!^_"]``, ``show_if_no_docstring:
false``): a module's members are rendered where they are defined, and
only those with a docstring.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import re
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
API = sorted((ROOT / "docs" / "api").glob("*.md"))
# What users read: the pages and the packages' source.  CHANGELOG.md is
# history, where old names and issue numbers stay.
TEXTS = (
    [ROOT / "README.md"]
    + sorted((ROOT / "docs").rglob("*.md"))
    + sorted((ROOT / "dlx").rglob("*.py"))
    + sorted((ROOT / "sudoku").rglob("*.py"))
)


# -- the API reference ---------------------------------------------------


@functools.cache
def directives() -> dict[str, bool]:
    """``{path: members rendered}`` of every ``::: path`` of docs/api/,
    each path where its object is defined (``dlx.ExactCover`` is
    ``dlx.problem.ExactCover``)."""
    found: dict[str, bool] = {}
    for page in API:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(
            r"^::: (\S+)[ \t]*\n((?:[ \t]+\S.*\n)*)", text, re.M
        ):
            found[canonical(match.group(1))] = not re.search(
                r"^\s+members:\s*false\s*$", match.group(2), re.M
            )
    return found


@functools.cache
def module_tree(name: str) -> ast.Module:
    module = importlib.import_module(name)
    return ast.parse(inspect.getsource(module))


def top_level(tree: ast.Module) -> list[ast.stmt]:
    """A module's statements, with those of its ``if TYPE_CHECKING:``
    block (where a package that loads its names on first use says what
    they are)."""
    statements: list[ast.stmt] = []
    for node in tree.body:
        statements.append(node)
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            statements.extend(node.body)
    return statements


def origin(module: str, name: str) -> tuple[str, str]:
    """``(module, name)`` where ``module.name`` is defined: the
    ``from … import`` chain of the source followed back to its assignment,
    ``def`` or ``class`` (or to a submodule)."""
    for node in top_level(module_tree(module)):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    base = importlib.util.resolve_name(
                        "." * node.level + (node.module or ""),
                        module
                        if _is_package(module)
                        else module.rpartition(".")[0],
                    )
                    if _is_module(f"{base}.{alias.name}"):
                        return f"{base}.{alias.name}", ""
                    return origin(base, alias.name)
    return module, name


def canonical(path: str) -> str:
    """``path`` where its object is defined."""
    if _is_module(path):
        return path
    module, _, name = path.rpartition(".")
    where, defined = origin(module, name)
    return f"{where}.{defined}" if defined else where


def _is_package(name: str) -> bool:
    return hasattr(importlib.import_module(name), "__path__")


@functools.cache
def _is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def has_docstring(module: str, name: str) -> bool:
    """Whether mkdocstrings renders ``module.name`` among the module's
    members: a ``def``/``class`` with a docstring, or an assignment
    followed by a string (an attribute's docstring)."""
    body = module_tree(module).body
    for node, after in zip(body, body[1:] + [None]):
        if (
            isinstance(node, (ast.FunctionDef, ast.ClassDef))
            and node.name == name
            and ast.get_docstring(node)
        ):
            return True  # (an @overload before it has none)
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return (
                isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)
            )
    return False


def rendered(path: str, shown: dict[str, bool]) -> bool:
    """Whether the reference renders the object defined at ``path``."""
    if path in shown:
        return True
    module, _, name = path.rpartition(".")
    return shown.get(module, False) and has_docstring(module, name)


def exported():
    """``(module, name)`` of every public name of ``__all__`` of ``dlx``,
    ``sudoku`` and of each module a page renders."""
    modules = ["dlx", "sudoku"] + [
        path for path in directives() if _is_module(path)
    ]
    for module in dict.fromkeys(modules):
        for name in getattr(importlib.import_module(module), "__all__", ()):
            if not name.startswith("_"):  # __version__: not rendered
                yield module, name


def test_the_directives_are_found():
    shown = directives()
    assert {"dlx", "dlx.problem.ExactCover", "sudoku.grid"} <= set(shown)
    assert shown["dlx.problem.ExactCover"] and not shown["dlx"]


def test_the_check_follows_imports_to_the_definition():
    assert origin("dlx", "ExactCover") == ("dlx.problem", "ExactCover")
    assert origin("sudoku", "VARIANTS") == ("sudoku.constants", "RULES")
    assert origin("dlx", "problems") == ("dlx.problems", "")
    assert has_docstring("dlx.problem", "ExactCover")
    assert not has_docstring("dlx.problem", "MAX_COST")


@pytest.mark.parametrize(
    "module, name", sorted(set(exported())), ids=lambda x: str(x)
)
def test_every_exported_name_is_in_the_reference(module, name):
    shown = directives()
    path = canonical(f"{module}.{name}")
    defined = path.rpartition(".")[2]
    assert rendered(path, shown), (
        f"{module}.{name} (defined as {path}) is not rendered by docs/api/: "
        f"add a '::: {path}' directive, or a docstring under it"
    )
    if defined != name:  # rendered under another name
        text = "".join(page.read_text(encoding="utf-8") for page in API)
        assert f"{module}.{name}" in text, (
            f"{module}.{name} is rendered as {path}: say so on its page"
        )


# -- dotted paths in the docs and the source --------------------------------

DOTTED = re.compile(r"(?<![\w./-])((?:dlx|sudoku)(?:\.[A-Za-z_]\w*)+)")
# A file name, not a path: [Sudoku](sudoku.md), problem.dlx.
SUFFIXES = {"md", "py", "txt", "toml", "json", "svg", "png", "html", "dlx"}


def resolves(path: str) -> bool:
    """Whether ``path`` is a module, or an attribute chain from one."""
    parts = path.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for part in parts[split:]:
            if not hasattr(found, part):
                return False
            found = getattr(found, part)
        return True
    return False


def mentioned():
    """``(file, line, path)`` of every dotted path of ``TEXTS``."""
    for file in TEXTS:
        text = file.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), 1):
            for match in DOTTED.finditer(line):
                path = match.group(1)
                if path.rpartition(".")[2] not in SUFFIXES:
                    yield str(file.relative_to(ROOT)), number, path


def test_the_path_check_sees_a_stale_path():
    assert resolves("dlx.services.memo.count") and resolves("sudoku.web.app")
    assert resolves("dlx.ExactCover.count")
    assert not resolves("dlx.memo") and not resolves("dlx.links.run_batch")
    found = {path for _, _, path in mentioned()}
    assert {"dlx.ExactCover", "sudoku.solve"} <= found
    assert "sudoku.md" not in found


def test_every_dotted_path_resolves():
    stale = [
        f"{file}:{line}: {path}"
        for file, line, path in mentioned()
        if not resolves(path)
    ]
    assert not stale, "paths that name nothing:\n" + "\n".join(stale)


# -- history belongs in the changelog --------------------------------------

HISTORY = re.compile(r"\bissues? ?#?\d+|\bthe issue's\b", re.I)


def test_pages_tell_the_present():
    history = [
        f"{file.relative_to(ROOT)}:{number}: {line.strip()}"
        for file in TEXTS
        for number, line in enumerate(
            file.read_text(encoding="utf-8").splitlines(), 1
        )
        if HISTORY.search(line)
    ]
    assert not history, "history for CHANGELOG.md:\n" + "\n".join(history)


# -- parameter tables: Args / Returns / Yields ------------------------------

# The packages whose public names the reference must show with
# parameter tables (google style: mkdocstrings renders the sections).
DOCUMENTED = ["dlx", "dlx.jobs", "dlx.formats", "sudoku"]


def _callables():
    """``(qualified name, function, docstring)`` of every public function
    and method of ``DOCUMENTED``'s ``__all__`` and of the problem
    builders' modules; a constructor's sections are its class's."""
    import dlx.problems

    modules = DOCUMENTED + [
        f"dlx.problems.{name}"
        for name in dlx.problems.__all__
        if inspect.ismodule(getattr(dlx.problems, name))
    ]
    seen = set()
    for module in modules:
        found = importlib.import_module(module)
        for name in found.__all__:
            obj = getattr(found, name)
            if id(obj) in seen or not (
                inspect.isfunction(obj) or inspect.isclass(obj)
            ):
                continue
            seen.add(id(obj))
            where = f"{obj.__module__}.{obj.__qualname__}"
            if inspect.isfunction(obj):
                yield where, obj, obj.__doc__
                continue
            for key, member in vars(obj).items():
                if key.startswith("_") and key != "__init__":
                    continue
                function = getattr(member, "__func__", member)
                if inspect.isfunction(function):
                    doc = (
                        obj.__doc__ if key == "__init__" else function.__doc__
                    )
                    yield f"{where}.{key}", function, doc


def _missing_sections(function, doc: str | None) -> list[str]:
    """The sections a docstring lacks: ``Args`` when the function takes
    arguments, ``Returns`` (or ``Yields``) when it returns a value."""
    try:
        source = inspect.getsource(function)
    except OSError:  # made at run time (a dataclass's __init__): no text
        return []
    tree = ast.parse(textwrap.dedent(source))
    node = tree.body[0]
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    args = node.args
    names = [
        a.arg
        for a in args.posonlyargs + args.args + args.kwonlyargs
        if a.arg not in ("self", "cls") and not a.arg.startswith("_")
    ]
    names += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    body = [n for n in ast.walk(node) if not isinstance(n, ast.Lambda)]
    yields = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in body)
    returns = any(
        isinstance(n, ast.Return) and n.value is not None for n in body
    )
    sections = set(re.findall(r"^\s*(\w+):\s*$", doc or "", re.M))
    missing = []
    if names and "Args" not in sections:
        missing.append("Args")
    if yields and "Yields" not in sections:
        missing.append("Yields")
    elif returns and node.name != "__init__" and "Returns" not in sections:
        missing.append("Returns")
    return missing


def test_the_section_check_sees_a_missing_section():
    def bare(a, b=1):
        """No sections."""
        return a + b

    def whole(a):
        """Whole.

        Args:
            a: A number.

        Returns:
            It.
        """
        return a

    assert _missing_sections(bare, bare.__doc__) == ["Args", "Returns"]
    assert _missing_sections(whole, whole.__doc__) == []


def test_public_functions_have_their_sections():
    missing = [
        f"{name}: {', '.join(lacks)}"
        for name, function, doc in _callables()
        for lacks in [_missing_sections(function, doc)]
        if lacks
    ]
    assert not missing, "docstrings without their sections:\n" + "\n".join(
        missing
    )
