package dev.arbor.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.arbor.session.Ids;
import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.Pattern;

/**
 * A session or entry id from a client: {@link Ids#PATTERN}, checked before the id reaches a lookup or a file name
 * (docs/API.md#requests-and-responses). {@code null} passes: whether a value is required is said separately.
 */
@Documented
@Constraint(validatedBy = {})
@ReportAsSingleViolation
@Pattern(regexp = Ids.PATTERN)
@Target({ ElementType.PARAMETER, ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE })
@Retention(RetentionPolicy.RUNTIME)
public @interface ValidId {

	String message() default "must be an id of 1 to 128 letters, digits and _.:- starting with a letter or digit";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

}
