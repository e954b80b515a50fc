package dev.arbor.config;

import org.springframework.util.unit.DataSize;

/**
 * The memory settings left unset, as shares of the heap ({@code -Xmx}, or what the JVM takes of the machine's or
 * the container's memory): loaded sessions 40 %, request bodies in flight 25 %, event replay up to 2 × 5 %; the rest
 * is for the framework, the event streams' buffers and the garbage collector's room. So Arbor fits whatever heap it
 * is given, and a larger heap is used without a setting.
 */
final class HeapShares {

	static final int CACHE_PERCENT = 40;

	static final int REQUEST_MEMORY_PERCENT = 25;

	static final int REPLAY_PERCENT = 5;

	static final DataSize MAX_REPLAY = DataSize.ofMegabytes(64);

	private HeapShares() {
	}

	static DataSize percent(int percent) {
		return DataSize.ofBytes(Runtime.getRuntime().maxMemory() / 100 * percent);
	}

	static DataSize replay() {
		return DataSize.ofBytes(Math.min(MAX_REPLAY.toBytes(), percent(REPLAY_PERCENT).toBytes()));
	}

}
