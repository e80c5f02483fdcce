"""The rough edges of issue 25, item 8 (the size limits are in
test_seeds_and_sizes.py, the ratings of variants in
test_rating_variants.py): each with the siblings of its class."""

import json

import pytest

import sudoku
from dlx import ExactCover, Interrupted, Stats, jobs
from dlx.cli import main as dlx_main
from dlx.cli.count import interrupted_message
from dlx.formats import DLXFormatError, dumps, loads
from dlx.problems.queens import queens
from sudoku.cli import main as sudoku_main


def run(main, capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# -- command-line errors name flags, not Python arguments --------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["generate", "--size", "5"],
        ["generate", "--size", "7", "-n", "2"],
        ["solve", "1" + "." * 24],
        ["count", "." * 25],
        ["rate", "1" + "." * 24],
        ["solve", "--count", "." * 49],
    ],
)
def test_sudoku_errors_name_the_box_flag(capsys, argv):
    status, out, err = run(sudoku_main, capsys, *argv)
    assert status in (1, 2), err
    assert "box=" not in err and "(rows, cols)" not in err
    assert "--box" in err


def test_a_region_map_is_asked_for_by_its_flag(capsys):
    status, _, err = run(
        sudoku_main, capsys, "solve", "." * 81, "--variant", "jigsaw"
    )
    assert status == 2 and "--regions" in err and "regions=" not in err


def test_probes_is_a_flag(capsys):
    status, _, err = run(
        dlx_main, capsys, "queens", "6", "--estimate", "--probes", "0"
    )
    assert status == 2 and "--probes" in err


# -- variants: an empty rule or a rule twice is refused ----------------------


@pytest.mark.parametrize(
    "rules,message",
    [
        ("+", "empty rule"),
        ("x+", "empty rule"),
        ("+x", "empty rule"),
        ("x++anti-king", "empty rule"),
        ("x+x", "'x' twice"),
        ("x+diagonal", "'x' twice"),
        ("windoku+hyper", "'windoku' twice"),
        (["x", "x"], "'x' twice"),
        ("classic+x", "'classic'"),
        ("x, ,anti-king", "empty rule"),
    ],
)
def test_bad_rule_lists_are_refused(rules, message):
    with pytest.raises(sudoku.InvalidVariant, match=message):
        sudoku.Variant(rules)


@pytest.mark.parametrize(
    "rules,name",
    [
        ("", "classic"),
        ("classic", "classic"),
        ("standard", "classic"),
        ("x+anti-king", "x+anti-king"),
        ("anti-king, x", "x+anti-king"),
        ("X", "x"),
    ],
)
def test_good_rule_lists_still_read(rules, name):
    assert sudoku.Variant(rules).name == name


@pytest.mark.parametrize("rules", ["+", "x+x", "x+"])
def test_the_commands_refuse_them(capsys, rules):
    status, out, err = run(
        sudoku_main, capsys, "solve", "." * 81, "--variant", rules
    )
    assert status == 2 and out == "" and len(err.splitlines()) == 1


# -- colors: 'X:1:2' is not the color '1:2' ----------------------------------


@pytest.mark.parametrize("option", ["A X:1:2", "A X:ab:", "A X:a:b:c"])
def test_a_colon_inside_a_color_is_refused(option):
    with pytest.raises(DLXFormatError, match="':'") as error:
        loads(f"A | X\n{option}\n")
    assert error.value.line == 2


@pytest.mark.parametrize(
    "option,color",
    [("A X::", ":"), ("A X:|", "|"), ("A X:1", "1"), ("A X:red", "red")],
)
def test_colors_knuth_reads_still_read(option, color):
    # (Knuth's DLX2 reads one character, ':' and '|' included.)
    assert loads(f"A | X\n{option}\n").option_colors(0) == {"X": color}


def test_such_a_color_is_not_written_either():
    p = ExactCover(["A"], ["X"])
    p.add_option(["A", "X"], colors={"X": "1:2"})
    with pytest.raises(ValueError, match="':'"):
        dumps(p, max_color_length=None)
    q = ExactCover(["A"], ["X"])
    q.add_option(["A", "X"], colors={"X": ":"})
    assert loads(dumps(q)).option_colors(0) == {"X": ":"}


# -- polycube --box is a box -------------------------------------------------


@pytest.mark.parametrize(
    "box", ["3x3", "3x3x3x3", "3x", "x3x3", "axbxc", "0x3x3", "3x3x-1", "..."]
)
def test_a_bad_box_is_named(capsys, box):
    status, out, err = run(dlx_main, capsys, "polycube", "soma", "--box", box)
    assert status == 2 and out == ""
    line = err.strip().splitlines()[-1]
    assert "--box" in line and "board line" not in line, line


def test_a_good_box_still_counts(capsys):
    status, out, _ = run(
        dlx_main, capsys, "polycube", "soma", "--box", "3x3x3", "--count"
    )
    assert status == 0 and out.strip() == "240"


