package dev.arbor.events;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.arbor.storage.SessionWatch;
import org.jspecify.annotations.Nullable;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.DataWithMediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One client's Server-Sent Events stream. The bus hands it frames under its lock; they wait in this stream's
 * own queue and a delivery thread writes them, so a client that reads slowly holds up nothing but itself. A
 * client that falls more than {@code maxPending} frames behind is dropped (it reconnects with
 * {@code Last-Event-ID} and replays what it missed, as far as the replay buffer reaches).
 */
final class EventStream implements EventSink {

	private static final byte[] HEARTBEAT = ":heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

	private static final byte[] OPENED = ":open\n\n".getBytes(StandardCharsets.UTF_8);

	private static final MediaType RAW = MediaType.APPLICATION_OCTET_STREAM;

	private final @Nullable String sessionId;

	private final SseEmitter emitter;

	private final Executor delivery;

	private final int maxPending;

	private final Consumer<EventStream> onClose;

	private final @Nullable SessionWatch watch;

	/** The opening comment and the replayed events: sent first, and not counted against {@code maxPending}. */
	private final Queue<byte[]> opening = new ConcurrentLinkedQueue<>();

	private final Queue<byte[]> pending = new ConcurrentLinkedQueue<>();

	private final AtomicInteger pendingCount = new AtomicInteger();

	private final AtomicBoolean draining = new AtomicBoolean();

	private final AtomicBoolean closed = new AtomicBoolean();

	/** Set once the session is deleted: the stream ends after telling the client. */
	private volatile boolean endAfterDrain;

	EventStream(@Nullable String sessionId, SseEmitter emitter, Executor delivery, int maxPending,
			Consumer<EventStream> onClose, @Nullable SessionWatch watch) {
		this.sessionId = sessionId;
		this.emitter = emitter;
		this.delivery = delivery;
		this.maxPending = maxPending;
		this.onClose = onClose;
		this.watch = watch;
		emitter.onCompletion(this::closed);
		emitter.onTimeout(this::closed);
		emitter.onError(error -> closed());
	}

	@Nullable String sessionId() {
		return this.sessionId;
	}

	/** Queues the opening comment (so that the client sees the stream is live) and the replayed events. */
	void open(List<SessionEvent> replay) {
		this.opening.add(OPENED);
		for (SessionEvent event : replay) {
			this.opening.add(event.frame());
		}
		schedule();
	}

	@Override
	public boolean offer(SessionEvent event) {
		if (event.type() == EventType.SESSION_DELETED && this.sessionId != null) {
			this.endAfterDrain = true;
		}
		return enqueue(event.frame());
	}

	void heartbeat() {
		enqueue(HEARTBEAT);
	}

	/**
	 * Ends the stream cleanly: the client sees the response end, not a reset. It stops counting as open at once; the
	 * response itself ends once a write to a stalled client returns (it may block until the server's write timeout).
	 */
	void end() {
		if (this.closed.compareAndSet(false, true)) {
			this.onClose.accept(this);
			if (this.watch != null) {
				this.watch.close();
			}
			this.delivery.execute(this::completeQuietly);
		}
	}

	private boolean enqueue(byte[] frame) {
		if (this.closed.get()) {
			return false;
		}
		if (this.pendingCount.incrementAndGet() > this.maxPending) {
			end(); // too slow: never block the publisher, drop the client instead
			return false;
		}
		this.pending.add(frame);
		schedule();
		return true;
	}

	private void schedule() {
		if (this.draining.compareAndSet(false, true)) {
			try {
				this.delivery.execute(this::drain);
			}
			catch (RuntimeException ex) { // the executor is shut down
				this.draining.set(false);
				end();
			}
		}
	}

	private void drain() {
		do {
			byte[] frame;
			while ((frame = this.opening.poll()) != null) {
				if (!send(frame)) {
					return;
				}
			}
			while ((frame = this.pending.poll()) != null) {
				this.pendingCount.decrementAndGet();
				if (!send(frame)) {
					return;
				}
			}
			this.draining.set(false);
		}
		while (!this.pending.isEmpty() && this.draining.compareAndSet(false, true));
		if (this.endAfterDrain) {
			end();
		}
	}

	private boolean send(byte[] frame) {
		if (this.closed.get()) {
			this.draining.set(false);
			return false;
		}
		try {
			this.emitter.send(Set.of(new DataWithMediaType(frame, RAW)));
			return true;
		}
		catch (IOException | IllegalStateException ex) { // the client went away
			this.draining.set(false);
			closed();
			return false;
		}
	}

	private void completeQuietly() {
		try {
			this.emitter.complete();
		}
		catch (RuntimeException ex) {
			// already completed
		}
		closed();
	}

	private void closed() {
		this.closed.set(true);
		this.onClose.accept(this);
		if (this.watch != null) {
			this.watch.close();
		}
	}

}
