package dev.arbor.storage.postgres;

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
 * Runs the test class only where there is a PostgreSQL to test against ({@link TestDatabases}); skips it with the
 * reason otherwise, or fails it where {@code ARBOR_REQUIRE_POSTGRES=true} says one was prepared.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RequiresPostgres.Condition.class)
public @interface RequiresPostgres {

	/** Decides before the class's application context is made, so that a skipped class makes none. */
	final class Condition implements ExecutionCondition {

		@Override
		public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
			String unavailable = TestDatabases.unavailable();
			if (unavailable == null) {
				return ConditionEvaluationResult.enabled("PostgreSQL is there");
			}
			if (TestDatabases.required()) {
				throw new IllegalStateException(TestDatabases.REQUIRED_VARIABLE + "=true, but: " + unavailable);
			}
			return ConditionEvaluationResult.disabled(unavailable);
		}

	}

}
