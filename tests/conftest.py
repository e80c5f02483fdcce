"""Shared fixtures."""

import pytest


@pytest.fixture(params=["links", "cells"])
def each_algorithm(request, monkeypatch):
    """Run a test once per search kernel: ``algorithm="auto"`` (the
    default of every search method) means this one while it runs (dancing
    cells, for every kind of problem: SSXC1, SSXCC for colors, SSMCC for
    bounds)."""
    import dlx.problem
    from dlx.algorithm import CELLS_RULES, choose_algorithm

    def forced(algorithm, problem, purpose="search"):
        if algorithm == "auto" and problem.kind in CELLS_RULES:
            algorithm = request.param
        return choose_algorithm(algorithm, problem, purpose)

    monkeypatch.setattr(dlx.problem, "choose_algorithm", forced)
    return request.param
