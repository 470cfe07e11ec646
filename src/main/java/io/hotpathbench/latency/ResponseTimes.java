package io.hotpathbench.latency;

import java.util.SplittableRandom;

/**
 * Seeded response times in whole milliseconds, long-tailed as a load test against a remote HTTP
 * service sees them: 98% of requests log-normal around a median of 250 ms (sigma 0.5), 2% on a slow
 * path around 1,500 ms (sigma 0.9), each rounded to the millisecond and held to [1, 30,000] ms, the
 * last being the client's 30-second timeout. About 9% of the values fall in {@code Integer}'s
 * cache (up to 127), so most boxed values are objects of their own. Milliseconds because that is
 * the unit in which {@code short} fits: every value stays below {@code Short.MAX_VALUE} (32,767), so
 * {@code SHORT_ARRAY} records this stream exactly; in microseconds a {@code short} would overflow
 * at 32.8 ms.
 */
public final class ResponseTimes {

    /** The client timeout, in milliseconds: no response time is longer. */
    public static final int TIMEOUT_MILLIS = 30_000;

    private ResponseTimes() {
    }

    /** {@code count} response times in milliseconds, the same for the same arguments. */
    public static int[] generate(long seed, int count) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] millis = new int[count];
        for (int i = 0; i < count; i++) {
            double value = random.nextInt(100) < 98
                    ? 250 * Math.exp(0.5 * random.nextGaussian())
                    : 1_500 * Math.exp(0.9 * random.nextGaussian());
            millis[i] = (int) Math.max(1, Math.min(TIMEOUT_MILLIS, Math.round(value)));
        }
        return millis;
    }
}
