package dev.arbor.events;

import java.util.ArrayList;
import java.util.List;

/**
 * The latest events of one stream, for clients that reconnect with {@code Last-Event-ID}: at most so many, and at
 * most so many bytes (one navigation's event names every entry it leaves behind, so events can be large). It knows
 * how far back it reaches: a client that saw less than that may have missed events. Not thread-safe.
 */
final class ReplayBuffer {

	private final SessionEvent[] ring;

	private final long maxBytes;

	/** Where the oldest event is. */
	private int start;

	private int size;

	private long bytes;

	/** Every event of this stream after this id is kept; of those up to it, this buffer knows nothing. */
	private long horizon;

	/**
	 * @param horizon the id after which every event of this stream will be kept: the last id before the buffer
	 * was made (events before it belong to an earlier run of Arbor, or were dropped with an earlier buffer)
	 */
	ReplayBuffer(int capacity, long maxBytes, long horizon) {
		this.ring = new SessionEvent[capacity];
		this.maxBytes = maxBytes;
		this.horizon = horizon;
	}

	/**
	 * Keeps an event, dropping the oldest ones beyond the bounds (the newest is always kept).
	 *
	 * @return how many bytes of frames the buffer holds more than before (negative when it dropped more)
	 */
	long add(SessionEvent event) {
		if (this.ring.length == 0) {
			this.horizon = event.id();
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

	/** Whether every event after the given id is kept, so that a client that saw it can replay what it missed. */
	boolean reaches(long lastEventId) {
		return lastEventId >= this.horizon;
	}

	/** The newest id of this stream that the buffer knows of: its newest event's, or its horizon. */
	long newestId() {
		return (this.size == 0) ? this.horizon : this.ring[(this.start + this.size - 1) % this.ring.length].id();
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
		this.horizon = this.ring[this.start].id();
		this.bytes -= this.ring[this.start].frame().length;
		this.ring[this.start] = null;
		this.start = (this.start + 1) % this.ring.length;
		this.size--;
	}

}
