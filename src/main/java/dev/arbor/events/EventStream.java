package dev.arbor.events;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.arbor.session.Json;
import dev.arbor.storage.SessionWatch;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * One client's Server-Sent Events stream, written with the Servlet API's non-blocking output
 * (docs/ARCHITECTURE.md#event-streams). The bus hands it frames under its lock; they wait in this stream's queue
 * and are written while the connection takes them, by a thread of the small delivery pool or by the container when
 * the connection drains. No thread ever waits for a client: one that reads slowly holds nothing but its queue, and
 * one that falls more than {@code maxPending} events or {@code maxPendingBytes} behind is dropped, its queue freed,
 * with a last {@code resync} it can reconnect from (docs/API.md#events-server-sent-events).
 * <p>
 * Only one thread writes at a time: the one that moved {@link #state} to {@code WRITING}.
 */
final class EventStream implements EventSink, WriteListener, AsyncListener {

	private static final byte[] HEARTBEAT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

	private static final byte[] OPENED = ":open\n\n".getBytes(StandardCharsets.UTF_8);

	/**
	 * The most bytes handed to the connection at once. What the connection cannot take yet, the container copies and
	 * keeps; this bounds that copy for a client that stops reading in the middle of a large event.
	 */
	private static final int CHUNK = 8192;

	/** Subscribed, but the response is not yet asynchronous: frames queue up until {@link #attach}. */
	private static final int NEW = -1;

	/** No frame is being written, and none waits. */
	private static final int IDLE = 0;

	/** A thread is writing frames. */
	private static final int WRITING = 1;

	/** A thread is writing, and the container said meanwhile that the connection takes more. */
	private static final int WRITING_RESUMED = 2;

	/** The connection took no more; the container calls {@link #onWritePossible} when it does. */
	private static final int WAITING = 3;

	/** The response is complete: nothing is written any more. */
	private static final int DONE = 4;

	private final @Nullable String sessionId;

	private final EventStreams owner;

	/** Set by {@link #attach}, before any write (the state's change to {@code IDLE} publishes them). */
	private @Nullable AsyncContext async;

	private @Nullable ServletOutputStream out;

	private final @Nullable SessionWatch watch;

	/** The opening comment, the replayed events and heartbeats: written first, and not counted as falling behind. */
	private final Queue<byte[]> control = new ConcurrentLinkedQueue<>();

	private final Queue<Pending> pending = new ConcurrentLinkedQueue<>();

	private final AtomicInteger pendingCount = new AtomicInteger();

	private final AtomicLong pendingBytes = new AtomicLong();

	private final AtomicInteger state = new AtomicInteger(NEW);

	/** Set once: the stream no longer takes events; it ends once what it still has to write is written. */
	private final AtomicBoolean closed = new AtomicBoolean();

	/** Set when the session is deleted: the stream ends once it has told the client. */
	private volatile boolean endAfterPending;

	/** What a dropped client is told last; written after the frame in progress, instead of what was queued. */
	private volatile byte @Nullable [] last;

	/** Whether what was queued is thrown away: a dropped client, or the application stopping. */
	private volatile boolean discard;

	/** The id of the last event written whole to the connection, for the {@code resync} of a dropped client. */
	private volatile long lastWrittenId = -1;

	// Owned by the writing thread.

	private @Nullable Pending current;

	private int offset;

	private boolean unflushed;

	EventStream(@Nullable String sessionId, EventStreams owner, @Nullable SessionWatch watch) {
		this.sessionId = sessionId;
		this.owner = owner;
		this.watch = watch;
	}

	/** Starts writing to the now asynchronous response what was queued since the stream subscribed. */
	void attach(AsyncContext async, ServletOutputStream out) {
		this.async = async;
		this.out = out;
		async.addListener(this);
		out.setWriteListener(this);
		this.state.set(IDLE);
		kick();
	}

	@Nullable String sessionId() {
		return this.sessionId;
	}

	/** Queues the opening comment (so that the client sees the stream is live) and the replayed events. */
	void open(List<SessionEvent> replay) {
		this.control.add(OPENED);
		for (SessionEvent event : replay) {
			this.control.add(event.frame());
		}
		kick();
	}

	@Override
	public boolean offer(SessionEvent event) {
		if (this.closed.get()) {
			return false;
		}
		byte[] frame = event.frame();
		int count = this.pendingCount.incrementAndGet();
		long bytes = this.pendingBytes.addAndGet(frame.length);
		// the newest event always fits: one larger than the limit drops nobody who keeps up
		if (count > 1 && (count > this.owner.maxPending() || bytes > this.owner.maxPendingBytes())) {
			drop();
			return false;
		}
		this.pending.add(new Pending(frame, event.id(), System.nanoTime()));
		if (event.type() == EventType.SESSION_DELETED && this.sessionId != null) {
			this.endAfterPending = true;
		}
		kick();
		return true;
	}

	/** A comment for a stream with nothing to write, so that proxies keep it open and a gone client is noticed. */
	void heartbeat() {
		if (this.state.get() == IDLE && this.pending.isEmpty() && !this.closed.get()) {
			this.control.add(HEARTBEAT);
			kick();
		}
	}

	/**
	 * Ends the stream without writing what it still holds: the client sees the response end, not a reset. It stops
	 * counting as open at once; a client that reads nothing meanwhile is not waited for.
	 */
	void end() {
		if (close()) {
			this.discard = true;
			if (this.state.compareAndSet(WAITING, WRITING) || this.state.compareAndSet(NEW, DONE)) {
				complete();
			}
			else {
				kick();
			}
		}
	}

	/** Too far behind: what it was sent goes, and the client is told to reconnect and replay. */
	private void drop() {
		if (close()) {
			this.owner.dropped();
			this.last = resync(this.sessionId, this.lastWrittenId);
			this.discard = true;
			clearPending();
			kick(); // when the client reads again, it gets the resync; the container times out one that never does
		}
	}

	/** Stops taking events; {@code true} for the call that did it. */
	private boolean close() {
		if (!this.closed.compareAndSet(false, true)) {
			return false;
		}
		this.owner.closed(this);
		if (this.watch != null) {
			this.watch.close();
		}
		return true;
	}

	private void kick() {
		if (this.state.compareAndSet(IDLE, WRITING)) {
			try {
				this.owner.execute(this::write);
			}
			catch (RejectedExecutionException ex) { // the pool is shut down: the application is stopping
				this.discard = true;
				close();
				complete();
			}
		}
	}

	@Override
	public void onWritePossible() {
		for (;;) {
			int now = this.state.get();
			if ((now == WAITING || now == IDLE) && this.state.compareAndSet(now, WRITING)) {
				write();
				return;
			}
			if (now == WRITING && this.state.compareAndSet(WRITING, WRITING_RESUMED)) {
				return; // the writing thread goes on
			}
			if (now == WRITING_RESUMED || now == DONE) {
				return;
			}
		}
	}

	/** Writes while the connection takes it; called by the thread that moved the state to {@code WRITING}. */
	private void write() {
		try {
			for (;;) {
				if (this.current == null) {
					this.current = next();
					this.offset = 0;
				}
				if (this.current == null) {
					if (this.unflushed) {
						// like a write, a flush must wait until the connection took the previous one
						if (!this.out.isReady()) {
							if (park()) {
								return;
							}
							continue;
						}
						this.unflushed = false;
						this.out.flush();
						continue;
					}
					if (this.discard || this.endAfterPending) {
						if (!this.discard && hasQueued()) {
							continue; // the session's deletion, queued just before it said so
						}
						close();
						complete();
						return;
					}
					this.state.set(IDLE);
					if (!hasWork() || !this.state.compareAndSet(IDLE, WRITING)) {
						return;
					}
					continue;
				}
				if (!this.out.isReady()) {
					if (park()) {
						return;
					}
					continue;
				}
				byte[] frame = this.current.frame();
				int length = Math.min(CHUNK, frame.length - this.offset);
				this.out.write(frame, this.offset, length);
				this.unflushed = true;
				this.offset += length;
				if (this.offset == frame.length) {
					written(this.current);
					this.current = null;
				}
			}
		}
		catch (IOException | RuntimeException ex) { // the client went away, or the response is over
			failed();
		}
	}

	/** The next frame to write: what a dropped client is told last, or else control frames before events. */
	private @Nullable Pending next() {
		if (this.discard) {
			clearPending();
			this.control.clear();
			byte[] lastFrame = this.last;
			this.last = null;
			this.discard = lastFrame == null; // after the resync, the stream ends
			if (lastFrame != null) {
				this.endAfterPending = true;
				return new Pending(lastFrame, -1, 0);
			}
			return null;
		}
		byte[] frame = this.control.poll();
		if (frame != null) {
			return new Pending(frame, -1, 0);
		}
		Pending event = this.pending.poll();
		if (event != null) {
			this.pendingCount.decrementAndGet();
			this.pendingBytes.addAndGet(-event.frame().length);
		}
		return event;
	}

	private boolean hasWork() {
		return hasQueued() || this.discard || this.endAfterPending;
	}

	private boolean hasQueued() {
		return !this.control.isEmpty() || !this.pending.isEmpty();
	}

	private void written(Pending frame) {
		if (frame.id() >= 0) {
			this.lastWrittenId = frame.id();
			this.owner.delivered(System.nanoTime() - frame.queuedAt());
		}
	}

	/**
	 * The connection takes no more: wait for the container to call {@link #onWritePossible}, unless it already did.
	 *
	 * @return whether to stop writing now
	 */
	private boolean park() {
		if (this.state.compareAndSet(WRITING, WAITING)) {
			return true;
		}
		this.state.compareAndSet(WRITING_RESUMED, WRITING);
		return false;
	}

	private void clearPending() {
		this.pending.clear();
		this.pendingCount.set(0);
		this.pendingBytes.set(0);
	}

	private void complete() {
		this.state.set(DONE);
		this.current = null;
		try {
			if (this.async != null) {
				this.async.complete();
			}
		}
		catch (RuntimeException ex) {
			// completed already: the client went away
		}
	}

	private void failed() {
		close();
		complete();
	}

	@Override
	public void onError(Throwable error) {
		failed();
	}

	@Override
	public void onComplete(AsyncEvent event) {
		this.state.set(DONE);
		close();
	}

	@Override
	public void onTimeout(AsyncEvent event) {
		failed();
	}

	@Override
	public void onError(AsyncEvent event) {
		failed();
	}

	@Override
	public void onStartAsync(AsyncEvent event) {
		// one async cycle per stream: nothing to do
	}

	/** An event frame waiting for the connection, with its id and when it was queued ({@code -1} for comments). */
	private record Pending(byte[] frame, long id, long queuedAt) {
	}

	/**
	 * The {@code resync} a dropped client gets. It has no {@code id}, so that EventSource reconnects from the last
	 * event it received.
	 */
	private static byte[] resync(@Nullable String sessionId, long lastEventId) {
		ObjectNode data = Json.newObject().put("sessionId", sessionId);
		if (lastEventId >= 0) {
			data.put("lastEventId", lastEventId);
		}
		else {
			data.putNull("lastEventId");
		}
		data.put("reason", "too-slow");
		return ("event:" + EventType.RESYNC.wireName() + "\ndata:" + Json.toString(data) + "\n\n")
			.getBytes(StandardCharsets.UTF_8);
	}

}
