package dev.arbor.operations;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Component;

/**
 * Navigations in flight under a client's {@code requestId}, so that {@code DELETE
 * /sessions/{sid}/navigations/{requestId}} can abort one (docs/API.md#navigation).
 */
@Component
public class InFlightNavigations {

	private final Map<Key, InFlight> running = new ConcurrentHashMap<>();

	/**
	 * Registers a navigation.
	 *
	 * @param requestId the client's id for it, or {@code null}: then it cannot be aborted by id
	 * @throws NavigationInProgressException when a navigation of the session runs under that id already
	 */
	InFlight start(String sessionId, @Nullable String requestId) {
		InFlight navigation = new InFlight(sessionId, requestId);
		if (requestId != null && this.running.putIfAbsent(new Key(sessionId, requestId), navigation) != null) {
			throw new NavigationInProgressException(sessionId, requestId);
		}
		return navigation;
	}

	void finish(InFlight navigation) {
		if (navigation.requestId != null) {
			this.running.remove(new Key(navigation.sessionId, navigation.requestId), navigation);
		}
	}

	/**
	 * Aborts a navigation of this instance before it changes the session.
	 *
	 * @return false when none runs here under that id, or it is applying its result already
	 */
	boolean abort(String sessionId, String requestId) {
		InFlight navigation = this.running.get(new Key(sessionId, requestId));
		return navigation != null && navigation.abort();
	}

	private record Key(String sessionId, String requestId) {
	}

	/**
	 * One navigation. It ends in exactly one of two ways: aborted, or committed to apply its result; whichever
	 * comes first wins.
	 */
	static final class InFlight {

		private final String sessionId;

		private final @Nullable String requestId;

		private final CompletableFuture<Void> aborted = new CompletableFuture<>();

		private final AtomicBoolean decided = new AtomicBoolean();

		private InFlight(String sessionId, @Nullable String requestId) {
			this.sessionId = sessionId;
			this.requestId = requestId;
		}

		/** Completes when the navigation is aborted. */
		CompletableFuture<Void> aborted() {
			return this.aborted;
		}

		boolean abort() {
			if (this.decided.compareAndSet(false, true)) {
				this.aborted.complete(null);
				return true;
			}
			return false;
		}

		/** Whether the navigation may change the session: {@code false} once aborted. */
		boolean commit() {
			return this.decided.compareAndSet(false, true);
		}

	}

}
