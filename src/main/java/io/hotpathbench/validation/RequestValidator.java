package io.hotpathbench.validation;

import java.util.List;

/** Validates one request; the violations come back sorted, an empty list when the request is valid. */
public interface RequestValidator {

    List<Violation> validate(PickupRequest request);
}
