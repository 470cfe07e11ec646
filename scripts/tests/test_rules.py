"""Each rule once: the scripts' t quantile and paired-ratio interval (each fork's mean or best
iteration) against golden values computed independently (fixtures/rules/make_rules.py, mpmath)."""
import json
import math
from pathlib import Path

import pytest

from hpb import forks, model, stats

RULES = Path(__file__).resolve().parent / "fixtures" / "rules"


@pytest.mark.parametrize("case", json.loads((RULES / "t-quantiles.json").read_text())["cases"],
                         ids=lambda c: f"p={c['p']},df={c['df']}")
def test_the_t_quantile_is_the_golden_one_for_any_degrees_of_freedom(case):
    assert stats.t_quantile(case["p"], case["df"]) == pytest.approx(case["t"], rel=1e-9)
    assert forks.t_quantile is stats.t_quantile  # one implementation, importable from both


@pytest.mark.parametrize("case", json.loads((RULES / "paired-ratios.json").read_text())["cases"], ids=lambda c: c["name"])
def test_a_paired_ratio_from_fork_means_or_bests_is_the_golden_one(case):
    higher = case["mode"] == "thrpt"
    figure = forks.fork_means if case["figure"] == "mean" else (lambda raw: forks.fork_bests(raw, higher))
    a, b = figure(case["variant"]["rawData"]), figure(case["baseline"]["rawData"])
    p = forks.paired(a, case["variant"]["trials"], b, case["baseline"]["trials"])
    e = case["expect"]
    assert p.n == e["n"]
    assert (p.value, p.lo, p.hi) == pytest.approx((e["ratio"], e["low"], e["high"]), rel=1e-9)


def test_jmhs_own_interval_uses_the_exact_quantile_not_the_next_table_row():
    """model rebuilds JMH's 99.9% interval of a summed metric from its iterations: 12 values are 11
    degrees of freedom, whose quantile (4.437) is wider than the 12-row a rounded-up table gave (4.318)."""
    vals = [float(x) for x in range(1, 13)]
    lo, hi = model._raw_interval(sum(vals) / 12, [vals], "test")
    half = (hi - lo) / 2
    assert half == pytest.approx(stats.t_quantile(0.9995, 11) * stats.sd(vals) / math.sqrt(12), rel=1e-12)
    assert stats.t_quantile(0.9995, 11) == pytest.approx(4.437, abs=1e-3)
