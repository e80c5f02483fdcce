"""What a start-up loads: ``import dlx`` and ``import sudoku`` read the
version and nothing heavy (numba, numpy, the kernels, the builders load
when a name that needs them is first used), and every public name still
loads on first use.  Not a timed test: the modules a fresh interpreter
holds after each import are the same on any machine."""

import importlib
import json
import os
import subprocess
import sys

import pytest

HEAVY = ("numba", "numpy", "llvmlite")


def loaded_after(code: str, stdin: str | None = None) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        input=stdin,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def loaded_by(command: str, *argv: str, stdin: str | None = None) -> set:
    """The modules a fresh interpreter holds after ``command`` (``dlx``
    or ``sudoku``) ran with ``argv`` as its command line."""
    return loaded_after(
        f"from {command}.cli import main\nmain({list(argv)!r})", stdin
    )


def ours(loaded, prefix: str) -> set[str]:
    return {m for m in loaded if m.startswith(prefix)}


# Knuth's seven-item example (dlx1.w): plain exact cover, searched by DLX1.
TINY = "a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n"


@pytest.mark.parametrize("package", ["dlx", "sudoku"])
def test_import_loads_nothing_heavy(package):
    loaded = loaded_after(f"import {package}; {package}.__version__")
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
    ours = sorted(m for m in loaded if m.split(".")[0] in ("dlx", "sudoku"))
    assert ours == sorted({"dlx", "dlx._version", package})


@pytest.mark.parametrize("package", ["dlx", "sudoku", "dlx.problems"])
def test_every_public_name_loads_on_first_use(package):
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None, name
    assert set(module.__all__) <= set(dir(module))
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        module.nothing  # noqa: B018 (the attribute look-up is the test)


def test_names_are_the_modules_own():
    import dlx
    import sudoku
    from dlx.engines.base import Unsupported
    from dlx.problem import ExactCover
    from sudoku.encode import RULES

    assert dlx.ExactCover is ExactCover
    assert dlx.Unsupported is Unsupported
    assert sudoku.VARIANTS is RULES
    assert dlx.problems.queens.queens(6).count() == 4


# What a command that answers at once loads: no numba, numpy or kernel,
# no engine module, no builder, no solver (the flags and their help come
# from light modules: the registry's records, the options spec,
# dlx.services.defaults, sudoku.constants).
AT_ONCE = [
    ("dlx", "--version"),
    ("dlx", "--help"),
    ("dlx", "solve", "--help"),
    ("dlx", "solve", "--bogus"),
    ("dlx", "queens", "--help"),
    ("sudoku", "--version"),
    ("sudoku", "--help"),
    ("sudoku", "solve", "--bogus"),
]


@pytest.mark.parametrize("argv", AT_ONCE, ids=" ".join)
def test_version_help_and_usage_errors_load_nothing_heavy(argv):
    loaded = loaded_by(*argv)
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
    assert not ours(loaded, "dlx.kernels")
    assert ours(loaded, "dlx.engines.") <= {
        "dlx.engines.base",
        "dlx.engines.registry",
    }
    assert not ours(loaded, "dlx.problems")
    assert not ours(loaded, "sudoku.") - {
        "sudoku.cli",
        "sudoku.cli_generate",
        "sudoku.cli_io",
        "sudoku.constants",
        "sudoku.web",
        "sudoku.web.server",
    }
    assert ours(loaded, "dlx.services.") <= {
        "dlx.services.defaults",
        "dlx.services.checkpoint",  # its error (sudoku): json and os
    }


@pytest.mark.parametrize(
    "module", ["dlx.cli", "dlx.cli.flags", "dlx.cli.paths", "dlx.cli.input"]
)
def test_the_command_package_loads_the_command_only_when_it_runs(module):
    # sudoku and its web server read the flags, paths and inputs modules:
    # importing one imports the package dlx.cli first, which must not load
    # the dlx command (dlx.cli.command) or anything heavy.
    loaded = loaded_after(f"import {module}")
    assert "dlx.cli.command" not in loaded
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
    assert ours(loaded, "dlx.cli.") <= {
        "dlx.cli.flags",
        "dlx.cli.paths",
        "dlx.cli.input",
    }


def test_a_tiny_solve_loads_dlx1_alone():
    # dlx solve runs DLX1 on Knuth's example: its engine and kernels (and
    # the node builder they need), no other engine's, no builder.
    loaded = loaded_by("dlx", "solve", "-", stdin=TINY)
    assert ours(loaded, "dlx.kernels.") == {
        "dlx.kernels.dlx1",
        "dlx.kernels.build",
        "dlx.kernels.jit",
    }
    assert ours(loaded, "dlx.engines.") <= {
        "dlx.engines.base",
        "dlx.engines.registry",
        "dlx.engines.threads",
        "dlx.engines.dlx1",
    }
    assert not ours(loaded, "dlx.problems")


# A command in its own process (main() reads sys.argv) answers a small
# problem with its kernels run as plain Python (dlx.kernels.jit) for up to
# DLX_PLAIN_SECONDS (set high here: a loaded machine must not matter):
# numba is never imported.  DLX_PLAIN_SECONDS=0, or main(argv), loads it.
OWN_PROCESS = [
    ("dlx", ("solve", "-"), TINY),
    ("dlx", ("queens", "6"), None),
    (
        "sudoku",
        (
            "solve",
            "4.....8.5.3..........7......2.....6.....8.4......1......."
            "6.3.7.5..2.....1.4......",
        ),
        None,
    ),
]


