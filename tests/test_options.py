"""The options spec (``dlx.options``): every pair of options of every
search method, and every pair of ``dlx solve``'s flags, either works (the
answer is the reference's) or is refused in the spec's one sentence."""

from __future__ import annotations

import itertools
import math
import pathlib
import threading

import pytest

from dlx import BudgetExhausted, ExactCover, Unsupported
from dlx.cli import main
from dlx.cli.command import build_parser
from dlx.cli.flags import check_flags
from dlx.options import (
    GROUPS,
    OPTIONS,
    RENAMED,
    SEARCHES,
    WAYS,
    Budget,
    Method,
    Workers,
    check,
)

from reference import exact_covers

# A small exact cover with several solutions and costs: items 0..3.
OPTION_ITEMS = [[0, 1], [2, 3], [0], [1], [2], [3], [0, 2], [1, 3]]
COSTS = [3, 1, 2, 2, 1, 1, 5, 0]
SOLUTIONS = set(exact_covers(OPTION_ITEMS, 4, 4))


def problem() -> ExactCover:
    p = ExactCover(range(4))
    p.add_options(OPTION_ITEMS, costs=COSTS)
    return p


def sample(name: str, tmp_path):
    """A valid value of option ``name`` other than its default."""
    return {
        "k": 2,
        "limit": 2,
        "given": [0],
        "max_nodes": 10**6,
        "time_limit": 60.0,
        "stop": threading.Event(),
        "threads": 2,
        "mrv_cutoff": 1,
        "algorithm": "cells",
        "memo": True,
        "memo_bytes": 1 << 20,
        "choose": "first",
        "zdd_bytes": 1 << 24,
        "jobs": 1,
        "executor": None,  # see below: a real executor per call
        "checkpoint": str(tmp_path / f"c{next(_NUMBERS)}"),
        "progress": lambda progress: None,
        "split_into": 2,
        "reduce": True,
        "probes": 50,
        "seed": 1,
    }[name]


_NUMBERS = itertools.count()


def expected(search: str, values: dict):
    """The reference's answer for ``search`` with ``values``."""
    given = set(values.get("given", ()))
    solutions = {s for s in SOLUTIONS if given <= set(s)}
    if search == "count":
        limit = values.get("limit")
        return len(solutions) if limit is None else min(limit, len(solutions))
    if search == "best":
        k = values.get("k", 1)
        return sorted(sum(COSTS[o] for o in s) for s in solutions)[:k]
    return solutions


def answer_of(search: str, p: ExactCover, values: dict):
    """``p``'s method ``search`` called with ``values``, in the terms of
    ``expected``."""
    if search == "count":
        return p.count(**values)
    if search == "best":
        return [cost for cost, _ in p.best(**values)]
    if search == "solve":
        found = p.solve(**values)
        return {tuple(found)} if found is not None else set()
    if search == "solutions":
        return {tuple(s) for s in p.solutions(**values)}
    if search == "zdd":
        return {tuple(sorted(s)) for s in p.zdd(**values)}
    if search == "estimate":
        return p.estimate(**values)
    raise AssertionError(search)


PAIRS = [
    (search, pair)
    for search in SEARCHES
    if search != "solve_batch"
    for pair in itertools.combinations(
        [k for k, o in OPTIONS.items() if search in o.searches], 2
    )
]


@pytest.mark.parametrize(
    "search, pair", PAIRS, ids=[f"{s}-{a}-{b}" for s, (a, b) in PAIRS]
)
def test_every_pair_of_options_works_or_is_refused_in_the_specs_words(
    search, pair, tmp_path
):
    import concurrent.futures as cf

    values = {name: sample(name, tmp_path) for name in pair}
    with cf.ThreadPoolExecutor(1) as pool:
        if "executor" in values:
            values["executor"] = pool
        try:
            check(search, **values)
            refusal = None
        except (TypeError, ValueError) as error:
            refusal = error
        if refusal is not None:
            with pytest.raises(type(refusal)) as raised:
                answer_of(search, problem(), values)
            assert str(raised.value) == str(refusal)
            return
        found = answer_of(search, problem(), values)
    if search == "estimate":
        assert found.solutions > 0
    elif search in ("solve", "solutions"):
        reference = expected(search, values)
        assert found <= reference
        limit = 1 if search == "solve" else values.get("limit")
        assert len(found) == min(len(reference), limit or len(reference))
    else:
        assert found == expected(search, values)


def grouped(values: dict) -> dict:
    """``values`` (options by name) with those of a group gathered in its
    dataclass, under the keyword the methods take it by."""
    fields: dict = {}
    for name, value in values.items():
        fields.setdefault(OPTIONS[name].group, {})[name] = value
    rest = fields.pop(None, {})
    return {**rest, **{g: GROUPS[g](**f) for g, f in fields.items()}}


