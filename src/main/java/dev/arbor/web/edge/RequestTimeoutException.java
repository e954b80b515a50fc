package dev.arbor.web.edge;

import java.io.IOException;
import java.time.Duration;

/**
 * A request body still arriving after {@code arbor.api.body-timeout}. An {@link IOException}, because it is raised
 * while a converter reads the body: Spring wraps it, and the problem handler finds it among the causes.
 */
public class RequestTimeoutException extends IOException {

	RequestTimeoutException(Duration timeout) {
		super("The request body did not arrive within " + timeout.toMillis() + " ms");
	}

}
