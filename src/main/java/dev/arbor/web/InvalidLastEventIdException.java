package dev.arbor.web;

/** A {@code Last-Event-ID} that no stream gave out. */
class InvalidLastEventIdException extends RuntimeException {

	InvalidLastEventIdException(String value) {
		super("Last-Event-ID must be the id of an event (a decimal number), not '" + value + "'");
	}

}
