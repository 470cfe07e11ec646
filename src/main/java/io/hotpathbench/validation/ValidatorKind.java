package io.hotpathbench.validation;

/** The variants the benchmark compares, baseline first; each builds its {@link RequestValidator}. */
public enum ValidatorKind {
    /** A new {@code ValidatorFactory} in every call, as the map service did. */
    PER_CALL {
        @Override
        public RequestValidator create() {
            return new PerCallValidator();
        }
    },
    /** One static {@code Validator}, built on first use. */
    SHARED {
        @Override
        public RequestValidator create() {
            return new SharedValidator();
        }
    },
    /** Avaje Validator: adapters generated at compile time from the same annotations, one static {@code Validator}. */
    AVAJE_GENERATED {
        @Override
        public RequestValidator create() {
            return new AvajeGeneratedValidator();
        }
    },
    /** Plain {@code if} checks with the same violations: the floor. */
    HAND_WRITTEN {
        @Override
        public RequestValidator create() {
            return new HandWrittenValidator();
        }
    };

    public abstract RequestValidator create();
}
