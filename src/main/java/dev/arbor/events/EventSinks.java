package dev.arbor.events;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;

import org.jspecify.annotations.Nullable;

/**
 * A bus's subscribers, by session and for all sessions, and the hand-over of an event to those it concerns. Not
 * thread-safe: the bus calls it under its lock, which keeps every stream in the bus's order.
 */
public final class EventSinks {

	/**
	 * Copy-on-write: a sink may end its own subscription while it is being handed an event (a client dropped for
	 * falling behind), and subscribing is rare next to publishing.
	 */
	private final Map<String, Set<EventSink>> sessionSinks = new HashMap<>();

	private final Set<EventSink> allSinks = new CopyOnWriteArraySet<>();

	public void add(@Nullable String sessionId, EventSink sink) {
		if (sessionId != null) {
			this.sessionSinks.computeIfAbsent(sessionId, key -> new CopyOnWriteArraySet<>()).add(sink);
		}
		else {
			this.allSinks.add(sink);
		}
	}

	public void remove(@Nullable String sessionId, EventSink sink) {
		if (sessionId == null) {
			this.allSinks.remove(sink);
			return;
		}
		Set<EventSink> sinks = this.sessionSinks.get(sessionId);
		if (sinks != null && sinks.remove(sink) && sinks.isEmpty()) {
			this.sessionSinks.remove(sessionId);
		}
	}

	/** Hands the event to the stream of all sessions and to its session's; a deletion ends the session's streams. */
	public void deliver(SessionEvent event) {
		deliver(this.allSinks, event);
		String sessionId = event.sessionId();
		if (sessionId == null) {
			return;
		}
		Set<EventSink> sinks = (event.type() == EventType.SESSION_DELETED) ? this.sessionSinks.remove(sessionId)
				: this.sessionSinks.get(sessionId);
		if (sinks != null) {
			deliver(sinks, event);
			if (sinks.isEmpty()) {
				this.sessionSinks.remove(sessionId);
			}
		}
	}

	public int size() {
		return this.allSinks.size() + this.sessionSinks.values().stream().mapToInt(Set::size).sum();
	}

	private static void deliver(Set<EventSink> sinks, SessionEvent event) {
		for (EventSink sink : sinks) {
			if (!sink.offer(event)) {
				sinks.remove(sink);
			}
		}
	}

}
