package io.hotpathbench.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotpathbench.ParamValues;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MapKeyBenchmarkTest {

    /** The benchmark's smallest table: ten million entries per variant would take minutes here. */
    private static final int SIZE = IntStream.of(ParamValues.ints(MapKeyBenchmark.LookupTable.class, "size"))
            .min().orElseThrow();
    /** The benchmark's largest table, whose keys must all be distinct. */
    private static final int LARGEST_SIZE = IntStream.concat(
            IntStream.of(ParamValues.ints(MapKeyBenchmark.LookupTable.class, "size")),
            IntStream.of(ParamValues.ints(MapKeyBenchmark.RequestTable.class, "size"))).max().orElseThrow();
    private static final long SEED = ParamValues.longs(MapKeyBenchmark.LookupTable.class, "seed")[0];
    private static final int LOOKUPS = 1 << 13;

    @ParameterizedTest
    @EnumSource(WeightTableType.class)
    void everyVariantReturnsTheGeneratedWeightForHitsAndZeroForMisses(WeightTableType variant) {
        FeatureCrosses crosses = FeatureCrosses.generate(SIZE, SEED);
        for (int missPercent : ParamValues.ints(MapKeyBenchmark.LookupTable.class, "missPercent")) {
            MapKeyBenchmark.LookupTable table = lookupTable(variant, missPercent);
            double[] expected = expectedWeights(crosses, missPercent);
            MapKeyBenchmark benchmark = new MapKeyBenchmark();
            for (int i = 0; i < LOOKUPS; i++) {
                assertEquals(expected[i], benchmark.lookup(table, null), "lookup " + i + " at " + missPercent + "% misses");
            }
            assertEquals(SIZE, table.table.size());
            assertTrue(table.bytesPerEntry > 0, "bytesPerEntry " + table.bytesPerEntry);
        }
        for (int missPercent : ParamValues.ints(MapKeyBenchmark.RequestTable.class, "missPercent")) {
            MapKeyBenchmark.RequestTable table = requestTable(variant, missPercent);
            double[] expected = expectedWeights(crosses, missPercent);
            MapKeyBenchmark benchmark = new MapKeyBenchmark();
            for (int i = 0; i < LOOKUPS; i++) {
                assertEquals(expected[i], benchmark.crossAndLookup(table), "crossAndLookup " + i + " at " + missPercent + "% misses");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(WeightTableType.class)
    void lookupsCycleThroughTheKeyArray(WeightTableType variant) {
        int[] missPercents = ParamValues.ints(MapKeyBenchmark.LookupTable.class, "missPercent");
        MapKeyBenchmark.LookupTable table = lookupTable(variant, missPercents[missPercents.length - 1]);
        MapKeyBenchmark benchmark = new MapKeyBenchmark();
        double[] first = new double[LOOKUPS];
        for (int i = 0; i < LOOKUPS; i++) {
            first[i] = benchmark.lookup(table, null);
        }
        for (int i = 0; i < LOOKUPS; i++) {
            assertEquals(first[i], benchmark.lookup(table, null));
        }
    }

    @Test
    void agronaTableKeepsEveryNumberBitForBitAndRefusesNaN() {
        AgronaWeightTable table = new AgronaWeightTable(16);
        double[] weights = {-0.0, 0.0, Double.MIN_VALUE, -Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int i = 0; i < weights.length; i++) {
            table.put("u", "i" + i, weights[i]);
        }
        for (int i = 0; i < weights.length; i++) {
            assertEquals(weights[i], table.weight("u", "i" + i), "weight " + i);
        }
        assertEquals(0.0, table.weight("u", "absent"));
        assertThrows(IllegalArgumentException.class, () -> table.put("u", "nan", Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> table.put("u", "nan", Double.longBitsToDouble(AgronaWeightTable.MISSING)));
        assertEquals(weights.length, table.size());
    }

    /** Sized as fastutil sizes its table: the fewest power-of-two slots that hold {@code size} at load factor 0.75. */
    @Test
    void agronaTableHoldsItsSizeWithoutGrowing() {
        for (int size : new int[] {SIZE, 3 << 20}) {
            AgronaWeightTable table = new AgronaWeightTable(size);
            int slots = table.capacity();
            for (int k = 0; k < size; k++) {
                table.put("u", Integer.toString(k), k);
            }
            assertEquals(slots, table.capacity(), size + " entries");
            assertTrue(slots * 0.75 / 2 < size, size + " entries, " + slots + " slots");
        }
    }

    @Test
    void sizesMustBeMultiplesOfTheUserValueCount() {
        assertThrows(IllegalArgumentException.class, () -> FeatureCrosses.generate(150, SEED));
        assertThrows(IllegalArgumentException.class, () -> FeatureCrosses.generate(0, SEED));
    }

    @Test
    void crossesLookLikeTheServicesKeys() {
        FeatureCrosses crosses = FeatureCrosses.generate(10_000, SEED);
        for (int e = 0; e < crosses.size(); e++) {
            String cross = StringWeightTable.cross(crosses.user(e), crosses.item(e));
            assertTrue(cross.matches("u_[a-z]+=\\d+_\\d{3}#i_[a-z]+=\\d{3,}") && cross.length() >= 20, cross);
        }
    }

    @Test
    void crossHashIsStableAcrossRuns() {
        assertEquals(0xCECBCFF3B6A97D5AL, CrossHash.of("u_age=2_47", "i_cat=31419"));
        assertEquals(0xC4444F1E57C4A2BEL, CrossHash.of("u_city=0_10", "i_brand=7"));
        assertEquals(0x0D06DC67E0048CCAL, CrossHash.of("", ""));
    }

    /**
     * xxHash64 of the UTF-16LE chars in every length class of the algorithm (under 4, 8 and 32 bytes,
     * 32 or more; each tail), Latin-1 and not, pinned so that a JDK that denies the reference its
     * Unsafe still checks the ids.
     */
    @Test
    void featureIdsArePinnedInEveryLengthClass() {
        assertEquals(0xEF46DB3751D8E999L, CrossHash.id(""), "xxHash64 reference value of no bytes");
        assertEquals(0xE513E02C99167F96L, CrossHash.id("a"));
        assertEquals(0xAFF0F2A2F8B32731L, CrossHash.id("abc"));
        assertEquals(0x8402C93454CCEA6DL, CrossHash.id("\u00e9t\u00e9"));
        assertEquals(0xC75B6C267233EB30L, CrossHash.id("\u4e2d\u6587\u7279\u5f81"));
        assertEquals(0x969BF08C84558959L, CrossHash.id("u_segment=7_33"));
        assertEquals(0x60DB6BDE64D53B78L, CrossHash.id("abcdefghijklmnop"));
        assertEquals(0x44730CBF2EE4E17BL, CrossHash.id("abcdefghijklmnopq"));
        assertEquals(0x36942968F0423C0BL, CrossHash.id("\ud83d\ude00 emoji \u00ff\u0100 mixed width, 33 chars.."));
    }

    /**
     * The pure-Java xxHash64 gives the keys zero-allocation-hashing gave before it (which reads strings
     * through sun.misc.Unsafe, so this test alone fails where a JDK denies that): ids of seeded strings
     * of 0 to 130 chars, so every length class and tail of the algorithm, ASCII, Latin-1 and UTF-16
     * alike; and the combining step on seeded pairs.
     */
    @Test
    void crossHashEqualsZeroAllocationHashing() {
        LongHashFunction xx = LongHashFunction.xx();
        SplittableRandom random = new SplittableRandom(SEED);
        char[] chars = new char[130];
        for (int n = 0; n < 393_000; n++) {
            int length = n % (chars.length + 1);
            int alphabet = (n / (chars.length + 1)) % 3;
            for (int i = 0; i < length; i++) {
                int c = switch (alphabet) {
                    case 0 -> random.nextInt(' ', 127);
                    case 1 -> random.nextInt(256);
                    default -> random.nextInt(Character.MAX_VALUE + 1);
                };
                chars[i] = (char) c;
            }
            if (alphabet == 2 && length > 0) {
                chars[random.nextInt(length)] = (char) random.nextInt(256, Character.MAX_VALUE + 1);
            }
            String value = new String(chars, 0, length);
            assertEquals(xx.hashChars(value), CrossHash.id(value), () -> "id of " + value.chars().mapToObj(Integer::toHexString).toList());
        }
        for (int i = 0; i < 100_000; i++) {
            long a = random.nextLong();
            long b = random.nextLong();
            byte[] bytes = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(a).putLong(b).array();
            assertEquals(xx.hashBytes(bytes), CrossHash.combine(a, b));
        }
    }

    /** Every key the largest benchmark table stores or looks up, entries and absent crosses, is distinct. */
    @Test
    void noTwoCrossesOfTheLargestTableShareAKey() {
        FeatureCrosses crosses = FeatureCrosses.generate(LARGEST_SIZE, SEED);
        long[] keys = new long[crosses.size() + FeatureCrosses.USER_VALUES * crosses.absentItemCount()];
        int k = 0;
        for (int e = 0; e < crosses.size(); e++) {
            keys[k++] = CrossHash.of(crosses.user(e), crosses.item(e));
        }
        for (int u = 0; u < FeatureCrosses.USER_VALUES; u++) {
            for (int a = 0; a < crosses.absentItemCount(); a++) {
                keys[k++] = CrossHash.of(crosses.user(u), crosses.absentItem(a));
            }
        }
        Arrays.sort(keys);
        for (int i = 1; i < keys.length; i++) {
            if (keys[i] == keys[i - 1]) {
                throw new AssertionError("two crosses share the key " + Long.toHexString(keys[i]));
            }
        }
    }

    /** The weight each of the benchmark's lookups must return: the generated one, 0.0 for a miss. */
    private static double[] expectedWeights(FeatureCrosses crosses, int missPercent) {
        int[] entries = crosses.lookups(LOOKUPS, missPercent, SEED).entries();
        long misses = Arrays.stream(entries).filter(e -> e < 0).count();
        assertEquals(missPercent / 100.0, misses / (double) LOOKUPS, 0.02, "share of misses");
        return Arrays.stream(entries).mapToDouble(e -> e < 0 ? 0.0 : crosses.weight(e)).toArray();
    }

    private static MapKeyBenchmark.LookupTable lookupTable(WeightTableType variant, int missPercent) {
        MapKeyBenchmark.LookupTable table = new MapKeyBenchmark.LookupTable();
        table.variant = variant;
        table.size = SIZE;
        table.missPercent = missPercent;
        table.seed = SEED;
        table.lookups = LOOKUPS;
        table.setUp();
        return table;
    }

    private static MapKeyBenchmark.RequestTable requestTable(WeightTableType variant, int missPercent) {
        MapKeyBenchmark.RequestTable table = new MapKeyBenchmark.RequestTable();
        table.variant = variant;
        table.size = SIZE;
        table.missPercent = missPercent;
        table.seed = SEED;
        table.lookups = LOOKUPS;
        table.setUp();
        return table;
    }
}
