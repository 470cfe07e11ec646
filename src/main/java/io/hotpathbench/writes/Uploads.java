package io.hotpathbench.writes;

import java.util.SplittableRandom;

/**
 * Vehicle uploads in the write-up's time-series model, seeded: {@code timelines} timelines, each a
 * metric (a fixed 10-byte name) of one vehicle (its tag, a fixed 10-byte VIN under one tag key),
 * {@link #METRICS} metrics per vehicle; a point is a timeline, an 8-byte timestamp and an 8-byte
 * double. Upload number {@code n} comes from one vehicle and holds {@code pointsPerRequest} points:
 * its metrics in turn, from a drawn first metric, sampled once a second, so an upload of 500 points
 * is 50 seconds of its 10 metrics and an upload of 1 point one sample. Its timestamps start
 * at {@code n} times an upload's longest span, so no two points of a run share a timeline and a
 * timestamp: every write inserts. The vehicle, first metric and values of {@link #SLOTS} uploads are
 * drawn once and cycled; the timestamps keep growing.
 *
 * <p>The store's key is the timeline id and the timestamp, 8 bytes each, big-endian (so keys sort by
 * timeline, then time); its value the double's 8 bytes. The names and tags are resolved to a timeline
 * id before a point is written, as a time-series database's index resolves them; they are not stored
 * with each point.
 */
public final class Uploads {

    /** Metrics per vehicle (speed, battery, ...): timelines = vehicles x this. */
    public static final int METRICS = 10;
    /** Key: timeline id, timestamp. */
    public static final int KEY_BYTES = 16;
    public static final int VALUE_BYTES = 8;
    /** Uploads drawn per set, cycled. */
    static final int SLOTS = 1024;
    /** 2024-01-01T00:00:00Z, the first upload's first sample. */
    static final long EPOCH_MILLIS = 1_704_067_200_000L;
    static final long SAMPLE_MILLIS = 1_000;

    private final int timelines;
    private final int points;
    private final int[] vehicle = new int[SLOTS];
    private final int[] firstMetric = new int[SLOTS];
    private final double[] values;
    private final long spanMillis;

    public Uploads(int timelines, int pointsPerRequest, long seed) {
        if (timelines < METRICS || timelines % METRICS != 0 || pointsPerRequest < 1) {
            throw new IllegalArgumentException("timelines must be a positive multiple of " + METRICS
                    + " and pointsPerRequest positive, not " + timelines + " and " + pointsPerRequest);
        }
        this.timelines = timelines;
        this.points = pointsPerRequest;
        SplittableRandom random = new SplittableRandom(seed);
        int vehicles = timelines / METRICS;
        values = new double[SLOTS * points];
        for (int s = 0; s < SLOTS; s++) {
            vehicle[s] = random.nextInt(vehicles);
            firstMetric[s] = random.nextInt(METRICS);
            for (int j = 0; j < points; j++) {
                values[s * points + j] = Math.round(random.nextDouble() * 1e6) / 100.0;
            }
        }
        // Point j is sampled (firstMetric + j) / METRICS seconds into its upload: at most
        // (pointsPerRequest + METRICS - 2) / METRICS, so the next upload starts a second later.
        spanMillis = ((points + METRICS - 2) / METRICS + 1) * SAMPLE_MILLIS;
    }

    public int pointsPerRequest() {
        return points;
    }

    public int timelines() {
        return timelines;
    }

    /** Point {@code j}'s timeline in upload {@code n}. */
    public long timeline(long n, int j) {
        int s = (int) (n & (SLOTS - 1));
        return (long) vehicle[s] * METRICS + (firstMetric[s] + j) % METRICS;
    }

    /** Point {@code j}'s timestamp in upload {@code n}, in epoch milliseconds. */
    public long timestamp(long n, int j) {
        return EPOCH_MILLIS + n * spanMillis + (long) ((firstMetric[(int) (n & (SLOTS - 1))] + j) / METRICS) * SAMPLE_MILLIS;
    }

    /** Point {@code j}'s value in upload {@code n}. */
    public double value(long n, int j) {
        return values[(int) (n & (SLOTS - 1)) * points + j];
    }

    /** The 10-byte metric name of a timeline, e.g. {@code metric0003}, as the write-up's model has it. */
    public static String metricName(long timeline) {
        return String.format("metric%04d", timeline % METRICS);
    }

    /** The 10-byte VIN tag value of a timeline's vehicle, e.g. {@code V000012345}. */
    public static String vin(long timeline) {
        return String.format("V%09d", timeline / METRICS);
    }

    /** Writes point {@code j} of upload {@code n}'s key into {@code key} (at least {@link #KEY_BYTES} long). */
    public void key(long n, int j, byte[] key) {
        putLong(key, 0, timeline(n, j));
        putLong(key, 8, timestamp(n, j));
    }

    /** Writes point {@code j} of upload {@code n}'s value into {@code value} (at least {@link #VALUE_BYTES} long). */
    public void value(long n, int j, byte[] value) {
        putLong(value, 0, Double.doubleToRawLongBits(value(n, j)));
    }

    static void putLong(byte[] b, int at, long v) {
        for (int k = 7; k >= 0; k--) {
            b[at + k] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int at) {
        long v = 0;
        for (int k = 0; k < 8; k++) {
            v = v << 8 | (b[at + k] & 0xFF);
        }
        return v;
    }
}
