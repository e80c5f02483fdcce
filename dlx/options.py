"""The options of a search, declared once: what each is, which searches
take it, what it needs or excludes, its flag and its web field.

Every entry point reads this table: ``ExactCover``'s search methods check
their arguments with ``check`` once, at the boundary, and hand the checked
values down; the commands build each option's flag from its ``Flag``
(name, help line, how it reads its value: ``dlx.cli.flags.add_flag``) and
``dlx solve`` refuses its conflicting flags with ``check_flags``; the
web API names its fields from it; and the documentation's table of
which options go together is ``table()``'s rendering (``docs/engines.md``,
kept equal by ``tests/test_options.py``).

A search is one of ``SEARCHES`` (the ``ExactCover`` method of that name).
Some run more than one *way*: a count runs serially, on threads, in jobs
or memoized; a search for the cheapest solutions serially, on threads or
in jobs.  The way is chosen by the options given (``Way.chosen_by``, the
first way that matches, in ``WAYS``'s order), and each way takes only
some options (``Way.takes``).  A mistake is refused with one sentence,
``Unsupported`` (a ValueError) or a TypeError for a value of the wrong
type, the same words from Python, the command line and the web API, each
naming the option as its caller spells it (``names``).

>>> check("count", limit=5, threads=2)
Traceback (most recent call last):
    ...
dlx.engines.base.Unsupported: a count on threads cannot be combined with limit
>>> check("count", split_into=0)
Traceback (most recent call last):
    ...
ValueError: split_into must be a positive integer, got 0
>>> checked = check("count", limit=5)
>>> checked.way, checked.values["limit"]
('serial', 5)
"""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Light imports only: the command lines build their flags from this spec
# before any search, so numpy and the services (dlx.services.search, for
# the shared number checks) load when a value is first checked.
from .engines import ALGORITHMS, Unsupported, algorithm_help
from .engines.base import CHOICE_RULES
from .shorten import shorten

__all__ = [
    "Option",
    "Flag",
    "Way",
    "Checked",
    "OPTIONS",
    "SEARCHES",
    "WAYS",
    "check",
    "table",
    "ranges",
    "RENAMED",
    "renamed",
    "Method",
    "Workers",
    "Budget",
    "GROUPS",
    "gather",
    "is_default",
]

SEARCHES = {
    "solve": "solve()",
    "solutions": "solutions()",
    "count": "count()",
    "best": "best()",
    "zdd": "zdd()",
    "estimate": "estimate()",
    "solve_batch": "solve_batch()",
}
"""The searches, as a sentence names them when they do not take an option."""

# The kinds of value (``Option.kind``), and how each is documented.
KINDS = {
    "whole": "a whole number >= 0",
    "positive": "a whole number >= 1",
    "seconds": "a number of seconds >= 0",
    "choice": "one of",
    "given": "option numbers",
    "event": "an event with is_set()",
    "memo": "True, False or 'auto'",
    "reduce": "True, False or a dict of reduce()'s keywords",
    "progress": "True, False, None or a callable",
    "executor": "a concurrent.futures.Executor",
    "path": "a file name",
    "rules": "rule names",
    # (flags only)
    "mebibytes": "a number of MiB >= 0",
    "address": "an address",
}


@dataclass(frozen=True)
class Flag:
    """An option's command-line flag (``dlx solve``'s, and the other
    commands' that have it): its name and help line, and how it reads
    its value: ``kind`` (a key of ``KINDS``; None: the option's own, a
    flag may differ in its unit or range), ``metavar``; ``switch``: a
    flag without a value (True: on when given; ``"both"``: also
    ``--no-...``); ``default``: argparse's (None: not given).  ``help``
    may be a function of no arguments (a line read from the registry).
    ``dlx.cli.flags.add_flag`` adds it to a parser."""

    name: str
    help: str | Callable[[], str]
    metavar: str | None = None
    kind: str | None = None
    switch: bool | str = False
    default: Any = None

    def help_line(self) -> str:
        """Its help line, as ``--help`` shows it."""
        return self.help() if callable(self.help) else self.help


