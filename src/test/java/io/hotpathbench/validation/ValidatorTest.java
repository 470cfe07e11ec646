package io.hotpathbench.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hotpathbench.ParamValues;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ValidatorTest {

    /** The seeds and invalid shares ValidatorBenchmark runs with, read from its @Param annotations. */
    private static final long[] BENCHMARK_SEEDS = ParamValues.longs(ValidatorBenchmark.class, "seed");
    private static final int[] BENCHMARK_INVALID_PERCENTS = ParamValues.ints(ValidatorBenchmark.class, "invalidPercent");

    private static final RequestValidator BASELINE = ValidatorKind.PER_CALL.create();
    private static final RequestValidator SHARED = ValidatorKind.SHARED.create();
    private static final RequestValidator HAND = ValidatorKind.HAND_WRITTEN.create();

    /** The benchmark's own state and method, for every variant and configuration, against the baseline's answers. */
    @ParameterizedTest
    @EnumSource(ValidatorKind.class)
    void everyVariantReportsWhatTheBaselineReportsForThePool(ValidatorKind kind) {
        for (long seed : BENCHMARK_SEEDS) {
            for (int invalidPercent : BENCHMARK_INVALID_PERCENTS) {
                String config = kind + " seed=" + seed + " invalidPercent=" + invalidPercent;
                ValidatorBenchmark bench = benchmark(kind, seed, invalidPercent);
                ValidatorBenchmark.Built built = new ValidatorBenchmark.Built();
                built.build(bench);
                int expectedTotal = 0;
                for (int i = 0; i < bench.requests.length; i++) {
                    List<Violation> expected = BASELINE.validate(bench.requests[i]);
                    expectedTotal += i < ValidatorBenchmark.COLD_CALLS ? expected.size() : 0;
                    assertEquals(expected, bench.validate(built), config + " at pool index " + i);
                }
                assertEquals(expectedTotal, benchmark(kind, seed, invalidPercent).coldStart(), config);
            }
        }
    }

    /** The benchmark's pools mix valid and invalid requests and break every constraint somewhere, nested ones included. */
    @Test
    void benchmarkPoolsMixValidAndInvalidRequestsAndEveryTemplateShowsUp() {
        for (long seed : BENCHMARK_SEEDS) {
            for (int invalidPercent : BENCHMARK_INVALID_PERCENTS) {
                String config = "seed=" + seed + " invalidPercent=" + invalidPercent;
                PickupRequest[] pool = benchmark(ValidatorKind.HAND_WRITTEN, seed, invalidPercent).requests;
                long invalid = Stream.of(pool).filter(r -> !HAND.validate(r).isEmpty()).count();
                double expected = pool.length * invalidPercent / 100.0;
                assertTrue(Math.abs(invalid - expected) < 0.3 * expected, config + ", invalid requests: " + invalid);
                Set<String> templates = Stream.of(pool).flatMap(r -> HAND.validate(r).stream())
                        .map(Violation::template).collect(Collectors.toSet());
                assertEquals(7, templates.size(), config + ": " + templates);
                assertTrue(Stream.of(pool).flatMap(r -> HAND.validate(r).stream())
                        .anyMatch(v -> v.path().startsWith("waypoints[")), config);
            }
        }
    }

    @Test
    void samePoolForSameSeed() {
        PickupRequest[] a = RequestPool.generate(7, 64, 50);
        PickupRequest[] b = RequestPool.generate(7, 64, 50);
        for (int i = 0; i < a.length; i++) {
            assertEquals(HAND.validate(a[i]), HAND.validate(b[i]));
            assertEquals(a[i].getUserId(), b[i].getUserId());
        }
    }

    @Test
    void everyDefectAloneAgrees() {
        for (int defect = 0; defect < RequestPool.DEFECTS; defect++) {
            SplittableRandom random = new SplittableRandom(defect);
            PickupRequest request = RequestPool.valid(random);
            RequestPool.breakRequest(request, defect, random);
            List<Violation> expected = SHARED.validate(request);
            assertTrue(!expected.isEmpty(), "defect " + defect + " breaks nothing");
            assertAllAgree(expected, request);
        }
    }

    @Test
    void validRequestHasNoViolations() {
        PickupRequest request = valid();
        assertAllAgree(List.of(), request);
    }

    @Test
    void allFieldsNull() {
        assertAllAgree(List.of(
                v("cityCode", HandWrittenValidator.NOT_BLANK),
                v("lat", HandWrittenValidator.NOT_NULL),
                v("lng", HandWrittenValidator.NOT_NULL),
                v("userId", HandWrittenValidator.NOT_NULL),
                v("waypoints", HandWrittenValidator.NOT_NULL)), new PickupRequest());
    }

    @Test
    void boundaryValuesAreInclusive() {
        PickupRequest request = valid();
        request.setLat(90.0);
        request.setLng(-180.0);
        request.setUserId(1L);
        request.getWaypoints().get(0).setLat(-90.0);
        request.getWaypoints().get(0).setLng(180.0);
        assertAllAgree(List.of(), request);

        request.setLat(Math.nextUp(90.0));
        request.setLng(Math.nextDown(-180.0));
        request.setUserId(0L);
        assertAllAgree(List.of(
                v("lat", HandWrittenValidator.DECIMAL_MAX),
                v("lng", HandWrittenValidator.DECIMAL_MIN),
                v("userId", HandWrittenValidator.POSITIVE)), request);
    }

    @Test
    void nanFailsBothBoundsAndInfinityOne() {
        PickupRequest request = valid();
        request.setLat(Double.NaN);
        request.setLng(Double.NEGATIVE_INFINITY);
        assertAllAgree(List.of(
                v("lat", HandWrittenValidator.DECIMAL_MAX),
                v("lat", HandWrittenValidator.DECIMAL_MIN),
                v("lng", HandWrittenValidator.DECIMAL_MIN)), request);
    }

    @Test
    void blankCityCodeFailsNotBlankAndPatternMalformedOnlyPattern() {
        PickupRequest request = valid();
        request.setCityCode(" ");
        assertAllAgree(List.of(
                v("cityCode", HandWrittenValidator.NOT_BLANK),
                v("cityCode", HandWrittenValidator.PATTERN)), request);
        request.setCityCode("3101000");
        assertAllAgree(List.of(v("cityCode", HandWrittenValidator.PATTERN)), request);
    }

    @Test
    void invalidNestedWaypointsReportTheirIndex() {
        PickupRequest request = valid();
        List<Waypoint> waypoints = new ArrayList<>(request.getWaypoints());
        waypoints.add(new Waypoint("", 95.0, null));
        waypoints.add(null);
        request.setWaypoints(waypoints);
        int i = waypoints.size() - 2;
        assertAllAgree(List.of(
                v("waypoints[" + i + "].lat", HandWrittenValidator.DECIMAL_MAX),
                v("waypoints[" + i + "].lng", HandWrittenValidator.NOT_NULL),
                v("waypoints[" + i + "].poiId", HandWrittenValidator.NOT_BLANK)), request);
    }

    @Test
    void emptyAndOversizedWaypointListsFailSize() {
        PickupRequest request = valid();
        request.setWaypoints(List.of());
        assertAllAgree(List.of(v("waypoints", HandWrittenValidator.SIZE)), request);
        List<Waypoint> nine = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nine.add(new Waypoint("B" + i, 31.2, 121.5));
        }
        request.setWaypoints(nine);
        assertAllAgree(List.of(v("waypoints", HandWrittenValidator.SIZE)), request);
    }

    /** PER_CALL leaves its factories unclosed, as the original did; they must still be collectable. */
    @Test
    void unclosedFactoryIsGarbageAfterTheCall() throws InterruptedException {
        ValidatorFactory factory = Validation.buildDefaultValidatorFactory();
        factory.getValidator().validate(valid());
        WeakReference<ValidatorFactory> ref = new WeakReference<>(factory);
        factory = null;
        for (int i = 0; i < 20 && ref.get() != null; i++) {
            BASELINE.validate(valid());
            System.gc();
            Thread.sleep(10);
        }
        assertNull(ref.get(), "an unclosed ValidatorFactory stayed reachable");
    }

    private static ValidatorBenchmark benchmark(ValidatorKind kind, long seed, int invalidPercent) {
        ValidatorBenchmark bench = new ValidatorBenchmark();
        bench.variant = kind;
        bench.seed = seed;
        bench.invalidPercent = invalidPercent;
        bench.generate();
        return bench;
    }

    private static PickupRequest valid() {
        List<Waypoint> waypoints = new ArrayList<>();
        waypoints.add(new Waypoint("B0FFH4Q9XK", 31.23, 121.47));
        return new PickupRequest(31.22, 121.46, "310100", 10_086L, waypoints);
    }

    private static Violation v(String path, String template) {
        return new Violation(path, template);
    }

    private static void assertAllAgree(List<Violation> expected, PickupRequest request) {
        for (ValidatorKind kind : EnumSet.allOf(ValidatorKind.class)) {
            assertEquals(expected, kind.create().validate(request), kind.name());
        }
    }
}
