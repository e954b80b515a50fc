package dev.arbor.web.edge;

import java.io.IOException;

import org.springframework.util.unit.DataSize;

/**
 * A request body over {@code arbor.api.max-request-bytes}. An {@link IOException}, because it is raised while a
 * converter reads the body: Spring wraps it, and the problem handler finds it among the causes.
 */
public class RequestTooLargeException extends IOException {

	RequestTooLargeException(DataSize limit) {
		super("The request body is larger than the limit of " + limit.toBytes() + " bytes");
	}

}
