"""Mutation testing of the Python-side modules: do the tests notice a bug?

    python tools/mutate.py sudoku/grid.py            # every mutant
    python tools/mutate.py sudoku/grid.py --sample 60  # 60 of them, seeded
    python tools/mutate.py --all --sample 60          # every module listed
    python tools/mutate.py dlx/cli/command.py --list          # the mutants only

Each mutant is one small change to one function of the module (a flipped
comparison, ``and``/``or`` swapped, a ``not`` dropped, an integer off by
one, ``+``/``-`` swapped, a guard ``if ...: raise`` dropped, ``True`` and
``False`` swapped).  The module's tests (``[tool.mutation]`` in
pyproject.toml) are run against it; a mutant is *caught* when they fail
(or run past ``--timeout``), and *survives* when they pass.  Survivors are
printed, one a line, with their key; a key listed in the module's
``harmless`` table (same answers, only speed or wording; each with the
reason) is counted out.  A key names the function and the statement
(``path::function::statement :: change``, the statement as
``ast.unparse`` writes it, annotations left out), not a line: an edit
elsewhere in the file or a reformatting leaves it alone, and an edit of
the statement itself makes a new mutant, judged again.  A harmless key
that names no mutant, or several, stops the run (``--check`` checks them
all, and that every module of dlx/ and sudoku/ is mapped to tests that
exist).  The tests run with ``-x`` and ``-m "not slow"``.

Kernels (``dlx.kernels.jit``'s ``njit``) are mutated too: numba's
compiled code cannot be swapped, so a mutant of a kernel module runs the
whole module as the plain Python it is written in (reloaded afresh in
the child, every kernel of it plain for good, and the mutant put back
after any reload of it by the tests; the other modules' kernels stay
compiled).  Its tests run slower there: sample such modules.

How, cheaply on a shared machine: one process imports the packages and
pytest once, then forks a child per mutant; the child swaps the changed
function's code object in place (``function.__code__``), so every module
that imported the function sees the mutant, and runs pytest in-process.
Nothing is written to disk.  Only code inside functions and methods is
mutated, not their decorators (module-level code runs once, at import:
a swapped code object never meets it); a mutant in an argument's default
value sets the function's defaults as well.
"""

from __future__ import annotations

import argparse
import ast
import copy
import functools
import importlib
import json
import os
import random
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_FLIP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_ARITH = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.FloorDiv: ast.Mult,
    ast.Mult: ast.FloorDiv,
}


@dataclass
class Mutant:
    key: str  # "path::function::statement::what" (see mutants)
    function: str  # qualified name of the function it lives in
    index: int  # which node (in ast.walk order) to change
    kind: str
    where: str = ""  # "path:line:col", to find it today (not a key)


def _config() -> dict:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return {}
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f).get("tool", {}).get("mutation", {})


