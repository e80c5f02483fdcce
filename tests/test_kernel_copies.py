"""The kernel files repeat small functions on purpose (a kernel file never
calls a kernel of another file: numba's cache would not see the edit), so
a fix to one copy must reach the others: every copy listed here is the
same code as its twins, and every function that two kernel files both
define is either listed here or declared a variant with its reason.
"""

import ast
import collections
from pathlib import Path

import pytest

from dlx.engines import base

KERNELS = Path(__file__).resolve().parent.parent / "dlx" / "kernels"

# Copies that must be identical (docstrings aside): function -> files.
SAME = {
    "choose_item": {"dlx1", "dlx2"},
    "hide": {"dlx1", "memo"},
    "unhide": {"dlx1", "memo"},
    "take_out": {"ssxc1", "ssxcc"},
    "save_sizes": {"ssxc1", "ssxcc"},
    "restore_sizes": {"ssxc1", "ssxcc"},
    "grown": {"ssxc1", "ssxcc", "ssmcc"},
    "commit_option": {"dlx3", "dlx3_costs"},
    "cttz": {"bits", "lanes"},
    "plain_cttz": {"bits", "lanes"},
}
# DLX2's and DLX3's purify hide the same way: one copy more.
SAME_TOO = {"hide": {"dlx2", "dlx3"}}

# Functions of the same name that differ on purpose, with the reason.
VARIANTS = {
    "choose_item": "each program's own rule: MRV over lengths (DLX1 and "
    "DLX2 alike, above), DLX3's branching degree with "
    "slack, SSXC1's, SSXCC's and SSMCC's sparse-set scans",
    "commit_option": "each program commits a given on its own arrays "
    "(DLX3 with costs as DLX3, above)",
    "release_option": "the inverse of each commit_option",
    "search": "each program's own search",
    "solve_batch": "each program's batch around its own search",
    "start": "the bitset engines commit the givens to their own state: "
    "live options and counts, or lanes",
    "unwind": "each program undoes its own search",
    "cover": "DLX2 and DLX3 purify colors; memo keeps its active set; "
    "DLX5 and DLX3 with costs cover within the cost threshold",
    "uncover": "the inverse of each cover",
    "cover_rest": "as cover",
    "uncover_rest": "as uncover",
    "hide": "DLX2 and DLX3 skip nodes of the item's own color (above); "
    "SSXC1 and SSXCC hide in sparse sets",
    "unhide": "as hide",
    "hide_checked": "SSXCC's checks follow colors",
    "option_fits": "DLX2's links against SSXCC's sets and DLX5's "
    "interleaved nodes",
    "option_items": "SSXCC's nodes are four words, SSXC1's two",
    "purify": "DLX3's purify also keeps its bounds; DLX5's hides only "
    "the options below the cost threshold",
    "unpurify": "as purify",
    "hide_option": "DLX5's walks the interleaved nodes of its cost lists",
    "assign_taxes": "DLX5 taxes every item, DLX3 with costs the items of "
    "fixed multiplicity, each v times",
    "record": "each keeps its k best in its own heap of options",
    "exclude_option": "a job's excluded options: SSMCC takes one out of "
    "its sparse sets (undone by release_option), DLX3 "
    "with costs out of its lists for the run's life",
    "tweak": "DLX3 with costs tweaks within the cost threshold",
    "untweak": "as tweak",
}

# Codes every kernel returns to the services, which read them as the
# engine interface's (dlx.engines.base).
CODES = {
    "EXHAUSTED": base.EXHAUSTED,
    "PAUSED": base.PAUSED,
    "OUT_OF_NODES": base.OUT_OF_NODES,
}


def definitions():
    """{name: {file stem: (ast dump without the docstring, value)}} for
    every module-level function and constant of every kernel file."""
    found = collections.defaultdict(dict)
    for path in sorted(KERNELS.glob("*.py")):
        if path.stem == "__init__":
            continue
        source = path.read_text()
        for node in ast.parse(source).body:
            if isinstance(node, ast.FunctionDef):
                body = node.body
                if (
                    body
                    and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                ):
                    node.body = body[1:]
                found[node.name][path.stem] = ast.dump(node)
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                found[node.targets[0].id][path.stem] = ast.dump(node.value)
    return found


DEFINED = definitions()


@pytest.mark.parametrize("name", sorted(SAME) + ["hide-dlx2-dlx3"])
def test_the_listed_copies_are_the_same_code(name):
    files = SAME_TOO["hide"] if name == "hide-dlx2-dlx3" else SAME[name]
    name = name.split("-")[0]
    copies = {stem: DEFINED[name][stem] for stem in files}
    assert len(set(copies.values())) == 1, (
        f"{name} differs between {sorted(files)}: mend every copy"
    )


def test_every_shared_function_is_listed_or_a_declared_variant():
    for name, copies in DEFINED.items():
        if len(copies) < 2 or not name[0].islower():
            continue
        listed = set().union(
            *(
                group
                for key, group in list(SAME.items()) + list(SAME_TOO.items())
                if key == name
            )
        )
        if name in VARIANTS:
            continue
        assert set(copies) <= listed, (
            f"{name} is defined in {sorted(copies)}: list the copies in "
            f"SAME (identical) or the function in VARIANTS (with why)"
        )


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_kernel_returns_the_interfaces_codes(code):
    import importlib

    for stem in DEFINED[code]:
        kernel = importlib.import_module(f"dlx.kernels.{stem}")
        assert getattr(kernel, code) == CODES[code], (stem, code)
