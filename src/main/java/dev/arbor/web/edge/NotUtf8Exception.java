package dev.arbor.web.edge;

import java.io.IOException;

/**
 * A request body that is not UTF-8 ({@link Utf8BodyFilter}). An {@link IOException}, because it is raised while a
 * converter reads the body: Spring wraps it, and the problem handler finds it among the causes.
 */
public class NotUtf8Exception extends IOException {

	NotUtf8Exception(long offset) {
		super("The body is not valid UTF-8 at byte " + offset + " (RFC 3629: no overlong forms, no surrogates)");
	}

}