@dataclass(frozen=True)
class Option:
    """One option of a search.

    ``kind``: its type and range (a key of ``KINDS``; ``choices`` for a
    choice); ``none``: None is also taken (and is the default unless
    ``default`` says otherwise); ``searches``: the searches that take it;
    ``needs``: ``{search: option}``, an option it needs in that search;
    ``flag``: its command-line ``Flag``, ``web_field``: its web field
    (None: none); ``doc``: its line of documentation; ``group``: the
    key of ``GROUPS`` whose dataclass holds it (None: the search's own
    arguments, what to find)."""

    name: str
    kind: str
    doc: str
    searches: frozenset
    default: Any = None
    none: bool = False
    choices: tuple = ()
    needs: Mapping = field(default_factory=dict)
    flag: Flag | None = None
    web_field: str | None = None
    # A search whose own sentence refuses it (``{search: sentence}``,
    # ``{name}`` the option as the caller names it).
    refused: Mapping = field(default_factory=dict)
    group: str | None = None

    def range(self) -> str:
        """Its type and range, as the docs and the sentences say them."""
        if self.kind == "choice":
            text = "one of " + ", ".join(repr(c) for c in self.choices)
        else:
            text = KINDS[self.kind]
        return text + (" or None" if self.none else "")


def _searches(*names: str) -> frozenset:
    return frozenset(names)


_LISTING = ("solve", "solutions", "count")
_BUDGETED = ("solve", "solutions", "count", "best", "zdd", "solve_batch")

