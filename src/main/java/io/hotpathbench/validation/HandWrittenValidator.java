package io.hotpathbench.validation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The floor: plain {@code if} checks that report the same property paths and message templates
 * as Bean Validation for {@link PickupRequest}, with no metadata, reflection or message
 * interpolation. Bounds follow Hibernate Validator's rules: {@code NaN} fails both
 * {@code @DecimalMin} and {@code @DecimalMax}, {@code null} passes every constraint but
 * {@code @NotNull}/{@code @NotBlank}, and null waypoints in the list are skipped by the cascade.
 */
public final class HandWrittenValidator implements RequestValidator {

    static final String NOT_NULL = "{jakarta.validation.constraints.NotNull.message}";
    static final String NOT_BLANK = "{jakarta.validation.constraints.NotBlank.message}";
    static final String PATTERN = "{jakarta.validation.constraints.Pattern.message}";
    static final String POSITIVE = "{jakarta.validation.constraints.Positive.message}";
    static final String SIZE = "{jakarta.validation.constraints.Size.message}";
    static final String DECIMAL_MIN = "{jakarta.validation.constraints.DecimalMin.message}";
    static final String DECIMAL_MAX = "{jakarta.validation.constraints.DecimalMax.message}";

    private static final Pattern CITY_CODE = Pattern.compile("\\d{6}");

    @Override
    public List<Violation> validate(PickupRequest request) {
        List<Violation> out = null;
        out = coordinate(out, "lat", request.getLat(), 90);
        out = coordinate(out, "lng", request.getLng(), 180);
        String cityCode = request.getCityCode();
        if (cityCode == null || cityCode.isBlank()) {
            out = add(out, "cityCode", NOT_BLANK);
        }
        if (cityCode != null && !CITY_CODE.matcher(cityCode).matches()) {
            out = add(out, "cityCode", PATTERN);
        }
        Long userId = request.getUserId();
        if (userId == null) {
            out = add(out, "userId", NOT_NULL);
        } else if (userId <= 0) {
            out = add(out, "userId", POSITIVE);
        }
        List<Waypoint> waypoints = request.getWaypoints();
        if (waypoints == null) {
            out = add(out, "waypoints", NOT_NULL);
        } else {
            if (waypoints.isEmpty() || waypoints.size() > 8) {
                out = add(out, "waypoints", SIZE);
            }
            for (int i = 0; i < waypoints.size(); i++) {
                Waypoint w = waypoints.get(i);
                if (w != null) {
                    out = waypoint(out, "waypoints[" + i + "].", w);
                }
            }
        }
        if (out == null) {
            return List.of();
        }
        Collections.sort(out);
        return out;
    }

    private static List<Violation> waypoint(List<Violation> out, String prefix, Waypoint w) {
        String poiId = w.getPoiId();
        if (poiId == null || poiId.isBlank()) {
            out = add(out, prefix + "poiId", NOT_BLANK);
        }
        out = coordinate(out, prefix + "lat", w.getLat(), 90);
        return coordinate(out, prefix + "lng", w.getLng(), 180);
    }

    /** {@code @NotNull @DecimalMin("-bound") @DecimalMax("bound")}; the negated tests make NaN fail both. */
    private static List<Violation> coordinate(List<Violation> out, String path, Double value, double bound) {
        if (value == null) {
            return add(out, path, NOT_NULL);
        }
        double v = value;
        if (!(v >= -bound)) {
            out = add(out, path, DECIMAL_MIN);
        }
        if (!(v <= bound)) {
            out = add(out, path, DECIMAL_MAX);
        }
        return out;
    }

    private static List<Violation> add(List<Violation> out, String path, String template) {
        List<Violation> list = out == null ? new ArrayList<>(4) : out;
        list.add(new Violation(path, template));
        return list;
    }
}
