package io.hotpathbench.validation;

import io.avaje.validation.ConstraintViolation;
import io.avaje.validation.ImportValidPojo;
import io.avaje.validation.Validator;
import io.avaje.validation.adapter.ValidationAdapter;
import io.avaje.validation.adapter.ValidationContext.AdapterCreateRequest;
import io.avaje.validation.adapter.ValidationContext.Message;
import io.avaje.validation.spi.AnnotationFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Avaje Validator: {@code avaje-validator-generator} reads the same Jakarta constraint annotations
 * at compile time and writes a plain-Java adapter per bean ({@code @ImportValidPojo} below, so the
 * beans stay exactly as Hibernate Validator sees them); at run time there is no reflection and no
 * metadata to build, only one static {@link Validator}, built on first use as {@code SHARED}'s is.
 * Two things make it report Hibernate Validator's answers: {@link JakartaTemplates}, which turns
 * Avaje's message keys back into the Jakarta templates, and {@link HibernateRules}, which changes
 * the two rules where Avaje 2.17 and Hibernate Validator disagree on this bean.
 */
@ImportValidPojo({PickupRequest.class, Waypoint.class})
public final class AvajeGeneratedValidator implements RequestValidator {

    private static final Validator VALIDATOR = Validator.builder()
            .setDefaultLocale(Locale.ROOT)
            .addResourceBundles(new JakartaTemplates())
            .add(new HibernateRules())
            .build();

    @Override
    public List<Violation> validate(PickupRequest request) {
        Set<ConstraintViolation> violations = VALIDATOR.check(request);
        if (violations.isEmpty()) {
            return List.of();
        }
        List<Violation> out = new ArrayList<>(violations.size());
        for (ConstraintViolation v : violations) {
            out.add(new Violation(v.path(), v.message()));
        }
        Collections.sort(out);
        return out;
    }

    /**
     * The generator rewrites {@code {jakarta.validation.constraints.X.message}} to
     * {@code {avaje.X.message}}, and Avaje reports the message interpolated from its bundle. This
     * bundle, consulted before Avaje's own, maps each key the two beans use back to the Jakarta
     * template, so the reported message is the template Hibernate Validator's
     * {@code getMessageTemplate()} returns (Avaje caches each resolved message, as it would its
     * English text). A constraint missing here would come back as English text and fail the tests.
     */
    static final class JakartaTemplates extends ListResourceBundle {

        @Override
        protected Object[][] getContents() {
            return new Object[][] {
                {"avaje.NotNull.message", HandWrittenValidator.NOT_NULL},
                {"avaje.NotBlank.message", HandWrittenValidator.NOT_BLANK},
                {"avaje.Pattern.message", HandWrittenValidator.PATTERN},
                {"avaje.Positive.message", HandWrittenValidator.POSITIVE},
                {"avaje.Size.message", HandWrittenValidator.SIZE},
                {"avaje.DecimalMin.message", HandWrittenValidator.DECIMAL_MIN},
                {"avaje.DecimalMax.message", HandWrittenValidator.DECIMAL_MAX},
            };
        }

        @Override
        public Locale getLocale() {
            return Locale.ROOT;
        }
    }

    /**
     * Avaje's own adapters for {@code @NotBlank} and {@code @DecimalMax}, adjusted where Avaje 2.17
     * departs from Hibernate Validator. A failed {@code @NotBlank} ends Avaje's checks of that
     * property, so a blank city code never reached {@code @Pattern}; Hibernate Validator, like
     * Bean Validation, evaluates every constraint, and reports both. Avaje compares a {@code NaN}
     * as below every bound, so {@code NaN} failed {@code @DecimalMin} but passed
     * {@code @DecimalMax}; Hibernate Validator fails it on both. Every other value goes through
     * Avaje's own check unchanged.
     */
    static final class HibernateRules implements AnnotationFactory {

        /** Marks the attributes of a request passed on to Avaje, which this factory then declines. */
        private static final String AVAJE_OWN = "hotpathbench.avajeOwn";

        @Override
        public ValidationAdapter<?> create(AdapterCreateRequest request) {
            if (request.attributes().containsKey(AVAJE_OWN)) {
                return null;
            }
            return switch (request.annotationType().getSimpleName()) {
                case "NotBlank" -> evaluateTheRest(avajeOwn(request));
                case "DecimalMax" -> nanFails(request.message(), request.groups(), avajeOwn(request));
                default -> null;
            };
        }

        private static ValidationAdapter<Object> avajeOwn(AdapterCreateRequest request) {
            Map<String, Object> attributes = new HashMap<>(request.attributes());
            attributes.put(AVAJE_OWN, true);
            return request.ctx().adapter(request.annotationType(), request.groups(), request.attribute("message"), attributes);
        }

        private static ValidationAdapter<Object> evaluateTheRest(ValidationAdapter<Object> avaje) {
            return (value, req, property) -> {
                avaje.validate(value, req, property);
                return true;
            };
        }

        private static ValidationAdapter<Object> nanFails(Message message, Set<Class<?>> groups, ValidationAdapter<Object> avaje) {
            return (value, req, property) -> {
                boolean nan = value instanceof Double d && d.isNaN() || value instanceof Float f && f.isNaN();
                if (nan && avaje.checkGroups(groups, req)) {
                    req.addViolation(message, property);
                    return true;
                }
                return avaje.validate(value, req, property);
            };
        }
    }
}
