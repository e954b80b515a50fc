package dev.arbor.events;

/** {@code arbor.events.max-streams} event streams are open: a new one is refused, and nothing was opened. */
public class TooManyStreamsException extends RuntimeException {

	TooManyStreamsException(int maxStreams) {
		super("The server has its most event streams open (arbor.events.max-streams is " + maxStreams
				+ "): retry after Retry-After, or close streams you no longer read");
	}

}
