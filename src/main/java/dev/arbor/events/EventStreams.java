package dev.arbor.events;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.arbor.storage.SessionWatch;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * The open Server-Sent Events streams (docs/API.md#events-server-sent-events, docs/ARCHITECTURE.md#event-streams):
 * opens them on the bus with their replay, at most {@code maxStreams} at once; writes them from one small pool with
 * non-blocking output, so that a stream costs a queue and no thread; keeps idle ones alive through proxies with
 * heartbeat comments; and ends them all cleanly when the application stops (before the web server's graceful
 * shutdown waits for requests, which open streams would hold up).
 */
public final class EventStreams implements SmartLifecycle {

	private final EventBus bus;

	private final ThreadPoolExecutor delivery;

	private final Limits limits;

	private final Set<EventStream> open = ConcurrentHashMap.newKeySet();

	/** Streams open or being opened: taken before a stream subscribes, so that the cap holds under a rush. */
	private final AtomicInteger taken = new AtomicInteger();

	private final Counter dropped;

	private final Counter refused;

	private final Timer lag;

	private @Nullable ScheduledExecutorService heartbeats;

	/**
	 * @param delivery writes to clients; the writes never block, so a pool of about one thread per core serves any
	 * number of streams (see {@code EventsConfiguration})
	 */
	public EventStreams(EventBus bus, ThreadPoolExecutor delivery, Limits limits, MeterRegistry meters) {
		this.bus = bus;
		this.delivery = delivery;
		this.limits = limits;
		Gauge.builder("arbor.sse.subscribers", this, EventStreams::size)
			.description("Open Server-Sent Events streams")
			.register(meters);
		this.dropped = Counter.builder("arbor.sse.dropped")
			.description("Event streams ended for falling too far behind (arbor.events.max-pending, max-pending-bytes)")
			.register(meters);
		this.refused = Counter.builder("arbor.sse.refused")
			.description("Event streams refused with 503 because arbor.events.max-streams were open")
			.register(meters);
		this.lag = Timer.builder("arbor.sse.delivery.lag")
			.description("From an event's publication to its last byte handed to a client's connection")
			.publishPercentiles(0.5, 0.99)
			.register(meters);
	}

	/**
	 * Opens a stream of one session's events, or of all sessions', on the request: it goes on asynchronously after
	 * the handler returns.
	 *
	 * @param sessionId the session, or {@code null} for every session
	 * @param lastEventId the {@code Last-Event-ID} of a reconnecting client, whose missed events come first
	 * @param watch what keeps the session's changes coming (see {@code SessionStore.watch}), closed with the
	 * stream; {@code null} for none
	 * @throws TooManyStreamsException when {@code maxStreams} are open; nothing was opened
	 */
	public void open(HttpServletRequest request, HttpServletResponse response, @Nullable String sessionId,
			@Nullable Long lastEventId, @Nullable SessionWatch watch) throws IOException {
		if (this.taken.incrementAndGet() > this.limits.maxStreams()) {
			this.taken.decrementAndGet();
			this.refused.increment();
			throw new TooManyStreamsException(this.limits.maxStreams());
		}
		EventStream stream = new EventStream(sessionId, this, watch);
		this.open.add(stream);
		try {
			// subscribed first: a replay that fails is an ordinary error answer, not a broken stream
			this.bus.subscribe(sessionId, lastEventId, stream, stream::open);
			response.setStatus(HttpServletResponse.SC_OK);
			response.setContentType("text/event-stream");
			AsyncContext async = request.startAsync(request, response);
			async.setTimeout(0); // no timeout: heartbeats and the client decide when it ends
			stream.attach(async, response.getOutputStream());
		}
		catch (IOException | RuntimeException ex) {
			stream.end();
			if (request.isAsyncStarted()) {
				request.getAsyncContext().complete(); // once the error answer is written
			}
			throw ex;
		}
	}

	/** Streams open now. */
	public int size() {
		return this.open.size();
	}

	int maxPending() {
		return this.limits.maxPending();
	}

	long maxPendingBytes() {
		return this.limits.maxPendingBytes();
	}

	void execute(Runnable write) {
		this.delivery.execute(write);
	}

	void delivered(long lagNanos) {
		this.lag.record(lagNanos, TimeUnit.NANOSECONDS);
	}

	void dropped() {
		this.dropped.increment();
	}

	void closed(EventStream stream) {
		if (this.open.remove(stream)) {
			this.taken.decrementAndGet();
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
		long period = this.limits.heartbeat().toMillis();
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

	/**
	 * What the streams may take.
	 *
	 * @param maxStreams streams open at once; more are refused
	 * @param maxPending the events a client may fall behind before it is dropped
	 * @param maxPendingBytes the bytes of events a client may fall behind before it is dropped
	 * @param heartbeat how often idle streams get a comment
	 */
	public record Limits(int maxStreams, int maxPending, long maxPendingBytes, Duration heartbeat) {
	}

}
