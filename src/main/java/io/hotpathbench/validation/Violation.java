package io.hotpathbench.validation;

import jakarta.validation.ConstraintViolation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * One constraint violation reduced to what every variant can produce alike: the property path
 * ({@code waypoints[2].lat}) and the message template ({@code {jakarta.validation.constraints.NotNull.message}}).
 */
public record Violation(String path, String template) implements Comparable<Violation> {

    private static final Comparator<Violation> ORDER =
            Comparator.comparing(Violation::path).thenComparing(Violation::template);

    @Override
    public int compareTo(Violation other) {
        return ORDER.compare(this, other);
    }

    /** Bean Validation's result as a sorted list, so variants compare with {@code equals}. */
    public static <T> List<Violation> sorted(Set<ConstraintViolation<T>> violations) {
        if (violations.isEmpty()) {
            return List.of();
        }
        List<Violation> out = new ArrayList<>(violations.size());
        for (ConstraintViolation<T> v : violations) {
            out.add(new Violation(v.getPropertyPath().toString(), v.getMessageTemplate()));
        }
        Collections.sort(out);
        return out;
    }
}