def _functions(tree: ast.Module):
    """``(qualified name, node)`` of the module's functions and methods
    (not nested ones: they change with the function holding them)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield f"{node.name}.{item.name}", item


def _docstring_nodes(func) -> set[int]:
    skip = set()
    for node in ast.walk(func):
        if (
            isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
            )
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        ):
            skip.add(id(node.body[0].value))
    return skip


def _changes(node):
    """The mutations possible at ``node``: ``(kind, apply)`` pairs, where
    ``apply(node)`` changes a copy in place."""
    if isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            if type(op) in _FLIP:
                new = _FLIP[type(op)]

                def flip(n, k=k, new=new):
                    n.ops[k] = new()

                yield f"{type(op).__name__}->{new.__name__}", flip
    elif isinstance(node, ast.BoolOp):
        other = ast.Or if isinstance(node.op, ast.And) else ast.And

        def swap(n, other=other):
            n.op = other()

        yield f"{type(node.op).__name__}->{other.__name__}", swap
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):

        def drop(n):
            n.op = ast.UAdd()  # +x is x for the bools tested; see _unplus

        yield "drop-not", drop
    elif isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        new = _ARITH[type(node.op)]

        def arith(n, new=new):
            n.op = new()

        yield f"{type(node.op).__name__}->{new.__name__}", arith
    elif isinstance(node, ast.Constant) and type(node.value) is int:

        def plus(n):
            n.value += 1

        yield f"{node.value}->{node.value + 1}", plus
    elif isinstance(node, ast.Constant) and type(node.value) is bool:

        def negate(n):
            n.value = not n.value

        yield f"{node.value}->{not node.value}", negate
    elif (
        isinstance(node, ast.If)
        and node.body
        and isinstance(node.body[0], ast.Raise)
    ):

        def drop_check(n):
            n.test = ast.Constant(False)

        yield "drop-check", drop_check


class _Unplus(ast.NodeTransformer):
    """``+x`` standing for a dropped ``not`` becomes ``bool(x)``."""

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.UAdd) and getattr(node, "_dropped", 0):
            return ast.Call(ast.Name("bool", ast.Load()), [node.operand], [])
        return node


def mutants(path: str, source: str | None = None) -> list[Mutant]:
    """The module's mutants (``source``: its text, if not the file's)."""
    if source is None:
        source = (ROOT / path).read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    found = []
    for name, func in _functions(tree):
        # Its decorators ran once, at import (as module-level code does):
        # a changed code object never sees them.
        skip = _docstring_nodes(func) | {
            id(node)
            for decorator in func.decorator_list
            for node in ast.walk(decorator)
        }
        parents = {
            id(child): node
            for node in ast.walk(func)
            for child in ast.iter_child_nodes(node)
        }
        for index, node in enumerate(ast.walk(func)):
            if id(node) in skip or (
                isinstance(node, ast.Constant) and _in_annotation(func, node)
            ):
                continue
            line = lines[node.lineno - 1] if hasattr(node, "lineno") else ""
            if "no mutate" in line:
                continue
            for kind, _ in _changes(node):
                text = _statement_text(node, parents, lines)
                found.append(
                    Mutant(
                        f"{path}::{name}::{text} :: {kind}",
                        name,
                        index,
                        kind,
                        f"{path}:{node.lineno}:{node.col_offset}",
                    )
                )
    # The same change twice in one statement (or in two statements that
    # read alike) gets the same key: number them in the order of the
    # function's syntax tree, which no reformatting changes.
    seen: dict[str, list[Mutant]] = {}
    for mutant in found:
        seen.setdefault(mutant.key, []).append(mutant)
    for key, group in seen.items():
        if len(group) > 1:
            for k, mutant in enumerate(group, 1):
                mutant.key = f"{key} #{k}"
    return found


# Keys are made to survive edits elsewhere in the file and reformatting
# (``ruff format``, added type annotations): the text of the statement is
# ast.unparse's, annotations taken out, compound statements by their
# header only.  An edit to the statement itself changes the key, and so
# it should: the mutant is new and is judged again.
_LONG = 100


def _statement_text(node, parents, lines) -> str:
    """The statement holding ``node`` as one normalised line of code."""
    stmt, path = node, [node]
    while not isinstance(stmt, (ast.stmt, ast.excepthandler)):
        stmt = parents[id(stmt)]
        path.append(stmt)
    text = _header(stmt, lines)
    if len(text) <= _LONG:
        return text
    if node is stmt:
        return f"{text[:_LONG].rstrip()} ..."
    # A long statement: its start, then the largest expression around the
    # change that is short enough to read (or the start of the change's).
    context = ast.unparse(node)
    for inner, outer in zip(path, path[1:-1]):
        if isinstance(outer, ast.arguments):  # a default value: name it
            context = f"{_argument_of(outer, inner)}={context}"
            break
        outer_text = ast.unparse(outer)
        if len(outer_text) > _LONG // 2:
            break
        context = outer_text
    return f"{text[: _LONG // 2].rstrip()} ... {context[: _LONG // 2]}"


def _argument_of(args: ast.arguments, default) -> str:
    """The name of the argument whose default value is ``default``."""
    positional = args.posonlyargs + args.args
    pairs = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults)
    ) + list(zip(args.kwonlyargs, args.kw_defaults))
    return next((a.arg for a, d in pairs if d is default), "?")


def _header(stmt, lines) -> str:
    stmt = _unannotated(copy.deepcopy(stmt))
    if isinstance(stmt, ast.If):
        word = (
            "elif"
            if lines[stmt.lineno - 1].lstrip().startswith("elif")
            else "if"
        )
        return f"{word} {ast.unparse(stmt.test)}:"
    if isinstance(stmt, ast.While):
        return f"while {ast.unparse(stmt.test)}:"
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return f"for {ast.unparse(stmt.target)} in {ast.unparse(stmt.iter)}:"
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return f"with {', '.join(ast.unparse(i) for i in stmt.items)}:"
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"def {stmt.name}({ast.unparse(stmt.args)}):"
    if isinstance(stmt, ast.ExceptHandler):
        return f"except {ast.unparse(stmt.type)}:" if stmt.type else "except:"
    if isinstance(stmt, ast.AnnAssign):
        return (
            f"{ast.unparse(stmt.target)} = {ast.unparse(stmt.value)}"
            if stmt.value is not None
            else ast.unparse(stmt.target)
        )
    if isinstance(stmt, (ast.Try, ast.ClassDef)) or hasattr(stmt, "body"):
        return ast.unparse(stmt).splitlines()[0]
    return " ".join(ast.unparse(stmt).split("\n"))


def _unannotated(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            node.annotation = None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            node.returns = None
    return tree


@functools.cache
def _annotation_ids(func) -> set[int]:
    ids = set()
    for node in ast.walk(func):
        for ann in [
            getattr(node, "returns", None),
            getattr(node, "annotation", None),
        ]:
            if ann is not None:
                ids.update(id(x) for x in ast.walk(ann))
    return ids


def _in_annotation(func, node) -> bool:
    return id(node) in _annotation_ids(func)


def _mutated_defaults(path: str, mutant: Mutant, namespace: dict):
    """``(__defaults__, __kwdefaults__)`` of the mutant's function when the
    change is in a default value (those live on the function, not in its
    code object), else None."""
    tree = ast.parse((ROOT / path).read_text())
    func = dict(_functions(tree))[mutant.function]
    node = list(ast.walk(func))[mutant.index]
    args = func.args
    if not any(
        node is sub
        for default in args.defaults
        + [d for d in args.kw_defaults if d is not None]
        for sub in ast.walk(default)
    ):
        return None
    _apply(node, mutant.kind)
    func = _Unplus().visit(func)

    def value(expr):
        expr = ast.fix_missing_locations(ast.Expression(expr))
        return eval(compile(expr, str(ROOT / path), "eval"), namespace)

    defaults = tuple(value(d) for d in args.defaults) or None
    kwdefaults = {
        a.arg: value(d)
        for a, d in zip(args.kwonlyargs, args.kw_defaults)
        if d is not None
    } or None
    return defaults, kwdefaults


def _apply(node, kind: str) -> None:
    for found, apply in _changes(node):
        if found == kind:
            apply(node)
            node._dropped = kind == "drop-not"
            return


def _mutated_code(path: str, mutant: Mutant):
    """The code object of the mutant's function, changed."""
    tree = ast.parse((ROOT / path).read_text())
    func = dict(_functions(tree))[mutant.function]
    node = list(ast.walk(func))[mutant.index]
    _apply(node, mutant.kind)
    func = _Unplus().visit(func)
    holder = ast.Module(body=[func], type_ignores=[])
    if "." in mutant.function:  # a method: compile it inside its class
        cls = ast.ClassDef(mutant.function.split(".")[0], [], [], [func], [])
        holder = ast.Module(body=[cls], type_ignores=[])
    ast.fix_missing_locations(holder)
    code = compile(
        holder,
        str(ROOT / path),
        "exec",
        flags=__import__("__future__").annotations.compiler_flag,
        dont_inherit=True,
    )
    return _find_code(code, func.name)


