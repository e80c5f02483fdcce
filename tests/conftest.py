"""Shared fixtures."""

import pytest


@pytest.fixture(params=["links", "cells"])
def each_algorithm(request, monkeypatch):
    """Run a test once per search family: ``algorithm="auto"`` (the
    default of every search method) means this one while it runs (for
    every kind of problem: DLX1, DLX2, DLX3 with links; SSXC1, SSXCC,
    SSMCC with cells), since the registry is the one place that decides."""
    from dlx.engines import registry

    decide = registry.family

    def forced(problem, algorithm="auto", purpose="search"):
        if algorithm == "auto":
            algorithm = request.param
        return decide(problem, algorithm, purpose)

    monkeypatch.setattr(registry, "family", forced)
    return request.param
