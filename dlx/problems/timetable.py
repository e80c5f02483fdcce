"""An exam timetable with room and slot costs: the cheapest schedules.

Glossary: an *exam* has the set of students who sit it; a *slot* is a
time (each with a cost: evenings cost more); a *room* has a capacity and
a cost per use; a *booking* puts one exam in one room at one slot.

Items: one primary item per exam (booked exactly once), and secondary
items ``room@slot`` (a room holds one exam per slot) and
``student@slot`` (a student sits one exam per slot).  Options: one per
booking of an exam in a room big enough for it, ``exam room@slot
student@slot ...``, costing the room's cost plus the slot's.  The
cheapest timetables are then ``problem.best(k)`` (Knuth's DLX5):

>>> p = timetable({"algebra": ["ann", "bob"], "botany": ["bob"],
...                "chemistry": ["ann", "cy", "dan"]},
...               rooms={"hall": (3, 5), "lab": (2, 1)},
...               slots={"mon": 0, "tue": 2})
>>> [cost for cost, _ in p.best(3)]
[9, 11, 13]
>>> print(render(p, p.best()[0][1]))
mon  hall  chemistry
mon  lab   botany
tue  lab   algebra
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ..problem import ExactCover

__all__ = ["timetable", "schedule", "render"]


def _name(text, what: str) -> str:
    text = str(text)
    if not text or "@" in text or any(ch.isspace() for ch in text):
        raise ValueError(
            f"{what} {text!r}: names must be nonempty, without blanks or '@'"
        )
    return text


def timetable(
    exams: Mapping[str, Iterable[str]],
    rooms: Mapping[str, tuple[int, int]],
    slots: Mapping[str, int] | Sequence[str],
) -> ExactCover:
    """The exact-cover problem of booking every exam of ``exams`` (``{exam:
    students}``) in one of ``rooms`` (``{room: (capacity, cost)}``) at one
    of ``slots`` (``{slot: cost}``, or a list of slots costing nothing),
    no room or student booked twice at a slot; each option costs its
    room's cost plus its slot's.

    Args:
        exams: ``{exam: students}``.
        rooms: ``{room: (capacity, cost)}``: an exam fits a room that holds
            its students.
        slots: ``{slot: cost}``, or a list of slots costing nothing.

    Returns:
        The problem for ``best``, exams primary, each (slot, room) and
        each (slot, student) secondary.

    Raises:
        ValueError: A cost out of range (naming the option).
    """
    if not isinstance(slots, Mapping):
        slots = dict.fromkeys(slots, 0)
    slot_names = [_name(s, "slot") for s in slots]
    room_names = [_name(r, "room") for r in rooms]
    students = {
        e: sorted({_name(s, "student") for s in who})
        for e, who in exams.items()
    }
    everyone = sorted({s for who in students.values() for s in who})
    secondary = [f"{r}@{s}" for s in slot_names for r in room_names] + [
        f"{x}@{s}" for s in slot_names for x in everyone
    ]
    problem = ExactCover([_name(e, "exam") for e in exams], secondary)
    for exam, who in students.items():
        for slot, slot_cost in zip(slot_names, slots.values()):
            for room, (capacity, room_cost) in zip(room_names, rooms.values()):
                if capacity >= len(who):
                    problem.add_option(
                        [str(exam), f"{room}@{slot}"]
                        + [f"{x}@{slot}" for x in who],
                        cost=room_cost + slot_cost,
                    )
    return problem


def schedule(problem: ExactCover, solution: Iterable[int]) -> list:
    """The bookings of a solution as ``(slot, room, exam)``, sorted.

    Args:
        problem: The problem ``timetable`` made.
        solution: One of its solutions (option numbers).

    Returns:
        The bookings.
    """
    booked = []
    for k in solution:
        exam, where, *_ = problem.options[k]
        room, slot = where.split("@")
        booked.append((slot, room, exam))
    return sorted(booked)


def render(problem: ExactCover, solution: Iterable[int]) -> str:
    """A solution as a table: slot, room and exam, one booking a line.

    Args:
        problem: The problem ``timetable`` made.
        solution: One of its solutions (option numbers).

    Returns:
        The table as text.
    """
    rows = schedule(problem, solution)
    widths = [max(len(row[c]) for row in rows) for c in range(2)]
    return "\n".join(
        f"{s:<{widths[0]}}  {r:<{widths[1]}}  {e}" for s, r, e in rows
    )
