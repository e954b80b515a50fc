package dev.arbor.events;

import java.util.ArrayList;
import java.util.List;

/** The latest events of one stream, for clients that reconnect with {@code Last-Event-ID}. Not thread-safe. */
final class ReplayBuffer {

	private final SessionEvent[] ring;

	private int next;

	private int size;

	private long bytes;

	ReplayBuffer(int capacity) {
		this.ring = new SessionEvent[capacity];
	}

	/**
	 * Keeps an event, dropping the oldest when full.
	 *
	 * @return how many more bytes of frames the buffer holds now (negative when it dropped a larger one)
	 */
	long add(SessionEvent event) {
		if (this.ring.length == 0) {
			return 0;
		}
		SessionEvent dropped = this.ring[this.next];
		long delta = event.frame().length - ((dropped != null) ? dropped.frame().length : 0);
		this.ring[this.next] = event;
		this.next = (this.next + 1) % this.ring.length;
		this.size = Math.min(this.size + 1, this.ring.length);
		this.bytes += delta;
		return delta;
	}

	/** The bytes of the frames kept. */
	long bytes() {
		return this.bytes;
	}

	/** The events after the given id, oldest first, as far back as the buffer reaches. */
	List<SessionEvent> after(long lastEventId) {
		List<SessionEvent> missed = new ArrayList<>();
		for (int i = 0; i < this.size; i++) {
			SessionEvent event = this.ring[(this.next - this.size + i + this.ring.length) % this.ring.length];
			if (event.id() > lastEventId) {
				missed.add(event);
			}
		}
		return missed;
	}

}
