"""Problems above ``dlx.engines.dlx1.KEEP_NODES`` nodes, whose ``Links``
keep no ``ulink``/``dlink`` arrays (``copy_arrays`` rebuilds them for each
run): every engine built on ``Links`` must go through ``copy_arrays``.
The threshold is lowered here so that a small problem takes that path.
(mypy found the cost engines reading ``links.ulink`` directly: above the
threshold ``best()`` failed with an AttributeError.)"""

import pytest

import dlx.engines.dlx1 as L
from dlx import ExactCover


def costed(bounds=None):
    p = ExactCover("ABC", bounds=bounds)
    p.add_option("AB", cost=5)
    p.add_options(["C", "A", "BC", "B", "C"], costs=[1, 2, 3, 1, 4])
    return p


@pytest.mark.parametrize(
    "bounds", [None, {"A": (1, 2)}], ids=["dlx5", "dlx3-costs"]
)
def test_best_on_links_that_keep_no_links(monkeypatch, bounds):
    expected = costed(bounds).best(3)
    monkeypatch.setattr(L, "KEEP_NODES", 5)
    p = costed(bounds)
    assert p.best(3) == expected
    assert L.Links.from_csr(p.csr()).ulink is None  # the path under test


@pytest.mark.parametrize(
    "bounds", [None, {"A": (1, 2)}], ids=["exact", "bounds"]
)
def test_count_on_links_that_keep_no_links(monkeypatch, bounds):
    expected = costed(bounds).count()
    monkeypatch.setattr(L, "KEEP_NODES", 5)
    assert costed(bounds).count() == expected