OPTIONS: dict[str, Option] = {
    o.name: o
    for o in (
        Option(
            "k",
            "positive",
            "how many of the cheapest solutions",
            _searches("best"),
            default=1,
            flag=Flag(
                "--best",
                "print the K cheapest solutions (options cost '|n' as in "
                "Knuth's DLX5), cheapest first, each after a line 'cost N'; "
                "with --jobs N or --scheduler, split into jobs that share "
                "the best found so far",
                metavar="K",
            ),
            web_field="limit",
        ),
        Option(
            "limit",
            "whole",
            "stop after this many solutions (solve_batch: per instance, "
            "at least 1, default 2)",
            _searches("solutions", "count", "solve_batch"),
            none=True,
            flag=Flag(
                "--limit",
                "print at most N solutions (default 1)",
                metavar="N",
                kind="positive",
            ),
            web_field="limit",
        ),
        Option(
            "given",
            "given",
            "options every solution must contain",
            _searches(
                "solve", "solutions", "count", "best", "zdd", "estimate"
            ),
            default=(),
        ),
        Option(
            "max_nodes",
            "whole",
            "stop after this many search-tree nodes",
            _searches(*_BUDGETED),
            none=True,
            group="budget",
        ),
        Option(
            "time_limit",
            "seconds",
            "stop after this many seconds; the partial answer is raised "
            "with BudgetExhausted",
            _searches(*_BUDGETED),
            none=True,
            flag=Flag(
                "--time-limit",
                "stop the search after SECONDS and print what it found so "
                "far, marked as partial (exit status 1)",
                metavar="SECONDS",
            ),
            web_field="time_limit",
            group="budget",
        ),
        Option(
            "stop",
            "event",
            "stop once this event is set, as a budget does",
            _searches(*_LISTING, "best", "solve_batch"),
            none=True,
            group="budget",
        ),
        Option(
            "threads",
            "whole",
            "threads of one process (0: one per core)",
            _searches("count", "best", "solve_batch"),
            default=1,
            group="workers",
        ),
        Option(
            "mrv_cutoff",
            "whole",
            "branch on the first item with at most this many options",
            _searches(*_LISTING, "estimate", "solve_batch"),
            default=0,
            group="method",
        ),
        Option(
            "algorithm",
            "choice",
            "the engine (see dlx.engines.registry)",
            _searches(*_LISTING, "estimate", "solve_batch"),
            default="auto",
            choices=ALGORITHMS,
            flag=Flag("--algorithm", algorithm_help, default="auto"),
            group="method",
        ),
        Option(
            "memo",
            "memo",
            "remember the count of every subproblem",
            _searches("count"),
            default=False,
            flag=Flag(
                "--memo",
                "remember the count of every subproblem (set of uncovered "
                "items): far faster where they repeat, as in tilings",
                switch=True,
            ),
            group="method",
        ),
        Option(
            "memo_bytes",
            "whole",
            "the memo's table size limit in bytes (default 256 MiB)",
            _searches("count", "zdd"),
            none=True,
            needs={"count": "memo"},
            flag=Flag(
                "--memo-mb",
                "the table's size limit in MiB (default 256)",
                metavar="MB",
                kind="mebibytes",
            ),
            group="method",
        ),
        Option(
            "choose",
            "choice",
            "the memo's item choice rule",
            _searches("count", "zdd"),
            default="auto",
            choices=CHOICE_RULES,
            needs={"count": "memo"},
            flag=Flag(
                "--choose",
                "the item to branch on: mrv (fewest options), first (sweep "
                "the items in order) or auto (default: first when every "
                "option is local in item order)",
            ),
            group="method",
        ),
        Option(
            "zdd_bytes",
            "whole",
            "the diagram's size limit in bytes (default 1 GiB)",
            _searches("zdd"),
            none=True,
            group="budget",
        ),
        Option(
            "jobs",
            "whole",
            "processes that run the jobs (0: one per core; 1: this one)",
            _searches("count", "best"),
            none=True,
            flag=Flag(
                "--jobs",
                "count on N processes (default 0: one per core; 1: in this "
                "process)",
                metavar="N",
            ),
            group="workers",
        ),
        Option(
            "executor",
            "executor",
            "a concurrent.futures.Executor that runs the jobs (Dask's too)",
            _searches("count", "best"),
            none=True,
            flag=Flag(
                "--scheduler",
                "count on the Dask cluster whose scheduler is at ADDRESS "
                "(e.g. tcp://10.0.0.5:8786; needs pip install "
                "'dlx-toolkit[dask]')",
                metavar="ADDRESS",
                kind="address",
            ),
            group="workers",
        ),
        Option(
            "checkpoint",
            "path",
            "a file recording each finished job; the same call resumes",
            _searches("count", "best"),
            none=True,
            flag=Flag(
                "--checkpoint",
                "record each finished job in FILE; the same command after "
                "a crash or Ctrl-C resumes from it",
                metavar="FILE",
            ),
            refused={
                "best": "a search for the cheapest solutions cannot be "
                "checkpointed ({name} is for counts); a time limit "
                "hands back what it found"
            },
            group="workers",
        ),
        Option(
            "split_into",
            "positive",
            "how many jobs the tree is split into",
            _searches("count", "best"),
            none=True,
            group="workers",
        ),
        Option(
            "progress",
            "progress",
            "a bar on stderr (True), or a callable given a Progress",
            _searches("count", "best"),
            none=True,
            flag=Flag(
                "--progress",
                "a progress bar on stderr (default: when stderr is a "
                "terminal and the count lasts over a second)",
                switch="both",
            ),
            group="workers",
        ),
        Option(
            "reduce",
            "reduce",
            "search the problem reduced by Knuth's DLX-PRE rules",
            _searches("solve", "solutions", "count", "best"),
            default=False,
            flag=Flag(
                "--reduce",
                "search the problem reduced by Knuth's DLX-PRE rules (see "
                "dlx reduce); solutions are printed as the original options",
                switch=True,
            ),
            group="method",
        ),
        Option(
            "probes",
            "positive",
            "random root-to-leaf probes",
            _searches("estimate"),
            default=10_000,
            flag=Flag(
                "--probes",
                "probes of the estimate (default 10,000)",
                metavar="N",
            ),
        ),
        Option(
            "seed",
            "whole",
            "the probes' random seed",
            _searches("estimate"),
            default=0,
            flag=Flag(
                "--seed",
                "random seed of the estimate (default 0)",
                metavar="S",
            ),
        ),
    )
}
"""Every search option, in the order sentences name them."""

