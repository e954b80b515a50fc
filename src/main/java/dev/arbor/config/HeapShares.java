package dev.arbor.config;

import org.springframework.util.unit.DataSize;

/**
 * The memory settings left unset, as shares of the heap ({@code -Xmx}, or what the JVM takes of the machine's or
 * the container's memory): loaded sessions 40 %, request bodies in flight 25 %, event replay up to 2 × 5 %, open event
 * streams 20 %; the rest is for the framework and the garbage collector's room. So Arbor fits whatever heap it is
 * given, and a larger heap is used without a setting.
 */
final class HeapShares {

	static final int CACHE_PERCENT = 40;

	static final int REQUEST_MEMORY_PERCENT = 25;

	static final int REPLAY_PERCENT = 5;

	static final DataSize MAX_REPLAY = DataSize.ofMegabytes(64);

	static final int STREAMS_PERCENT = 20;

	/**
	 * What one open event stream takes of the heap, with room to spare: 11.4 KB measured on Jetty 12.1 by
	 * {@code IDLE=10000 bench/event-streams.sh} at -Xmx512m (the heap after a full GC with 10,100 streams open, less the
	 * heap before, over the streams: docs/BENCHMARKS.md#event-streams-benchevent-streamssh), nearly all of it the web
	 * server's buffers for the connection. On Tomcat it was about 110 KB.
	 */
	static final DataSize PER_STREAM = DataSize.ofKilobytes(16);

	/** The most streams by default: below {@code server.jetty.max-connections} (11,000), whatever the heap. */
	static final int MAX_STREAMS = 10_000;

	private HeapShares() {
	}

	static DataSize percent(int percent) {
		return DataSize.ofBytes(Runtime.getRuntime().maxMemory() / 100 * percent);
	}

	/** The open event streams that fit their share of the heap (at least 100). */
	static int streams() {
		long fit = percent(STREAMS_PERCENT).toBytes() / PER_STREAM.toBytes();
		return (int) Math.max(100, Math.min(MAX_STREAMS, fit));
	}

	static DataSize replay() {
		return DataSize.ofBytes(Math.min(MAX_REPLAY.toBytes(), percent(REPLAY_PERCENT).toBytes()));
	}

}
