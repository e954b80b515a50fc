package dev.arbor.events;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * One published event, rendered once as the Server-Sent Events frame that every subscriber receives.
 */
public final class SessionEvent {

	private final long id;

	private final EventType type;

	private final @Nullable String sessionId;

	/** Held once, as the frame: replay buffers keep many events, and some are large. */
	private final byte[] frame;

	private final int dataStart;

	/**
	 * @param id increasing over all events of this process, and above every id of a process that ran before it
	 * @param type the kind of event
	 * @param sessionId the session it is about; {@code null} only for a {@code resync} of the stream of all sessions
	 * @param data the JSON payload, {@code sessionId} first; one line, as compact JSON always is
	 */
	public SessionEvent(long id, EventType type, @Nullable String sessionId, String data) {
		this.id = id;
		this.type = type;
		this.sessionId = sessionId;
		byte[] head = ("id:" + id + "\nevent:" + type.wireName() + "\ndata:").getBytes(StandardCharsets.UTF_8);
		byte[] payload = data.getBytes(StandardCharsets.UTF_8);
		this.frame = new byte[head.length + payload.length + 2];
		System.arraycopy(head, 0, this.frame, 0, head.length);
		System.arraycopy(payload, 0, this.frame, head.length, payload.length);
		this.frame[this.frame.length - 2] = '\n';
		this.frame[this.frame.length - 1] = '\n';
		this.dataStart = head.length;
	}

	public long id() {
		return this.id;
	}

	public EventType type() {
		return this.type;
	}

	public @Nullable String sessionId() {
		return this.sessionId;
	}

	public String data() {
		return new String(this.frame, this.dataStart, this.frame.length - 2 - this.dataStart, StandardCharsets.UTF_8);
	}

	/** The {@code id}, {@code event} and {@code data} lines and the blank line that ends them. */
	byte[] frame() {
		return this.frame;
	}

	@Override
	public String toString() {
		return this.id + " " + this.type.wireName() + " " + this.sessionId;
	}

}
