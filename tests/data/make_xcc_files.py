"""Write the small DLX2/DLX3 input files of tests/data/dlx2, dlx3 and
ssxcc (the larger random ones: SSXCC's forced moves go deeper there).

Run from the repository root: ``python tests/data/make_xcc_files.py``.
The files are then fed to Knuth's dlx2, dlx3 and ssxcc (``dlx2 < FILE``)
and what they print is recorded in each directory's figures.tsv.
"""

import random
from pathlib import Path

HERE = Path(__file__).parent

WORDS = """ace act add age ago aid aim air all and ant any ape arc are ark arm
art ash ask ate awe axe bad bag ban bar bat bay bed bee bet bid big bin bit
cab can cap car cat cod cog cot cow cry cub cue cup cut dab den dew did die
dig dim din dip doe dog don dot dry due dug ear eat ebb eel egg ego elm end
era eve ewe eye""".split()


def word_squares(words, name):
    """3x3 letter squares whose rows and columns are words: rows and
    columns primary, cells secondary and colored by their letter."""
    lines = [
        f"| 3x3 double word squares over {len(words)} words",
        "r0 r1 r2 c0 c1 c2 | "
        + " ".join(f"x{i}{j}" for i in range(3) for j in range(3)),
    ]
    for w in words:
        for i in range(3):
            lines.append(
                f"r{i} " + " ".join(f"x{i}{j}:{w[j]}" for j in range(3))
            )
        for j in range(3):
            lines.append(
                f"c{j} " + " ".join(f"x{i}{j}:{w[i]}" for i in range(3))
            )
    (HERE / "dlx2" / name).write_text("\n".join(lines) + "\n")


def random_problem(
    seed, nprimary, nsecondary, noptions, colors, bounds, name, directory
):
    """Seeded random options; secondary items colored half the time."""
    rng = random.Random(seed)
    primary = [f"p{k}" for k in range(nprimary)]
    secondary = [f"s{k}" for k in range(nsecondary)]
    head = []
    for p in primary:
        if bounds and rng.random() < 0.6:
            u = rng.randint(0, 2)
            v = rng.randint(max(u, 1), 3)
            head.append(f"{v}|{p}" if u == v else f"{u}:{v}|{p}")
        else:
            head.append(p)
    lines = [
        f"| random, seed {seed}",
        " ".join(head) + " | " + " ".join(secondary),
    ]
    for _ in range(noptions):
        items = rng.sample(primary, rng.randint(1, 3)) + rng.sample(
            secondary, rng.randint(0, 3)
        )
        lines.append(
            " ".join(
                f"{x}:{rng.choice(colors)}"
                if x[0] == "s" and rng.random() < 0.5
                else x
                for x in items
            )
        )
    (HERE / directory / name).write_text("\n".join(lines) + "\n")


def rooks(n, k, name):
    """k rooks in every row and column of an n x n board (k|ri, k|cj)."""
    lines = [
        f"| {k} rooks in every row and column of an {n}x{n} board",
        " ".join(f"{k}|r{i}" for i in range(n))
        + " "
        + " ".join(f"{k}|c{j}" for j in range(n)),
    ]
    lines += [f"r{i} c{j}" for i in range(n) for j in range(n)]
    (HERE / "dlx3" / name).write_text("\n".join(lines) + "\n")


def queens_bounded(n, name):
    """1 or 2 queens in every row and column, at most one on each
    diagonal: bounds 1:2 with slack, and null moves."""
    lines = [
        f"| 1 or 2 queens in every row and column of an {n}x{n} board, "
        f"at most one a diagonal",
        " ".join(f"1:2|r{i}" for i in range(n))
        + " "
        + " ".join(f"1:2|c{j}" for j in range(n))
        + " | "
        + " ".join(f"a{d}" for d in range(2 * n - 1))
        + " "
        + " ".join(f"b{d}" for d in range(2 * n - 1)),
    ]
    lines += [
        f"r{i} c{j} a{i + j} b{n - 1 - i + j}"
        for i in range(n)
        for j in range(n)
    ]
    (HERE / "dlx3" / name).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    word_squares(WORDS, "words-3x3.dlx")
    for seed in (1, 2, 3):
        random_problem(
            seed, 8, 5, 40, "abc", False, f"random-{seed}.dlx", "dlx2"
        )
        random_problem(
            seed, 6, 4, 24, "ab", True, f"random-{seed}.dlx", "dlx3"
        )
    (HERE / "dlx2" / "ignored.dlx").write_text(
        "| options with no primary item: DLX2 ignores them\n"
        "A B | X Y\nX:1 Y\nA X:1\nB X:1\nA B\nY\nA Y:2 X:1\nB Y:2\n"
    )
    for seed in (4, 5, 6):
        random_problem(
            seed, 14, 6, 70, "abc", False, f"random-{seed}.dlx", "ssxcc"
        )
    rooks(5, 2, "rooks-5-2.dlx")
    rooks(5, 3, "rooks-5-3.dlx")
    queens_bounded(5, "queens-5-bounded.dlx")