RENAMED = {"split_jobs": "split_into"}
"""Options renamed, by their old names: the old keyword still works, with
a DeprecationWarning naming the new one (``renamed``).  ``split_jobs``
(how many jobs a tree is split into) sat beside ``jobs`` (the processes
that run them)."""


def renamed(
    arguments: dict,
    stacklevel: int = 2,
    names: Mapping[str, str] = RENAMED,
) -> dict:
    """``arguments`` (keywords by name) with every old name of ``names``
    given (not None) moved to its new name, with a DeprecationWarning
    naming the new one; a TypeError when the new one is given too.  An
    old name left None is dropped.  ``stacklevel`` as for
    ``warnings.warn``, counted from the caller of ``renamed``."""
    for old, new in names.items():
        if arguments.get(old) is None:
            arguments.pop(old, None)
            continue
        if arguments.get(new) is not None:
            raise TypeError(f"give {new}, not both {new} and {old}")
        warnings.warn(
            f"{old} is deprecated: use {new}",
            DeprecationWarning,
            stacklevel=stacklevel + 1,
        )
        arguments[new] = arguments.pop(old)
    return arguments


# -- the groups ---
# Each search method takes its options one by one (``time_limit=5``) or
# gathered by what they are about, one small dataclass per concept: how
# the search runs (``Method``), where (``Workers``) and when it stops
# (``Budget``); what to find is the method itself and its own arguments
# (``limit``, ``k``, ``given``).  A field left at its default asks for
# nothing; ``gather`` flattens the groups into the options ``check``
# reads, so a group is checked in the same words as the keywords.


@dataclass(frozen=True)
class Method:
    """How a search runs: the engine (``algorithm``, ``mrv_cutoff``), the
    memo (``memo``, ``memo_bytes``, ``choose``) and a pre-transform
    (``reduce``).  Each field is the search option of the same name
    (``dlx.options.OPTIONS``), with its default.

    >>> Method(algorithm="cells")
    Method(algorithm='cells', mrv_cutoff=0, memo=False, memo_bytes=None, \
choose='auto', reduce=False)
    """

    algorithm: str = "auto"
    mrv_cutoff: int = 0
    memo: bool | str = False
    memo_bytes: int | None = None
    choose: str = "auto"
    reduce: bool | dict = False


@dataclass(frozen=True)
class Workers:
    """Where a search runs: ``threads`` of this process, or ``jobs`` on
    processes or an ``executor``'s workers (``split_into`` jobs, recorded
    in a ``checkpoint`` file), with a ``progress`` bar or callback.  Each
    field is the search option of the same name, with its default."""

    threads: int = 1
    jobs: int | None = None
    executor: Any = None
    split_into: int | None = None
    checkpoint: str | os.PathLike | None = None
    progress: bool | Callable | None = None


@dataclass(frozen=True)
class Budget:
    """When a search stops before its end: after ``max_nodes`` nodes,
    ``time_limit`` seconds, once ``stop`` (an event) is set, or (a ZDD)
    past ``zdd_bytes``; the search then raises ``BudgetExhausted`` with
    what it found.  Each field is the search option of the same name,
    with its default."""

    max_nodes: int | None = None
    time_limit: float | None = None
    stop: Any = None
    zdd_bytes: int | None = None


GROUPS: dict[str, type] = {
    "method": Method,
    "workers": Workers,
    "budget": Budget,
}
"""The groups, by the keyword a search method takes each as (the
``Option.group`` of its fields)."""


