package dev.arbor.events;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.arbor.storage.SessionWatch;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The open Server-Sent Events streams (docs/API.md#events-server-sent-events): opens them on the bus with their replay,
 * keeps idle ones alive through proxies with heartbeat comments, and ends them all cleanly when the application stops
 * (before the web server's graceful shutdown waits for requests, which open streams would hold up).
 */
public final class EventStreams implements SmartLifecycle {

	private final EventBus bus;

	private final Executor delivery;

	private final Duration heartbeat;

	private final int maxPending;

	private final Set<EventStream> open = ConcurrentHashMap.newKeySet();

	private @Nullable ScheduledExecutorService heartbeats;

	/**
	 * @param delivery runs the writes to clients; a write to a stalled client blocks its thread, so this must not
	 * be a small fixed pool
	 * @param heartbeat how often idle streams get a comment
	 * @param maxPending the frames a client may fall behind before it is dropped
	 */
	public EventStreams(EventBus bus, Executor delivery, Duration heartbeat, int maxPending) {
		this.bus = bus;
		this.delivery = delivery;
		this.heartbeat = heartbeat;
		this.maxPending = maxPending;
	}

	/**
	 * Opens a stream of one session's events, or of all sessions'.
	 *
	 * @param sessionId the session, or {@code null} for every session
	 * @param lastEventId the {@code Last-Event-ID} of a reconnecting client, whose missed events come first
	 * @param watch what keeps the session's changes coming (see {@code SessionStore.watch}), closed with the
	 * stream; {@code null} for none
	 */
	public SseEmitter open(@Nullable String sessionId, @Nullable Long lastEventId, @Nullable SessionWatch watch) {
		SseEmitter emitter = new SseEmitter(0L); // no timeout: heartbeats and the client decide when it ends
		EventStream stream = new EventStream(sessionId, emitter, this.delivery, this.maxPending, this::closed, watch);
		this.open.add(stream);
		this.bus.subscribe(sessionId, lastEventId, stream, stream::open);
		return emitter;
	}

	/** Streams open now. */
	public int size() {
		return this.open.size();
	}

	private void closed(EventStream stream) {
		if (this.open.remove(stream)) {
			this.bus.unsubscribe(stream.sessionId(), stream);
		}
	}

	@Override
	public void start() {
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
			Thread thread = new Thread(runnable, "arbor-sse-heartbeat");
			thread.setDaemon(true);
			return thread;
		});
		long period = this.heartbeat.toMillis();
		scheduler.scheduleAtFixedRate(() -> this.open.forEach(EventStream::heartbeat), period, period,
				TimeUnit.MILLISECONDS);
		this.heartbeats = scheduler;
	}

	@Override
	public void stop() {
		if (this.heartbeats != null) {
			this.heartbeats.shutdownNow();
			this.heartbeats = null;
		}
		this.open.forEach(EventStream::end);
	}

	@Override
	public boolean isRunning() {
		return this.heartbeats != null;
	}

}
