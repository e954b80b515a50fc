package dev.arbor.events;

import java.nio.charset.StandardCharsets;

/**
 * One published event, rendered once as the Server-Sent Events frame that every subscriber receives.
 */
public final class SessionEvent {

	private final long id;

	private final EventType type;

	private final String sessionId;

	private final String data;

	private final byte[] frame;

	/**
	 * @param id increasing over all events of this process, and above every id of a process that ran before it
	 * @param type the kind of event
	 * @param sessionId the session it is about
	 * @param data the JSON payload, {@code sessionId} first; one line, as compact JSON always is
	 */
	SessionEvent(long id, EventType type, String sessionId, String data) {
		this.id = id;
		this.type = type;
		this.sessionId = sessionId;
		this.data = data;
		this.frame = ("id:" + id + "\nevent:" + type.wireName() + "\ndata:" + data + "\n\n")
			.getBytes(StandardCharsets.UTF_8);
	}

	public long id() {
		return this.id;
	}

	public EventType type() {
		return this.type;
	}

	public String sessionId() {
		return this.sessionId;
	}

	public String data() {
		return this.data;
	}

	/** The {@code id}, {@code event} and {@code data} lines and the blank line that ends them. */
	byte[] frame() {
		return this.frame;
	}

	@Override
	public String toString() {
		return this.id + " " + this.type.wireName() + " " + this.data;
	}

}