def _find_code(code, name):
    for const in code.co_consts:
        if hasattr(const, "co_name"):
            if const.co_name == name:
                return const
            inner = _find_code(const, name)
            if inner is not None:
                return inner
    return None


def _target(module, qualname: str):
    obj = module
    for part in qualname.split("."):
        obj = inspect_getattr(obj, part)
    if hasattr(obj, "py_func"):  # a kernel, plain (see _put)
        return obj.py_func
    for attr in ("fget", "__func__", "__wrapped__"):
        while hasattr(obj, attr) and not hasattr(obj, "__code__"):
            obj = getattr(obj, attr)
    while hasattr(obj, "__wrapped__"):
        obj = obj.__wrapped__
    return obj


def inspect_getattr(obj, name):
    if isinstance(obj, type):
        return obj.__dict__[name]
    return getattr(obj, name)


def _module_name(path: str) -> str:
    return path[:-3].replace("/", ".")


def _put(module, path: str, mutant: Mutant) -> bool:
    """Put ``mutant`` in ``module``; False when it cannot be (not
    applicable).  Every kernel of a kernel module runs plain Python from
    then on (see ``_mutate_kernels``)."""
    from dlx.kernels import jit

    for value in vars(module).values():
        if isinstance(value, jit.Kernel):
            # Still a Kernel (as the tests expect), never compiled: its
            # "dispatcher" is the plain function.
            value.dispatcher = _plain(value.py_func)
    func = _target(module, mutant.function)
    code = _mutated_code(path, mutant)
    if (
        code is None
        or func is None
        or code.co_freevars != func.__code__.co_freevars
    ):
        return False
    func.__code__ = code
    defaults = _mutated_defaults(path, mutant, vars(module))
    if defaults is not None:
        func.__defaults__, func.__kwdefaults__ = defaults
    _clear_caches(module)
    return True


