package io.hotpathbench.validation;

import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.List;

/**
 * The fix: one static, thread-safe {@link Validator}, built when this class is first used (the
 * factory stays open for the life of the JVM, as a static one does in a service).
 */
public final class SharedValidator implements RequestValidator {

    private static final Validator VALIDATOR = Validation.buildDefaultValidatorFactory().getValidator();

    @Override
    public List<Violation> validate(PickupRequest request) {
        return Violation.sorted(VALIDATOR.validate(request));
    }
}
