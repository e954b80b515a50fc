package dev.arbor.events;

/** Where the bus delivers a subscriber's events. Called under the bus's lock: it must never block. */
public interface EventSink {

	/**
	 * Takes an event to deliver later.
	 *
	 * @return {@code false} when the subscriber is gone or too far behind; the bus then forgets it
	 */
	boolean offer(SessionEvent event);

}