class _Checked(Exception):
    pass


@pytest.mark.parametrize(
    "search, pair", PAIRS, ids=[f"{s}-{a}-{b}" for s, (a, b) in PAIRS]
)
def test_every_pair_of_options_reads_the_same_from_its_groups(
    search, pair, tmp_path, monkeypatch
):
    import dlx.problem

    values = {name: sample(name, tmp_path) for name in pair}
    values["executor"] = values.get("executor") and None
    seen = []

    def spy(search, problem, **options):
        seen.append(options)
        raise _Checked

    monkeypatch.setattr(dlx.problem, "check", spy)
    for spelling in (values, grouped(values)):
        with pytest.raises(_Checked):
            answer_of(search, problem(), dict(spelling))
    assert seen[0] == seen[1]


def test_the_groups_hold_every_option_of_their_group_with_its_default():
    for keyword, cls in GROUPS.items():
        fields = cls()
        assert vars(fields) == {
            name: option.default
            for name, option in OPTIONS.items()
            if option.group == keyword
        }
    assert {Method, Workers, Budget} == set(GROUPS.values())


def test_a_group_answers_as_its_keywords_do():
    p = problem()
    assert p.count(method=Method(memo=True)) == len(SOLUTIONS)
    assert p.count(workers=Workers(threads=2), given=[0]) == expected(
        "count", {"given": [0]}
    )
    assert [c for c, _ in p.best(2, workers=Workers(split_into=2))] == (
        expected("best", {"k": 2})
    )
    stop = threading.Event()
    stop.set()
    with pytest.raises(BudgetExhausted):
        p.count(budget=Budget(stop=stop))


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda p: p.count(time_limit=5, budget=Budget(time_limit=6)),
            "time_limit is given twice: as a keyword and in budget",
        ),
        (
            lambda p: p.count(budget=Method(memo=True)),
            "count()'s budget must be a dlx.Budget, got Method(",
        ),
        (
            lambda p: p.count(timelimit=5),
            "count() got an unexpected keyword argument 'timelimit'",
        ),
    ],
)
def test_a_group_given_wrong_is_refused_in_one_sentence(call, message):
    with pytest.raises(TypeError) as raised:
        call(problem())
    assert str(raised.value).startswith(message)


def test_a_group_field_a_search_does_not_take_is_refused_as_its_keyword():
    with pytest.raises(Unsupported) as grouped_error:
        problem().count(budget=Budget(zdd_bytes=5))
    with pytest.raises(Unsupported) as keyword_error:
        problem().count(zdd_bytes=5)
    assert str(grouped_error.value) == str(keyword_error.value)
    assert str(keyword_error.value) == "count() does not take zdd_bytes"


@pytest.mark.parametrize(
    "search, name, value",
    [
        (search, name, value)
        for name, option in OPTIONS.items()
        if option.kind in ("whole", "positive")
        for search in sorted(option.searches)
        if search not in ("solve_batch",)
        for value in (-1, True, 1.5, "3")
    ],
)
def test_every_number_is_checked_the_same_way(search, name, value):
    """Item 9: a number out of range or of the wrong type is refused by
    every search that takes it, in the same sentence."""
    method = getattr(problem(), search)
    with pytest.raises((TypeError, ValueError)) as raised:
        result = method(**{name: value})
        if search == "solutions":
            next(iter(result))
    assert str(raised.value).startswith(f"{name} must be")


def test_zero_jobs_to_split_into_is_refused_as_best_refuses_it():
    for search in ("count", "best"):
        with pytest.raises(ValueError, match="split_into must be a positive"):
            getattr(problem(), search)(split_into=0)


@pytest.mark.parametrize("search", ["count", "best"])
def test_an_old_option_name_works_with_a_warning_naming_the_new_one(search):
    for old, new in RENAMED.items():
        method = getattr(problem(), search)
        with pytest.warns(DeprecationWarning, match=f"use {new}") as caught:
            found = method(**{old: 2})
        assert caught[0].filename == __file__  # the caller's line
        assert found == method(**{new: 2})
        with (
            pytest.raises(ValueError, match=f"{new} must be a positive"),
            pytest.warns(DeprecationWarning),
        ):
            method(**{old: 0})
        with pytest.raises(TypeError, match=f"not both {new} and {old}"):
            method(**{old: 2, new: 2})


