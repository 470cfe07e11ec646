package io.hotpathbench.cache;

import java.util.SplittableRandom;

/**
 * Seeded Zipf-distributed ids in {@code [0, n)}: id 0 is the most popular, id {@code k} is drawn
 * with probability proportional to {@code 1 / (k + 1)^exponent}. Rejection-inversion sampling
 * (Hörmann and Derflinger, 1996), so no table of {@code n} weights is built.
 */
public final class ZipfIds {

    private final long n;
    private final double exponent;
    private final double hIntegralX1;
    private final double hIntegralN;
    private final double s;
    private final SplittableRandom random;

    public ZipfIds(long n, double exponent, long seed) {
        if (n < 1 || !(exponent > 0)) {
            throw new IllegalArgumentException("need n >= 1 and exponent > 0, got n=" + n + ", exponent=" + exponent);
        }
        this.n = n;
        this.exponent = exponent;
        this.hIntegralX1 = hIntegral(1.5) - 1;
        this.hIntegralN = hIntegral(n + 0.5);
        this.s = 2 - hIntegralInverse(hIntegral(2.5) - h(2));
        this.random = new SplittableRandom(seed);
    }

    /** The next id, in {@code [0, n)}. */
    public long next() {
        while (true) {
            double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN);
            double x = hIntegralInverse(u);
            long k = (long) (x + 0.5);
            if (k < 1) {
                k = 1;
            } else if (k > n) {
                k = n;
            }
            if (k - x <= s || u >= hIntegral(k + 0.5) - h(k)) {
                return k - 1;
            }
        }
    }

    private double h(double x) {
        return Math.exp(-exponent * Math.log(x));
    }

    private double hIntegral(double x) {
        double logX = Math.log(x);
        return helper2((1 - exponent) * logX) * logX;
    }

    private double hIntegralInverse(double x) {
        double t = x * (1 - exponent);
        if (t < -1) {
            t = -1;
        }
        return Math.exp(helper1(t) * x);
    }

    /** {@code log1p(x) / x}, continuous at 0. */
    private static double helper1(double x) {
        return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
    }

    /** {@code expm1(x) / x}, continuous at 0. */
    private static double helper2(double x) {
        return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
    }
}
