package dev.arbor.explorer;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs the test class only where there is a Chromium and its chromedriver to test with ({@link Browsers}); skips it
 * with the reason otherwise, or fails it where {@code ARBOR_REQUIRE_BROWSER=true} says they were installed.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RequiresBrowser.Condition.class)
public @interface RequiresBrowser {

	/** Decides before the class's application context is made, so that a skipped class makes none. */
	final class Condition implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			String unavailable = Browsers.unavailable();
			if (unavailable == null) {
				return ConditionEvaluationResult.enabled("Chromium and chromedriver are there");
			}
			if (Browsers.required()) {
				throw new IllegalStateException(Browsers.REQUIRED_VARIABLE + "=true, but: " + unavailable);
			}
			return ConditionEvaluationResult.disabled(unavailable);
		}

	}

}
