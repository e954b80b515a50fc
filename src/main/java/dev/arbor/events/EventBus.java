package dev.arbor.events;

import java.util.List;
import java.util.function.Consumer;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one event bus: every event of docs/API.md#events-server-sent-events goes through {@link #publish}, which numbers
 * it, keeps it for replay and hands it to the subscribers of its session and of all sessions, each stream in one order.
 * A subscriber that replays from {@code Last-Event-ID} misses nothing and sees nothing twice; one whose
 * {@code Last-Event-ID} is older than the replay reaches gets a {@code resync} instead, telling it to refetch.
 * <p>
 * {@link MemoryEventBus} keeps the replay in this process (the file store); the PostgreSQL store's bus keeps it in
 * the database, so that every replica's subscribers get every replica's events.
 */
public interface EventBus {

	/**
	 * Publishes an event.
	 *
	 * @param data the payload's fields; {@code sessionId} is put first
	 * @return the event, numbered
	 */
	default SessionEvent publish(EventType type, String sessionId, ObjectNode data) {
		ObjectNode payload = Json.newObject().put("sessionId", sessionId);
		payload.setAll(data);
		return publishRendered(type, sessionId, Json.toString(payload));
	}

	/** Publishes an event whose JSON payload is rendered already (stored entries are spliced in as their bytes). */
	SessionEvent publishRendered(EventType type, String sessionId, String data);

	/**
	 * Tells a session's subscribers (and those of all sessions) that they missed one of its events, which could not
	 * be made: they should read the session again. A reconnect from before the lost event gets a {@code resync}
	 * rather than a replay without it.
	 */
	void publishResync(String sessionId, String reason);

	/**
	 * Subscribes to one session's events, or to every session's.
	 *
	 * @param sessionId the session, or {@code null} for all
	 * @param lastEventId the last event the subscriber saw, or {@code null} for none
	 * @param replay takes the missed events, oldest first (none without {@code lastEventId}), or the
	 * {@code resync}, before any newer event reaches the sink
	 */
	void subscribe(@Nullable String sessionId, @Nullable Long lastEventId, EventSink sink,
			Consumer<List<SessionEvent>> replay);

	void unsubscribe(@Nullable String sessionId, EventSink sink);

	/** Subscribers of one session's stream and of the stream of all sessions. */
	int subscribers();

}