def gather(search: str, groups: Mapping[str, Any], options: dict) -> dict:
    """``options`` (keywords by name) with the fields of ``groups``
    (``{keyword: dataclass or None}``, keys of ``GROUPS``) that ask for
    something moved in beside them: a TypeError when a group is not its
    dataclass, or when an option is given both ways.  Which options
    ``search`` takes is ``check``'s to say, in its usual sentence."""
    for keyword, group in groups.items():
        if group is None:
            continue
        cls = GROUPS[keyword]
        if not isinstance(group, cls):
            raise TypeError(
                f"{SEARCHES[search]}'s {keyword} must be a dlx.{cls.__name__}"
                f", got {shorten(group)}"[:200]
            )
        for name, value in vars(group).items():
            if is_default(value, OPTIONS[name].default):
                continue
            if name in options and not is_default(
                options[name], OPTIONS[name].default
            ):
                raise TypeError(
                    f"{name} is given twice: as a keyword and in {keyword}"
                )
            options[name] = value
    return options


def is_default(value: Any, default: Any) -> bool:
    """Whether an argument is its option's default (which needs no check:
    ``check`` fills it in)."""
    return value is default or (
        type(value) is type(default) and bool(value == default)
    )


#: Each search's options with their defaults.
_DEFAULTS = {
    search: {k: o.default for k, o in OPTIONS.items() if search in o.searches}
    for search in SEARCHES
}


@dataclass(frozen=True)
class Way:
    """One way a search runs: ``says`` names it in a sentence; it is
    chosen when any of ``chosen_by`` is given (an empty tuple: the way
    taken when no other is) and every one of ``also``, and takes
    ``takes`` besides those."""

    search: str
    name: str
    says: str
    chosen_by: tuple
    takes: frozenset
    # Options that must all be given too for it to be chosen (a way that
    # combines two others: a memoized count in jobs).
    also: tuple = ()


WAYS: dict[str, tuple[Way, ...]] = {
    "count": (
        Way(
            "count",
            "memo jobs",
            "a memoized count in jobs",
            ("jobs", "executor", "checkpoint", "split_into"),
            _searches("given", "memo_bytes", "choose", "progress", "reduce"),
            also=("memo",),
        ),
        Way(
            "count",
            "memo",
            "a memoized count",
            ("memo", "memo_bytes", "choose"),
            _searches("given", "max_nodes", "time_limit", "stop", "reduce"),
        ),
        Way(
            "count",
            "jobs",
            "a count in jobs",
            ("jobs", "executor", "checkpoint", "split_into"),
            _searches(
                "given", "mrv_cutoff", "algorithm", "progress", "reduce"
            ),
        ),
        Way(
            "count",
            "threads",
            "a count on threads",
            ("threads",),
            _searches(
                "given",
                "time_limit",
                "stop",
                "mrv_cutoff",
                "algorithm",
                "reduce",
            ),
        ),
        Way(
            "count",
            "serial",
            "a count",
            (),
            _searches(
                "limit",
                "given",
                "max_nodes",
                "time_limit",
                "stop",
                "mrv_cutoff",
                "algorithm",
                "progress",
                "reduce",
            ),
        ),
    ),
    "best": (
        Way(
            "best",
            "jobs",
            "a search for the cheapest solutions in jobs",
            ("jobs", "executor", "split_into"),
            _searches(
                "k", "given", "time_limit", "stop", "progress", "reduce"
            ),
        ),
        Way(
            "best",
            "threads",
            "a search for the cheapest solutions on threads",
            ("threads",),
            _searches("k", "given", "time_limit", "stop", "reduce"),
        ),
        Way(
            "best",
            "serial",
            "a search for the cheapest solutions",
            (),
            _searches(
                "k",
                "given",
                "max_nodes",
                "time_limit",
                "stop",
                "progress",
                "reduce",
            ),
        ),
    ),
}
"""The ways of the searches that have several, in the order they are
tried (the first whose ``chosen_by`` is given); the others run one way."""


@dataclass
class Checked:
    """What ``check`` hands down: the way chosen and every option of the
    search, checked (``values``, defaults filled in)."""

    search: str
    way: str
    values: dict