# -- Ctrl-C says what the README says ----------------------------------------


def test_the_interrupt_messages():
    assert interrupted_message("dlx", Interrupted(1_234_567, Stats())) == (
        "dlx: interrupted: 1,234,567 solutions counted so far (a partial "
        "count)"
    )
    assert interrupted_message("dlx", Interrupted(1, Stats())) == (
        "dlx: interrupted: 1 solution counted so far (a partial count)"
    )
    assert (
        interrupted_message("sudoku", KeyboardInterrupt())
        == "sudoku: interrupted"
    )
    assert interrupted_message("dlx", None, printed=3) == (
        "dlx: interrupted: 3 solutions printed so far (a partial list)"
    )


@pytest.mark.parametrize(
    "argv", [["queens", "8", "--count"], ["solve", "-", "--count"]]
)
def test_an_interrupted_count_says_it_like_the_readme(
    capsys, monkeypatch, argv
):
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO("A B\nA\nB\n"))

    def interrupted(self, *args, **kwargs):
        raise Interrupted(1234, Stats(10, 20, 1234, 0.5, False))

    monkeypatch.setattr(ExactCover, "count", interrupted)
    status, out, err = run(dlx_main, capsys, *argv)
    assert status == 130 and out == "1234 (partial: interrupted)\n"
    assert err == (
        "dlx: interrupted: 1,234 solutions counted so far (a partial count)\n"
    )


def test_an_interrupted_sudoku_count_says_it_the_same_way(capsys, monkeypatch):
    import sudoku.solver  # the command loads it when it runs

    def interrupted(*args, **kwargs):
        raise Interrupted(5, Stats())

    monkeypatch.setattr(sudoku.solver, "count", interrupted)
    status, out, err = run(sudoku_main, capsys, "count", "." * 16)
    assert status == 130 and out == "5 (partial: interrupted)\n"
    assert err == (
        "sudoku: interrupted: 5 solutions counted so far (a partial count)\n"
    )


# -- the partial count is never below what the checkpoint holds --------------


def held(path):
    return sum(
        json.loads(line)["solutions"]
        for line in path.read_text().splitlines()[1:]
        if line
    )


@pytest.mark.parametrize("after", [1, 3, 10])
def test_ctrl_c_while_a_job_is_recorded(tmp_path, monkeypatch, after):
    """Ctrl-C lands while a finished job is being written (its fsync is
    the slow part): the count says at least what the file holds."""
    path = tmp_path / "q.ckpt"
    record = jobs.Checkpoint.record
    calls = []

    def record_then_stop(self, job, result):
        record(self, job, result)
        calls.append(job)
        if len(calls) == after:
            raise KeyboardInterrupt

    monkeypatch.setattr(jobs.Checkpoint, "record", record_then_stop)
    p = queens(9)
    with pytest.raises(Interrupted) as stop:
        p.count(jobs=1, checkpoint=path, split_into=64)
    assert stop.value.count >= held(path) > 0
    monkeypatch.setattr(jobs.Checkpoint, "record", record)
    assert p.count(jobs=1, checkpoint=path, split_into=64) == 352


def test_ctrl_c_before_the_recorded_jobs_are_added_up(tmp_path, monkeypatch):
    """On a resumed count, Ctrl-C while the tree is split again: the
    partial count is what the file holds, not 0."""
    path = tmp_path / "q.ckpt"
    p = queens(9)
    record = jobs.Checkpoint.record
    calls = []

    def record_then_stop(self, job, result):
        record(self, job, result)
        calls.append(job)
        if len(calls) == 20:
            raise KeyboardInterrupt

    monkeypatch.setattr(jobs.Checkpoint, "record", record_then_stop)
    with pytest.raises(Interrupted):
        p.count(jobs=1, checkpoint=path, split_into=64)
    monkeypatch.setattr(jobs.Checkpoint, "record", record)

    def split_then_stop(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("dlx.services.jobs.split", split_then_stop)
    with pytest.raises(Interrupted) as stop:
        p.count(jobs=1, checkpoint=path, split_into=64)
    assert stop.value.count == held(path) > 0


# -- a damaged checkpoint is refused, not added up ---------------------------


@pytest.mark.parametrize(
    "field,value",
    [
        ("solutions", -5),
        ("nodes", -1),
        ("updates", -1),
        ("solutions", 1.5),
        ("solutions", "12"),
        ("solutions", True),
        ("solutions", None),
    ],
)
def test_a_hand_edited_record_is_refused(tmp_path, field, value):
    path = tmp_path / "q.ckpt"
    p = queens(8)
    assert p.count(jobs=1, checkpoint=path, split_into=64) == 92
    lines = path.read_text().splitlines()
    entry = json.loads(lines[1])
    entry[field] = value
    lines[1] = json.dumps(entry)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(jobs.CheckpointError, match=":2: ") as error:
        p.count(jobs=1, checkpoint=path, split_into=64)
    assert "damaged" in str(error.value)
