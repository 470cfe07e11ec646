package io.hotpathbench.validation;

import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.util.List;

/**
 * The "before": builds a new {@code ValidatorFactory} inside every call, exactly as the map
 * service did. Like the original it never closes the factory: an unclosed Hibernate Validator
 * factory registers nothing global, so it becomes garbage when the call returns (a test checks an
 * unclosed factory is collected, and a benchmark fork with a 64 MB heap ran this variant for 40 s,
 * tens of thousands of factories, without running out of memory). Closing it would add work the
 * original never did.
 */
public final class PerCallValidator implements RequestValidator {

    @Override
    public List<Violation> validate(PickupRequest request) {
        Validator validator = Validation.buildDefaultValidatorFactory().getValidator();
        return Violation.sorted(validator.validate(request));
    }
}
