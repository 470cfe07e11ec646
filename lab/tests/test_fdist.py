"""lab/fdist.py: Fisher's F against the tables, and the interval of a ratio of two spreads."""
import math

import pytest

import fdist
from hpb import forks


@pytest.mark.parametrize("p, d1, d2, f", [(0.95, 5, 10, 3.3258), (0.975, 10, 10, 3.7168), (0.99, 3, 20, 4.9382),
                                          (0.95, 10, 5, 4.7351), (0.975, 20, 60, 1.9445)])
def test_f_quantiles_match_the_tables(p, d1, d2, f):
    assert fdist.f_quantile(p, d1, d2) == pytest.approx(f, abs=1e-3)
    assert fdist.f_quantile(1 - p, d2, d1) == pytest.approx(1 / fdist.f_quantile(p, d1, d2), rel=1e-6)  # the lower tail is the other's upper
    assert fdist.f_cdf(f, d1, d2) == pytest.approx(p, abs=1e-4)


def test_f_with_one_numerator_degree_is_t_squared():
    assert fdist.f_quantile(0.95, 1, 10) == pytest.approx(forks.t_quantile(0.975, 10) ** 2, rel=1e-6)


def test_a_ratio_of_spreads_has_the_f_interval_and_equal_spreads_cover_one():
    ratio, lo, hi = fdist.sd_ratio(0.1, 10, 0.1, 10)
    assert ratio == 1 and lo == pytest.approx(1 / math.sqrt(3.7168), rel=1e-4) and hi == pytest.approx(1 / lo, rel=1e-6)
    ratio, lo, hi = fdist.sd_ratio(0.05, 40, 0.10, 40)  # half the spread on 41 trials a side: told apart
    assert ratio == 0.5 and lo < 0.5 < hi < 1
    ratio, lo, hi = fdist.sd_ratio(0.08, 4, 0.10, 4)  # five trials a side cannot tell 20% apart
    assert lo < 1 < hi
