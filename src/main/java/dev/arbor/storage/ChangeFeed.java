package dev.arbor.storage;

import java.util.ArrayDeque;

/**
 * Hands one session's changes to the listener in the order they were made, each once it is durable. Appends
 * wait for their fsync outside the session's lock (group commit), so they become durable in no particular
 * order; like Kafka's high watermark, a change is released only when every change before it has been
 * released or dropped, and a change whose fsync failed is dropped.
 */
public final class ChangeFeed {

	private final SessionChangeListener listener;

	/** Changes in the order they were made. Guarded by {@code this}. */
	private final ArrayDeque<Pending> pending = new ArrayDeque<>();

	public ChangeFeed(SessionChangeListener listener) {
		this.listener = listener;
	}

	/** Takes a change in its place; called under the session's write lock, so in the order of the writes. */
	public synchronized Pending enqueue(SessionChange change) {
		Pending entry = new Pending(change);
		this.pending.add(entry);
		return entry;
	}

	/** A change that is on disk when made (a leaf move, a rewrite, a deletion). */
	public void publish(SessionChange change) {
		durable(enqueue(change));
	}

	public void durable(Pending change) {
		settle(change, true);
	}

	public void dropped(Pending change) {
		settle(change, false);
	}

	private synchronized void settle(Pending change, boolean durable) {
		change.settled = true;
		change.durable = durable;
		while (!this.pending.isEmpty() && this.pending.peek().settled) {
			Pending head = this.pending.poll();
			if (head.durable) {
				this.listener.onChange(head.change);
			}
		}
	}

	/** A change waiting for its turn. */
	public static final class Pending {

		private final SessionChange change;

		private boolean settled;

		private boolean durable;

		private Pending(SessionChange change) {
			this.change = change;
		}

	}

}
