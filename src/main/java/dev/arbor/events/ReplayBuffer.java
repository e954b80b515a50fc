package dev.arbor.events;

import java.util.ArrayList;
import java.util.List;

/**
 * The latest events of one stream, for clients that reconnect with {@code Last-Event-ID}: at most so many, and at
 * most so many bytes (one navigation's event names every entry it leaves behind, so events can be large). Not
 * thread-safe.
 */
final class ReplayBuffer {

	private final SessionEvent[] ring;

	private final long maxBytes;

	/** Where the oldest event is. */
	private int start;

	private int size;

	private long bytes;

	ReplayBuffer(int capacity, long maxBytes) {
		this.ring = new SessionEvent[capacity];
		this.maxBytes = maxBytes;
	}

	/**
	 * Keeps an event, dropping the oldest ones beyond the bounds (the newest is always kept).
	 *
	 * @return how many bytes of frames the buffer holds more than before (negative when it dropped more)
	 */
	long add(SessionEvent event) {
		if (this.ring.length == 0) {
			return 0;
		}
		long before = this.bytes;
		if (this.size == this.ring.length) {
			dropOldest();
		}
		this.ring[(this.start + this.size) % this.ring.length] = event;
		this.size++;
		this.bytes += event.frame().length;
		while (this.bytes > this.maxBytes && this.size > 1) {
			dropOldest();
		}
		return this.bytes - before;
	}

	/** The bytes of the frames kept. */
	long bytes() {
		return this.bytes;
	}

	/** The events after the given id, oldest first, as far back as the buffer reaches. */
	List<SessionEvent> after(long lastEventId) {
		List<SessionEvent> missed = new ArrayList<>();
		for (int i = 0; i < this.size; i++) {
			SessionEvent event = this.ring[(this.start + i) % this.ring.length];
			if (event.id() > lastEventId) {
				missed.add(event);
			}
		}
		return missed;
	}

	private void dropOldest() {
		this.bytes -= this.ring[this.start].frame().length;
		this.ring[this.start] = null;
		this.start = (this.start + 1) % this.ring.length;
		this.size--;
	}

}
