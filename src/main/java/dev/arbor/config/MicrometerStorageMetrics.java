package dev.arbor.config;

import java.util.concurrent.TimeUnit;

import dev.arbor.storage.StorageMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/** The store's measurements as Micrometer meters ({@code arbor.appends}, {@code arbor.entries.appended}, {@code arbor.fsync}). */
final class MicrometerStorageMetrics implements StorageMetrics {

	private final Timer appends;

	private final Counter entries;

	private final Timer fsyncs;

	MicrometerStorageMetrics(MeterRegistry registry) {
		this.appends = Timer.builder("arbor.appends")
			.description("Acknowledged appends, from the request to durability (waiting, writing, fsync)")
			.publishPercentileHistogram()
			.register(registry);
		this.entries = Counter.builder("arbor.entries.appended")
			.description("Entries appended (an append can write several)")
			.register(registry);
		this.fsyncs = Timer.builder("arbor.fsync")
			.description("fsyncs of session files; concurrent appends share them")
			.publishPercentileHistogram()
			.register(registry);
	}

	@Override
	public void appended(int entries, long nanos) {
		this.appends.record(nanos, TimeUnit.NANOSECONDS);
		this.entries.increment(entries);
	}

	@Override
	public void synced(long nanos) {
		this.fsyncs.record(nanos, TimeUnit.NANOSECONDS);
	}

}
