package dev.arbor.web.edge;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The requests whose body is still arriving, in all and per client, each count held under its limit. Thread-safe; a
 * client that holds none takes no memory.
 */
final class BodyRequestSlots {

	/** What {@link #tryAcquire} decided. */
	enum Admission {

		/** In: call {@link #release} once, when the body has arrived or the request is answered. */
		ADMITTED,

		/** This client has its share of bodies arriving already. */
		CLIENT_BUSY,

		/** All clients together have the limit of bodies arriving. */
		SERVER_BUSY

	}

	private final int max;

	private final int maxPerClient;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final ConcurrentMap<String, Integer> perClient = new ConcurrentHashMap<>();

	/**
	 * @param max requests whose body is still arriving at once, from all clients
	 * @param maxPerClient requests whose body is still arriving at once from one client
	 */
	BodyRequestSlots(int max, int maxPerClient) {
		this.max = max;
		this.maxPerClient = maxPerClient;
	}

	Admission tryAcquire(String client) {
		boolean[] admitted = new boolean[1];
		this.perClient.compute(client, (key, held) -> {
			int count = (held != null) ? held : 0;
			admitted[0] = count < this.maxPerClient;
			return admitted[0] ? count + 1 : held;
		});
		if (!admitted[0]) {
			return Admission.CLIENT_BUSY;
		}
		if (this.inFlight.incrementAndGet() > this.max) {
			release(client);
			return Admission.SERVER_BUSY;
		}
		return Admission.ADMITTED;
	}

	/** Gives back a slot that {@link #tryAcquire} admitted. */
	void release(String client) {
		this.inFlight.decrementAndGet();
		this.perClient.computeIfPresent(client, (key, held) -> (held > 1) ? held - 1 : null);
	}

}