def _mutate_kernels(module, path: str, mutant: Mutant) -> bool:
    """``_put`` for a module of kernels: reloaded first (its kernels
    not yet compiled), and again after any reload of it (the tests'
    ``plain_kernels`` reloads every kernel module)."""
    reload = importlib.reload

    def reloading(target):
        target = reload(target)
        if target.__name__ == module.__name__:
            _put(target, path, mutant)
        return target

    importlib.reload = reloading
    return _put(reload(module), path, mutant)


def _plain(function):
    """``function`` called as a plain kernel: numpy's integers wrap
    silently there, as numba's do."""
    import numpy as np

    @functools.wraps(function)
    def run(*args, **kwargs):
        with np.errstate(all="ignore"):
            return function(*args, **kwargs)

    return run


def _clear_caches(module) -> None:
    for value in vars(module).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()


def run_one(
    path: str, mutant: Mutant, tests: list[str], timeout: float
) -> str:
    """ "caught", "survived", "timeout" or "skipped" (not applicable)."""
    pid = os.fork()
    if pid == 0:  # the child: mutate, test, report by exit status
        status = 5  # not applicable, until the tests run
        try:
            module = importlib.import_module(_module_name(path))
            kernels = any(
                hasattr(value, "py_func") for value in vars(module).values()
            )
            put = _mutate_kernels if kernels else _put
            if not put(module, path, mutant):
                os._exit(5)
            import pytest

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            status = 4
            status = pytest.main(
                [
                    "-x",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "--no-header",
                    "-o",
                    "addopts=-m 'not slow'",
                    *tests,
                ]
            )
        finally:
            os._exit(int(status))
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            return {0: "survived", 5: "skipped"}.get(code, "caught")
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "timeout"
        time.sleep(0.05)


def warm_up() -> None:
    """Import everything and compile (or load) the kernels once, so that
    each forked child starts warm."""
    import hypothesis  # noqa: F401
    import numpy  # noqa: F401
    import pytest  # noqa: F401

    import dlx
    import dlx.cli.command
    import sudoku
    import sudoku.cli
    import sudoku.reader
    from dlx.problems import polyomino  # noqa: F401

    p = dlx.ExactCover("ab")
    p.add_options(["a", "b"])
    p.count(), p.solve(), p.solve_batch([[0]])
    sudoku.solve_many(["." * 16], threads=1)
    sudoku.solve("." * 16, max_nodes=100)


def check_keys(path: str, harmless, found: list[Mutant]) -> list[str]:
    """What is wrong with the module's harmless keys: each must name
    exactly one of its mutants."""
    keys = {m.key for m in found}
    numbered = {}
    for m in found:
        base, _, k = m.key.rpartition(" #")
        if base and k.isdigit():
            numbered.setdefault(base, []).append(m.key)
    problems = []
    for key in sorted(harmless):
        if key in keys:
            continue
        if key in numbered:
            problems.append(
                f"{path}: ambiguous harmless key {key!r} names "
                f"{len(numbered[key])} mutants; say which "
                f"(' #1' to ' #{len(numbered[key])}')"
            )
        else:
            problems.append(
                f"{path}: harmless key {key!r} names no mutant "
                f"(the statement changed or is gone: judge its "
                f"mutants again)"
            )
    return problems


def check_map(modules: dict, skipped: dict) -> list[str]:
    """Every module of dlx/ and sudoku/ is mapped to tests that exist, or
    left out with a reason; every harmless key names one mutant."""
    problems = []
    for package in ("dlx", "sudoku"):
        for file in sorted((ROOT / package).rglob("*.py")):
            path = file.relative_to(ROOT).as_posix()
            if path not in modules and path not in skipped:
                problems.append(
                    f"{path}: neither in [tool.mutation.modules]"
                    f" nor in [tool.mutation.skip]"
                )
    for path, entry in modules.items():
        if not (ROOT / path).is_file():
            problems.append(f"{path}: mapped, but there is no such module")
            continue
        if not entry.get("tests"):
            problems.append(f"{path}: mapped to no tests")
        for test in entry.get("tests", []):
            if not (ROOT / test.split("::")[0]).exists():
                problems.append(f"{path}: its test {test} does not exist")
        if entry.get("harmless"):
            problems += check_keys(path, entry["harmless"], mutants(path))
    return problems