@pytest.mark.parametrize(
    "search",
    [
        s
        for s in sorted(OPTIONS["time_limit"].searches)
        if s != "solve_batch"  # (a batch: tests/test_bulk.py)
    ]
    + ["count-threads"],
)
def test_an_infinite_time_limit_means_no_limit(search):
    """``time_limit=inf`` is no limit, as a huge ``limit`` is (a
    deadline's arithmetic overflowed: OverflowError)."""
    values: dict = {}
    if search == "count-threads":
        search, values["threads"] = "count", 2
    found = answer_of(search, problem(), {**values, "time_limit": math.inf})
    assert found == answer_of(search, problem(), values)


def test_every_time_limit_flag_reads_the_one_definition():
    """Every flag of a time limit, in every command of ``dlx`` and
    ``sudoku`` (``sudoku serve`` too), is read by ``dlx.cli.flags.seconds``
    (the spec's range), not a copy of it with its own range."""
    import argparse

    from dlx.cli.flags import seconds
    from sudoku.cli import build_parser as sudoku_parser

    def actions(parser):
        for action in parser._actions:
            yield action
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from actions(sub)

    timed = [
        action
        for parser in (build_parser(), sudoku_parser())
        for action in actions(parser)
        if any("time" in flag for flag in action.option_strings)
    ]
    assert {"--time-limit", "--max-time-limit", "--reduce-time"} <= {
        flag for action in timed for flag in action.option_strings
    }
    for action in timed:
        assert action.type is seconds, action.option_strings


def test_a_huge_limit_means_no_limit():
    assert problem().count(limit=10**30) == len(SOLUTIONS)


def test_the_ways_tables_name_only_known_options():
    for ways in WAYS.values():
        for way in ways:
            assert set(way.takes) | set(way.chosen_by) <= set(OPTIONS)


# -- dlx solve's flags ----------------------------------------------------
def flag_sets(tmp_path):
    return {
        "--count": ["--count"],
        "--all": ["--all"],
        "--limit": ["--limit", "2"],
        "--best": ["--best", "2"],
        "--zdd": ["--zdd", str(tmp_path / "o.zdd")],
        "--estimate": ["--estimate"],
        "--algorithm": ["--algorithm", "cells"],
        "--memo": ["--memo"],
        "--memo-mb": ["--memo-mb", "1"],
        "--choose": ["--choose", "first"],
        "--jobs": ["--jobs", "1"],
        "--checkpoint": ["--checkpoint", str(tmp_path / "c")],
        "--no-progress": ["--no-progress"],
        "--time-limit": ["--time-limit", "60"],
        "--probes": ["--probes", "10"],
        "--seed": ["--seed", "1"],
        "--reduce": ["--reduce"],
        "--rounds": ["--rounds", "1"],
        "--stats": ["--stats"],
    }


FLAGS = list(flag_sets(pathlib.Path("x")))
FLAG_PAIRS = list(itertools.combinations(FLAGS, 2))


@pytest.mark.parametrize("first, second", FLAG_PAIRS)
def test_every_pair_of_dlx_solve_flags_works_or_is_refused(
    first, second, tmp_path, capsys
):
    path = tmp_path / "p.dlx"
    lines = ["0 1 2 3"] + [
        " ".join(str(i) for i in items) + (f" |{c}" if c else "")
        for items, c in zip(OPTION_ITEMS, COSTS)
    ]
    path.write_text("\n".join(lines) + "\n")
    flags = flag_sets(tmp_path)
    argv = ["solve", str(path), *flags[first], *flags[second]]
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:  # argparse's own groups (--count, --all, --limit)
        assert main(argv) == 2
        return
    try:
        check_flags(args)
        refusal = None
    except ValueError as error:
        refusal = str(error)
    status = main(argv)
    out, err = capsys.readouterr()
    if refusal is not None:
        assert status == 2 and err == f"dlx: error: {refusal}\n"
        return
    assert status == 0, err
    if "--count" in (first, second) or "--zdd" in (first, second):
        assert out.split()[-1] == str(len(SOLUTIONS))
    if "--best" in (first, second):
        costs = [
            int(line.split()[1])
            for line in out.splitlines()
            if line.startswith("cost ")
        ]
        assert costs == expected("best", {"k": 2})