def _value(option: Option, value: Any, name: str) -> Any:
    """``value`` of ``option`` checked: a TypeError for a wrong type, an
    ``Unsupported`` for a value out of range, each naming ``name``."""
    if value is None and option.none:
        return None
    import numpy as np

    from .services.search import seconds, stop_event, whole_number

    kind = option.kind
    # The checks every service shares (dlx.services.search), so that a
    # number is refused in the same words wherever it is met.
    if kind in ("whole", "positive"):
        return whole_number(name, value, positive=kind == "positive")
    if kind == "seconds":
        return seconds(name, value)
    if kind == "choice":
        if not isinstance(value, str) or value not in option.choices:
            error = Unsupported if isinstance(value, str) else TypeError
            raise error(
                f"{name} must be one of {', '.join(option.choices)}; "
                f"got {shorten(value)}"
            )
        return value
    if kind == "event":
        return stop_event(value)
    if kind == "memo":
        if isinstance(value, str) and value == "auto":
            return value
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise Unsupported(
            f"{name} must be True, False or 'auto', got {shorten(value)}"
        )
    if kind == "progress":
        if value is None or isinstance(value, bool) or callable(value):
            return value
        raise TypeError(
            f"{name} must be True, False, None or a callable, got "
            f"{shorten(value)}"[:200]
        )
    if kind == "executor":
        if not callable(getattr(value, "submit", None)):
            raise TypeError(
                f"{name} must be a concurrent.futures.Executor, got "
                f"{shorten(value)}"[:200]
            )
        return value
    if kind == "path":
        if not isinstance(value, (str, os.PathLike)):
            raise TypeError(
                f"{name} must be a file name, got {shorten(value)}"[:200]
            )
        return value
    if kind == "reduce":
        if isinstance(value, (bool, np.bool_, dict)):
            return value if isinstance(value, dict) else bool(value)
        raise TypeError(
            f"{name} must be True, False or a dict of reduce's "
            f"keywords, got {shorten(value)}"[:200]
        )
    # given: option numbers, checked against the problem (given_options)
    try:
        return list(value)
    except TypeError:
        raise TypeError(
            f"{name} must be option numbers, got {shorten(value)}"[:200]
        ) from None


def _given(option: Option, value: Any) -> bool:
    """Whether ``value`` asks for something (is not the default)."""
    if option.name == "threads":
        return value not in (0, 1) and value is not None
    if option.name == "progress":
        return bool(value)
    if option.name == "given":
        return bool(value)
    default = option.default
    import numpy as np

    if isinstance(value, np.ndarray) or isinstance(default, np.ndarray):
        return True
    return not (value is default or value == default)


def check(
    search: str,
    problem: Any = None,
    *,
    names: Mapping[str, str] | None = None,
    **given: Any,
) -> Checked:
    """The options ``given`` to ``search`` (a key of ``SEARCHES``),
    checked once: each on its own (type and range), then together (the
    way they choose, what it takes, what each needs).  With a
    ``problem``, ``given`` (the option numbers) is checked against it.

    ``names`` maps an option to the name its caller knows it by (a flag,
    a web field); the sentence names it so.  Returns a ``Checked``;
    raises ``Unsupported`` (a ValueError) or a TypeError, one sentence.
    """
    if not given:  # every option its default: nothing to check together
        values = dict(_DEFAULTS[search])
        if "given" in values:
            values["given"] = []  # no option given: none to check
        return Checked(search, _default_way(search), values)
    names = names or {}

    def name(option: str) -> str:
        return names.get(option, option)

    for key in given:
        option = OPTIONS.get(key)
        if option is None or search not in option.searches:
            raise Unsupported(f"{SEARCHES[search]} does not take {name(key)}")
    values = dict(_DEFAULTS[search])
    for key in given:
        value = _value(OPTIONS[key], given[key], name(key))
        if search == "solve_batch" and key == "limit" and value == 0:
            # a batch's instances each stop at ``limit`` >= 1 solutions
            raise Unsupported(f"{name(key)} must be a positive integer, got 0")
        if key == "threads" and value == 0:
            value = os.cpu_count() or 1
        values[key] = value
    # The options that ask for something, in OPTIONS's order (a default
    # asks for nothing).
    asked = [
        key
        for key in OPTIONS
        if key in given and _given(OPTIONS[key], values[key])
    ]
    for key in asked:
        sentence = OPTIONS[key].refused.get(search)
        if sentence is not None:
            raise Unsupported(sentence.format(name=name(key)))
    way = _way(search, asked, name)
    for key in asked:
        needed = OPTIONS[key].needs.get(search)
        if needed is not None and needed not in asked:
            raise Unsupported(f"{name(key)} needs {name(needed)}")
    if problem is not None and "given" in values:
        values["given"] = problem.given_options(values["given"])
    return Checked(search, way, values)


