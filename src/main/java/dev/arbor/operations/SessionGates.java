package dev.arbor.operations;

import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

import org.springframework.stereotype.Component;

/**
 * Serializes navigations with a session's other writes (docs/SESSION-FORMAT.md#navigation runs from one state to the
 * next with nothing in between, however long its hooks and summary take). Ordinary writes share the gate: the store
 * orders them itself, and concurrent appends keep sharing fsyncs. A navigation holds it alone, from reading the leaf to
 * moving it. Reads never pass the gate. Sessions have gates of their own while in use.
 */
@Component
public class SessionGates {

	private static final long ABORT_POLL_MILLIS = 20;

	private final Map<String, Gate> gates = new ConcurrentHashMap<>();

	/** Runs a write that others of its kind may run beside, but no navigation. */
	public <T> T shared(String sessionId, Supplier<T> write) {
		Gate gate = acquire(sessionId);
		Lock lock = gate.lock.readLock();
		lock.lock();
		try {
			return write.get();
		}
		finally {
			lock.unlock();
			release(sessionId);
		}
	}

	/**
	 * Runs a navigation alone.
	 *
	 * @param abort when done before the gate is free, the navigation does not run
	 * @throws CancellationException when aborted while waiting
	 */
	public <T> T exclusive(String sessionId, Future<?> abort, Supplier<T> navigation) {
		Gate gate = acquire(sessionId);
		Lock lock = gate.lock.writeLock();
		try {
			while (!lock.tryLock(ABORT_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
				if (abort.isDone()) {
					throw new CancellationException("Aborted while waiting for the session");
				}
			}
		}
		catch (InterruptedException ex) {
			release(sessionId);
			Thread.currentThread().interrupt();
			throw new CancellationException("Interrupted while waiting for the session");
		}
		catch (RuntimeException ex) {
			release(sessionId);
			throw ex;
		}
		try {
			return navigation.get();
		}
		finally {
			lock.unlock();
			release(sessionId);
		}
	}

	private Gate acquire(String sessionId) {
		return this.gates.compute(sessionId, (id, gate) -> {
			Gate used = (gate != null) ? gate : new Gate();
			used.users++;
			return used;
		});
	}

	private void release(String sessionId) {
		this.gates.computeIfPresent(sessionId, (id, gate) -> (--gate.users == 0) ? null : gate);
	}

	/** A session's gate and how many callers hold or wait for it; guarded by the map's per-key locking. */
	private static final class Gate {

		final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();

		int users;

	}

}