def test_every_flag_is_built_from_its_spec_entry(capsys):
    """Every option with a flag is in ``dlx solve --help`` with the spec's
    help line, and reads its value as the spec's kind says (the flag's
    own kind where its unit differs: --memo-mb, --limit)."""
    import re

    from dlx.cli.flags import READERS
    from dlx.services.estimate import DEFAULT_PROBES
    from dlx.services.memo import DEFAULT_MEMO_BYTES

    with pytest.raises(SystemExit):
        build_parser().parse_args(["solve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    parser = build_parser()
    solve = next(
        a for a in parser._actions if isinstance(a.choices, dict)
    ).choices["solve"]
    actions = {s: a for a in solve._actions for s in a.option_strings}
    flagged = [o for o in OPTIONS.values() if o.flag is not None]
    assert len(flagged) >= 14
    for option in flagged:
        flag = option.flag
        line = " ".join(flag.help_line().split())
        assert re.search(
            re.escape(flag.name) + r".{0,60}? " + re.escape(line), shown
        ), flag.name
        action = actions[flag.name]
        kind = flag.kind or option.kind
        if not flag.switch:
            assert action.type is READERS.get(kind), flag.name
        if kind == "choice":
            assert tuple(action.choices) == option.choices
    # The defaults the help lines name are the code's.
    assert f"(default {DEFAULT_MEMO_BYTES >> 20})" in (
        OPTIONS["memo_bytes"].flag.help_line()
    )
    assert (
        f"(default {DEFAULT_PROBES:,})" in OPTIONS["probes"].flag.help_line()
    )
    assert OPTIONS["probes"].default == DEFAULT_PROBES


# -- the web API -----------------------------------------------------------
@pytest.mark.parametrize(
    "params, message",
    [
        ({"builder": "queens", "n": 6, "distinct": True}, "'distinct' does"),
        ({"builder": "dlx", "problem": "A\nA\n", "n": 4}, "'n' does not"),
        ({"builder": "pentomino", "problem": "A\nA\n"}, "'problem' does"),
    ],
)
def test_web_fields_that_do_not_apply_are_refused(params, message):
    from sudoku.web.service import RequestError, Settings, exact_cover

    with pytest.raises(RequestError, match=message):
        exact_cover(params, Settings(), None)


def test_web_search_fields_come_from_the_spec():
    from sudoku.web.service import MODE_SEARCHES

    for search in MODE_SEARCHES.values():
        fields = {
            o.web_field
            for o in OPTIONS.values()
            if o.web_field and search in o.searches
        }
        assert {"limit", "time_limit"} <= fields


# -- --time-limit and refusals from every flag (issue 34, items 8, 11) ----
def big_problem(tmp_path) -> str:
    """Domino tilings of 8x8: 12,988,816, too many for no time at all."""
    from dlx import dumps
    from dlx.problems.tiling import tiling

    path = tmp_path / "big.dlx"
    path.write_text(dumps(tiling("8x8")))
    return str(path)


@pytest.mark.parametrize(
    "flags, partial",
    [
        (["--count"], r"^\d+ \(partial: stopped\)$"),
        (["--all"], None),
        (["--best", "2"], None),
    ],
)
def test_time_limit_hands_back_the_partial_answer(
    flags, partial, tmp_path, capsys
):
    import re

    status = main(
        ["solve", big_problem(tmp_path), *flags, "--time-limit", "0"]
    )
    out, err = capsys.readouterr()
    if "--best" in flags and status == 0:  # found and proven at once
        return
    assert status == 1
    assert (
        "time limit reached" in err and "partial" in err or "not proven" in err
    )
    if partial:
        assert re.match(partial, out.splitlines()[-1])


def test_sudoku_time_limit_hands_back_the_partial_count(capsys):
    from sudoku.cli import main as sudoku_main

    status = sudoku_main(["solve", "." * 81, "--count", "--time-limit", "0"])
    out, err = capsys.readouterr()
    assert status == 1 and out.endswith("(partial: stopped)\n")
    assert "time limit reached" in err
    status = sudoku_main(
        ["count", "." * 81, "--time-limit", "1", "--jobs", "2"]
    )
    assert status == 2
    assert "a count in jobs cannot be combined with --time-limit" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    "flags",
    [
        ["--algorithm", "bits"],
        ["--count", "--algorithm", "bits"],
        ["--estimate", "--algorithm", "bits"],
    ],
)
def test_not_available_is_a_usage_error_from_every_flag(
    flags, tmp_path, capsys
):
    path = tmp_path / "bounds.dlx"
    path.write_text("2:3|A B\nA\nA B\nB\n")
    argv = ["solve", str(path)] + flags
    assert main(argv) == 2
    assert "is not available for a problem with" in capsys.readouterr().err


@pytest.mark.parametrize("flags", [["--zdd", "{out}"], ["--count", "--memo"]])
def test_memo_and_zdd_flags_take_bounds(flags, tmp_path, capsys):
    path = tmp_path / "bounds.dlx"
    path.write_text("2:3|A B\nA\nA B\nB\nA\n")
    out = tmp_path / "o.zdd"
    argv = ["solve", str(path)] + [f.format(out=out) for f in flags]
    assert main(argv) == 0
    if "--memo" in flags:
        assert capsys.readouterr().out.splitlines()[-1] == "4"
    else:
        assert main(["zdd", str(out), "--count"]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == "4"
