package dev.arbor.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.arbor.web.edge.ProblemType;

/**
 * An error only this operation answers, documented with the status and an example of its type; the errors every
 * operation of a kind shares are added by {@link OpenApiConfiguration}.
 */
@Documented
@Repeatable(ProblemResponse.List.class)
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@interface ProblemResponse {

	ProblemType type();

	/** When it happens; the response's description. */
	String description();

	/** Holds the repeated annotation. */
	@Documented
	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@interface List {

		ProblemResponse[] value();

	}

}