@functools.cache
def _default_way(search: str) -> str:
    """The way ``search`` runs when no option is given."""
    return _way(search, [], str)


def _way(search: str, asked: list, name: Callable[[str], str]) -> str:
    """The way ``asked`` (the options given) chooses, or ``Unsupported``
    naming those the way does not take: first the ones that would choose
    another way, then the others, in ``OPTIONS``'s order."""
    ways = WAYS.get(search)
    if ways is None:
        return "serial"
    way = next(
        w
        for w in ways
        if (not w.chosen_by or set(w.chosen_by) & set(asked))
        and set(w.also) <= set(asked)
    )
    choosers = [
        key
        for w in ways
        for key in w.chosen_by
        if w is not way and key not in way.chosen_by
    ]
    clashes = [key for key in _SPREAD if key in asked and key in choosers]
    clashes += [
        key
        for key in asked
        if key not in choosers
        and key not in way.chosen_by
        and key not in way.takes
    ]
    if clashes:
        raise Unsupported(
            f"{way.says} cannot be combined with "
            f"{' or '.join(name(k) for k in clashes)}"
        )
    return way.name


# The options that choose where a search runs, in the order a sentence
# names them when they clash with the way chosen.
_SPREAD = ("threads", "jobs", "executor", "checkpoint", "split_into")


def table() -> str:
    """The Markdown tables of every option (``ranges``) and of which
    options each way of ``count`` and ``best`` takes (``docs/engines.md``
    shows them)."""
    lines = [ranges()]
    for search, ways in WAYS.items():
        keys = [
            key
            for key, option in OPTIONS.items()
            if search in option.searches
            and not any(key in w.chosen_by for w in ways)
        ]
        lines.append(
            f"| `{search}()` option | "
            + " | ".join(w.name for w in ways)
            + " |"
        )
        lines.append("|---" * (len(ways) + 1) + "|")
        for key in keys:
            cells = ["yes" if key in w.takes else "no" for w in ways]
            lines.append(f"| `{key}` | " + " | ".join(cells) + " |")
        lines.append("")
        chosen = "; ".join(
            f"`{w.name}` when "
            + "".join(f"`{k}` and " for k in w.also)
            + (
                (
                    "`threads` > 1"
                    if w.chosen_by == ("threads",)
                    else " or ".join(f"`{k}`" for k in w.chosen_by)
                    + " is given"
                )
                if w.chosen_by
                else "no other is"
            )
            for w in ways
        )
        lines.append(f"A `{search}()` runs {chosen}.")
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def ranges() -> str:
    """The Markdown table of every option: its group, its range, the
    searches that take it, its ``dlx solve`` flag, its web field and its line of
    documentation."""
    lines = [
        "| option | group | value | searches | `dlx solve` | web | |",
        "|---|---|---|---|---|---|---|",
    ]
    for key, option in OPTIONS.items():
        searches = ", ".join(s for s in SEARCHES if s in option.searches)
        group = option.group and f"`{GROUPS[option.group].__name__}`"
        lines.append(
            f"| `{key}` | {group or ''} | {option.range()} | {searches} | "
            f"{'`' + option.flag.name + '`' if option.flag else ''} | "
            f"{'`' + option.web_field + '`' if option.web_field else ''} | "
            f"{option.doc} |"
        )
    return "\n".join(lines) + "\n"
