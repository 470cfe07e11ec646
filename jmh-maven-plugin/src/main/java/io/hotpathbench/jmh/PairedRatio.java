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

    private static final double[] T95 = {
        6.3138, 2.9200, 2.3534, 2.1318, 2.0150, 1.9432, 1.8946, 1.8595, 1.8331, 1.8125,
        1.7959, 1.7823, 1.7709, 1.7613, 1.7531, 1.7459, 1.7396, 1.7341, 1.7291, 1.7247,
        1.7207, 1.7171, 1.7139, 1.7109, 1.7081, 1.7056, 1.7033, 1.7011, 1.6991, 1.6973};

    /** The 0.95 quantile of Student's t with {@code df} degrees of freedom (a gate run's single look). */
    static double t95(int df) {
        return quantile(T95, 1.644854, df);
    }

    /** The 0.975 quantile of Student's t with {@code df} degrees of freedom. */
    static double t975(int df) {
        return quantile(T975, 1.959964, df);
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
