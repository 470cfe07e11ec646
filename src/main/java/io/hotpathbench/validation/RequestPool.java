package io.hotpathbench.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded pools of pickup requests: valid ones with coordinates in China, six-digit city codes and
 * one to four waypoints, and a share of invalid ones, each broken in one or two of the ways in
 * {@link #DEFECTS} (missing, blank, out-of-range or malformed fields, a bad nested waypoint).
 */
public final class RequestPool {

    /** How many distinct ways {@link #breakRequest} can break a request. */
    static final int DEFECTS = 14;

    private RequestPool() {
    }

    /** {@code size} requests; about {@code invalidPercent} of them break at least one constraint. */
    public static PickupRequest[] generate(long seed, int size, int invalidPercent) {
        SplittableRandom random = new SplittableRandom(seed);
        PickupRequest[] pool = new PickupRequest[size];
        for (int i = 0; i < size; i++) {
            PickupRequest request = valid(random);
            if (random.nextInt(100) < invalidPercent) {
                int defects = 1 + random.nextInt(2);
                for (int d = 0; d < defects; d++) {
                    breakRequest(request, random.nextInt(DEFECTS), random);
                }
            }
            pool[i] = request;
        }
        return pool;
    }

    static PickupRequest valid(SplittableRandom random) {
        int stops = 1 + random.nextInt(4);
        List<Waypoint> waypoints = new ArrayList<>(stops);
        for (int s = 0; s < stops; s++) {
            waypoints.add(new Waypoint("B0" + (100_000 + random.nextInt(900_000)), latitude(random), longitude(random)));
        }
        String cityCode = Integer.toString(110_000 + random.nextInt(550_000));
        long userId = 1 + random.nextLong(9_000_000_000L);
        return new PickupRequest(latitude(random), longitude(random), cityCode, userId, waypoints);
    }

    /** Applies defect number {@code defect} (0 to {@link #DEFECTS} - 1) to {@code request}. */
    static void breakRequest(PickupRequest request, int defect, SplittableRandom random) {
        switch (defect) {
            case 0 -> request.setLat(null);
            case 1 -> request.setLat(90 + random.nextDouble(1, 100));
            case 2 -> request.setLng(-180 - random.nextDouble(1, 100));
            case 3 -> request.setLng(Double.NaN);
            case 4 -> request.setCityCode(null);
            case 5 -> request.setCityCode(random.nextBoolean() ? "" : "  ");
            case 6 -> request.setCityCode("SH" + random.nextInt(10_000));
            case 7 -> request.setUserId(null);
            case 8 -> request.setUserId(-random.nextLong(1_000));
            case 9 -> request.setWaypoints(null);
            case 10 -> request.setWaypoints(new ArrayList<>());
            case 11 -> {
                List<Waypoint> many = new ArrayList<>();
                for (int s = 0; s < 9; s++) {
                    many.add(new Waypoint("B0" + s, latitude(random), longitude(random)));
                }
                request.setWaypoints(many);
            }
            case 12 -> nestedWaypoint(request, random).setLat(-91 - random.nextDouble(0, 10));
            case 13 -> nestedWaypoint(request, random).setPoiId(random.nextBoolean() ? null : " ");
            default -> throw new IllegalArgumentException("no defect " + defect);
        }
    }

    /** A waypoint of {@code request} to break, adding one when the list is missing or empty. */
    private static Waypoint nestedWaypoint(PickupRequest request, SplittableRandom random) {
        List<Waypoint> waypoints = request.getWaypoints();
        if (waypoints == null || waypoints.isEmpty()) {
            waypoints = new ArrayList<>();
            waypoints.add(new Waypoint("B0", latitude(random), longitude(random)));
            request.setWaypoints(waypoints);
        }
        return waypoints.get(random.nextInt(waypoints.size()));
    }

    private static double latitude(SplittableRandom random) {
        return random.nextDouble(18, 53.6);
    }

    private static double longitude(SplittableRandom random) {
        return random.nextDouble(73.5, 135);
    }
}