def own_process(command, argv, stdin, seconds):
    return loaded_after(
        f"import os, sys\nos.environ['DLX_PLAIN_SECONDS'] = {seconds!r}\n"
        f"sys.argv = {[command, *argv]!r}\n"
        f"from {command}.cli import main\nmain()",
        stdin,
    )


@pytest.mark.parametrize(
    "command, argv, stdin", OWN_PROCESS, ids=lambda x: str(x)[:20]
)
def test_a_small_command_in_its_own_process_never_imports_numba(
    command, argv, stdin
):
    loaded = own_process(command, argv, stdin, "60")
    assert not [m for m in loaded if m.split(".")[0] in ("numba", "llvmlite")]
    assert "numba" in own_process(command, argv, stdin, "0")
    assert "numba" in loaded_by(command, *argv, stdin=stdin)  # main(argv)


@pytest.mark.parametrize("command", ["dlx", "sudoku"])
@pytest.mark.parametrize("seconds", ["soon", "-1", "nan"])
def test_a_bad_plain_seconds_is_a_usage_error(command, seconds):
    done = subprocess.run(
        [sys.executable, "-m", command, "solve", "-"],
        input=TINY,
        capture_output=True,
        text=True,
        env={**os.environ, "DLX_PLAIN_SECONDS": seconds},
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"{command}: DLX_PLAIN_SECONDS must be a number of seconds, 0 or "
        f"more, got {seconds!r}\n"
    )


def test_a_builder_command_loads_its_own_builder():
    loaded = loaded_by("dlx", "queens", "6")
    assert ours(loaded, "dlx.problems.") == {"dlx.problems.queens"}
    assert ours(loaded, "dlx.kernels.") == {
        "dlx.kernels.dlx1",
        "dlx.kernels.build",
        "dlx.kernels.jit",
    }


def test_the_registry_loads_an_engine_when_it_is_first_used():
    loaded = loaded_after(
        "from dlx.engines import BY_NAME, algorithm_help, algorithm_names\n"
        "algorithm_names(), algorithm_help(), BY_NAME['ssxc1']"
    )
    assert ours(loaded, "dlx.engines.") == {
        "dlx.engines.base",
        "dlx.engines.registry",
        "dlx.engines.threads",
        "dlx.engines.dlx1",  # SSXC1 builds on DLX1's node tables
        "dlx.engines.ssxc1",
    }


def test_a_sudoku_solve_loads_the_solver_not_the_builders():
    loaded = loaded_by(
        "sudoku",
        "solve",
        "4.....8.5.3..........7......2.....6.....8.4......1......."
        "6.3.7.5..2.....1.4......",
    )
    assert "sudoku.solver" in loaded
    assert not ours(loaded, "dlx.problems")
    assert not ours(loaded, "sudoku.web.service")
    # The lane engine solves it, with the bitset engine it falls back to:
    # their kernels alone (not DLX1's, nor any other program's).
    assert ours(loaded, "dlx.kernels.") == {
        "dlx.kernels.lanes",
        "dlx.kernels.bits",
        "dlx.kernels.jit",
    }


def test_a_spawned_worker_loads_only_the_engine_its_jobs_run():
    # Our own pool forks (the workers inherit what the parent loaded);
    # where processes are spawned (macOS, Windows, or an executor given),
    # a worker imports the job runner, the model to unpickle the problem,
    # and the engine its jobs name: DLX1's kernels here, no other's.
    loaded = loaded_after(
        "import concurrent.futures as cf, json, multiprocessing as mp, sys\n"
        "from dlx.problems.queens import queens\n"
        "spawn = mp.get_context('spawn')\n"
        "with cf.ProcessPoolExecutor(1, mp_context=spawn) as pool:\n"
        "    assert queens(11).count(executor=pool, algorithm='links') == 2680\n"
        "    held = pool.submit(eval, 'sorted(__import__(\"sys\").modules)')\n"
        "    print(json.dumps(held.result()))\n"
        "sys.exit()\n"
    )
    assert "dlx.services.pool" in loaded  # it ran jobs
    assert ours(loaded, "dlx.kernels.") == {
        "dlx.kernels.dlx1",
        "dlx.kernels.build",
        "dlx.kernels.jit",
    }
    assert not ours(loaded, "dlx.problems")


@pytest.mark.parametrize("command", ["dlx", "sudoku"])
def test_a_command_in_its_own_process_spares_the_last_collection(
    command, monkeypatch, capsys
):
    # main() (sys.argv, a process of its own) freezes what it made, so the
    # interpreter's end does not walk numba's objects; main(argv), called
    # from a program that goes on, leaves the collector alone.
    import gc

    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    main = importlib.import_module(f"{command}.cli").main
    monkeypatch.setattr(sys, "argv", [command, "solve", "--bogus"])
    assert main() == 2
    assert frozen == [True]
    assert main(["solve", "--bogus"]) == 2
    assert frozen == [True]
    capsys.readouterr()


def test_a_count_without_a_bar_does_not_load_tqdm():
    # Standard error is no terminal here and --progress is not given: no
    # bar, so tqdm (0.05 s) is not imported to see whether it is there.
    assert "tqdm" not in loaded_by("dlx", "queens", "6", "--count")
    assert "tqdm" in loaded_by("dlx", "queens", "6", "--count", "--progress")