def main(argv=None) -> int:
    config = _config()
    modules = config.get("modules", {})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "paths", nargs="*", help="modules, e.g. dlx/cli/command.py"
    )
    parser.add_argument(
        "--all",
        action="store_true",
        help="every module of [tool.mutation.modules]",
    )
    parser.add_argument(
        "--sample",
        type=int,
        default=0,
        metavar="N",
        help="test N mutants per module, chosen at random "
        "with --seed (default: all)",
    )
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument(
        "--timeout",
        type=float,
        default=300,
        help="seconds per mutant (a mutant that runs longer "
        "is caught: it hangs)",
    )
    parser.add_argument(
        "--tests",
        nargs="+",
        metavar="TEST",
        help="tests to run (default: the module's own)",
    )
    parser.add_argument(
        "--match",
        metavar="TEXT",
        nargs="+",
        help="only the mutants whose key or place contains "
        "one of these (e.g. '::_cells::', "
        "'grid.py:312:')",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the mutants (key, then where it is today) and stop",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="check the map and every harmless key, run nothing",
    )
    args = parser.parse_args(argv)
    if args.check:
        problems = check_map(modules, config.get("skip", {}))
        print("\n".join(problems) or "the map and its keys are sound")
        return 1 if problems else 0
    paths = list(modules) if args.all else args.paths
    if not paths:
        parser.error("name a module or give --all")
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    found_by_path = {path: mutants(path) for path in paths}
    refused = [
        problem
        for path in paths
        for problem in check_keys(
            path,
            modules.get(path, {}).get("harmless", {}),
            found_by_path[path],
        )
    ]
    if refused:
        print("\n".join(refused), file=sys.stderr)
    if refused and not args.list:
        print(
            "mutate.py: fix the harmless keys above in pyproject.toml "
            "first (--list shows today's keys)",
            file=sys.stderr,
        )
        return 2
    if not args.list:
        warm_up()
    table = []
    for path in paths:
        found = found_by_path[path]
        if args.match:
            found = [
                m
                for m in found
                if any(
                    text in m.key or text in m.where + " "
                    for text in args.match
                )
            ]
        if args.sample and args.sample < len(found):
            found = sorted(
                random.Random(f"{args.seed}:{path}").sample(
                    found, args.sample
                ),
                key=lambda m: m.key,
            )
        if args.list:
            print("\n".join(f"{m.key}    ({m.where})" for m in found))
            continue
        entry = modules.get(path, {})
        tests = args.tests or entry.get("tests") or ["tests"]
        harmless = entry.get("harmless", {})
        counts = {
            "caught": 0,
            "timeout": 0,
            "survived": 0,
            "harmless": 0,
            "skipped": 0,
        }
        start = time.monotonic()
        for mutant in found:
            outcome = run_one(path, mutant, tests, args.timeout)
            if outcome == "survived" and mutant.key in harmless:
                outcome = "harmless"
            counts[outcome] += 1
            if outcome in ("survived", "harmless"):
                note = (
                    f"  ({harmless[mutant.key]})"
                    if outcome == "harmless"
                    else f"  (at {mutant.where})"
                )
                # The key as a TOML string, ready for the harmless table.
                print(
                    f"{outcome}: {json.dumps(mutant.key, ensure_ascii=False)}"
                    f"{note}",
                    flush=True,
                )
        killed = counts["caught"] + counts["timeout"]
        judged = killed + counts["survived"]
        share = 100 * killed / judged if judged else 100.0
        table.append((path, len(found), counts, share))
        print(
            f"{path}: {len(found)} mutants, {killed} caught, "
            f"{counts['survived']} survived, {counts['harmless']} harmless, "
            f"{counts['skipped']} not applicable: {share:.0f}% caught "
            f"({time.monotonic() - start:.0f} s)",
            flush=True,
        )
    if table:
        print(
            "\n| module | mutants | caught | survived | harmless | caught % |"
        )
        print("|---|---|---|---|---|---|")
        for path, total, c, share in table:
            print(
                f"| {path} | {total} | {c['caught'] + c['timeout']} | "
                f"{c['survived']} | {c['harmless']} | {share:.0f}% |"
            )
    return 0 if all(share >= 90 for *_, share in table) else 1


if __name__ == "__main__":
    sys.exit(main())
