package io.hotpathbench;

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.annotations.Param;

/**
 * The values a benchmark's {@code @Param} field runs with, read from its annotation, so that a test
 * exercises exactly the configurations the benchmark measures and a value added to one cannot be
 * forgotten in the other (RoaringBitmap's sanity tests read their benchmark state the same way).
 * An enum {@code @Param} without explicit values runs every constant, and so does this.
 */
public final class ParamValues {

    private ParamValues() {
    }

    /** The values of {@code field}, declared on {@code state} or one of its superclasses. */
    public static List<String> of(Class<?> state, String field) {
        for (Class<?> c = state; c != null; c = c.getSuperclass()) {
            Field f;
            try {
                f = c.getDeclaredField(field);
            } catch (NoSuchFieldException e) {
                continue;
            }
            Param param = f.getAnnotation(Param.class);
            if (param == null) {
                throw new IllegalArgumentException(c.getName() + "." + field + " has no @Param");
            }
            if (param.value().length == 0 || (param.value().length == 1 && param.value()[0].equals(Param.BLANK_ARGS))) {
                if (!f.getType().isEnum()) {
                    throw new IllegalArgumentException(c.getName() + "." + field + " is a @Param without values");
                }
                return Arrays.stream(f.getType().getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList();
            }
            return List.of(param.value());
        }
        throw new IllegalArgumentException(state.getName() + " has no field " + field);
    }

    /** {@link #of} parsed as ints. */
    public static int[] ints(Class<?> state, String field) {
        return of(state, field).stream().mapToInt(Integer::parseInt).toArray();
    }

    /** {@link #of} parsed as longs. */
    public static long[] longs(Class<?> state, String field) {
        return of(state, field).stream().mapToLong(Long::parseLong).toArray();
    }
}
