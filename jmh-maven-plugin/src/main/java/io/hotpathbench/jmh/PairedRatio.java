package io.hotpathbench.jmh;

import java.util.List;

/**
 * A pair's ratio from paired forks: for trials t = 1..n, r_t = ln(a_t / b_t), where a_t and b_t are
 * the two configurations' fork scores in trial t. The figure is exp(mean r), the geometric mean of
 * the per-trial ratios; the interval is exp(mean +/- t(0.975, n - 1) * sd / sqrt(n)), a 95% Student
 * t interval on the log ratios. The fork is the unit: each trial is one draw of both sides' JIT
 * outcome in the same minutes of the machine. (A bootstrap over fewer than about 20 trials covers
 * less than it claims, so none is used.) The scripts compute the same figure for the report.
 */
record PairedRatio(int n, double ratio, double low, double high) {

    static final double CONFIDENCE = 0.95;

    static PairedRatio of(List<Double> a, List<Double> b) {
        int n = Math.min(a.size(), b.size());
        if (n == 0) {
            return new PairedRatio(0, Double.NaN, Double.NaN, Double.NaN);
        }
        double[] r = new double[n];
        double mean = 0;
        for (int i = 0; i < n; i++) {
            r[i] = Math.log(a.get(i) / b.get(i));
            mean += r[i];
        }
        mean /= n;
        if (n < 2) {
            return new PairedRatio(n, Math.exp(mean), Double.NaN, Double.NaN);
        }
        double ss = 0;
        for (double x : r) {
            ss += (x - mean) * (x - mean);
        }
        double half = t975(n - 1) * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
        return new PairedRatio(n, Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half));
    }

    /** High end over low end: 1.22 is +/-10%. NaN without an interval. */
    double highOverLow() {
        return high / low;
    }

    /** Whether the interval is at least as tight as {@code target} (high over low). */
    boolean within(double target) {
        return n >= 2 && highOverLow() <= target;
    }

    /** The high-over-low bound that a precision of +/-pct percent means: (1 + p) / (1 - p). */
    static double target(double pct) {
        double p = pct / 100.0;
        return (1 + p) / (1 - p);
    }

    private static final double[] T975 = {
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
        2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
        2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};

    /** The 0.975 quantile of Student's t with {@code df} degrees of freedom. */
    static double t975(int df) {
        return quantile(T975, 1.959964, df);
    }

    /**
     * The {@code p} quantile of Student's t with {@code df} degrees of freedom, for any 0.5 &lt; p &lt; 1
     * (a gate look's level, 1 - 0.05 / looks): bisection on the distribution function, as
     * scripts/hpb/forks.py computes it.
     */
    static double tQuantile(double p, int df) {
        if (!(p > 0.5 && p < 1) || df < 1) {
            throw new IllegalArgumentException("t quantile needs 0.5 < p < 1 and df >= 1, got p=" + p + ", df=" + df);
        }
        double lo = 0;
        double hi = 1;
        while (tCdf(hi, df) < p) {
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
            double mid = (lo + hi) / 2;
            if (tCdf(mid, df) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** P(T &lt;= t) for Student's t with {@code df} degrees of freedom, t &gt;= 0. */
    private static double tCdf(double t, int df) {
        double x = df / (df + t * t);
        return 1 - 0.5 * regularizedBeta(df / 2.0, 0.5, x);
    }

    /** The regularized incomplete beta function I_x(a, b). */
    private static double regularizedBeta(double a, double b, double x) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double ln = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x);
        if (x < (a + 1) / (a + b + 2)) {
            return Math.exp(ln) * betaFraction(a, b, x) / a;
        }
        return 1 - Math.exp(ln) * betaFraction(b, a, 1 - x) / b;
    }

    /** The continued fraction of the incomplete beta function (modified Lentz). */
    private static double betaFraction(double a, double b, double x) {
        double tiny = 1e-300;
        double c = 1;
        double d = 1 / nonZero(1 - (a + b) * x / (a + 1), tiny);
        double h = d;
        for (int m = 1; m < 300; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
            d = 1 / nonZero(1 + aa * d, tiny);
            c = nonZero(1 + aa / c, tiny);
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
            d = 1 / nonZero(1 + aa * d, tiny);
            c = nonZero(1 + aa / c, tiny);
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < 1e-15) {
                break;
            }
        }
        return h;
    }

    private static double nonZero(double v, double tiny) {
        return Math.abs(v) > tiny ? v : tiny;
    }

    /** ln Gamma(x) for x &gt; 0 (Lanczos, g = 7, nine terms: about 15 significant digits). */
    private static double lnGamma(double x) {
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
        }
        double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7};
        double y = x - 1;
        double sum = g[0];
        for (int i = 1; i < g.length; i++) {
            sum += g[i] / (y + i);
        }
        double t = y + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
    }

    /** A t quantile: from the table up to 30 degrees of freedom, beyond it the Cornish-Fisher expansion around the normal quantile {@code z} (within 1e-4 of the table at 30). */
    private static double quantile(double[] table, double z, int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be positive: " + df);
        }
        if (df <= table.length) {
            return table[df - 1];
        }
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        return z + (z3 + z) / (4.0 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df);
    }
}
