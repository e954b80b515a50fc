package dev.arbor.config;

import java.util.concurrent.TimeUnit;

import dev.arbor.storage.StorageMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The store's measurements as Micrometer meters ({@code arbor.appends}, {@code arbor.entries.appended},
 * {@code arbor.fsync}, {@code arbor.external.entries}, {@code arbor.session.reloads}).
 */
final class MicrometerStorageMetrics implements StorageMetrics {

	private final Timer appends;

	private final Counter entries;

	private final Timer fsyncs;

	private final Counter external;

	private final Counter reloads;

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
		this.external = Counter.builder("arbor.external.entries")
			.description("Entries that other processes (coding agents) appended to session files, taken in")
			.register(registry);
		this.reloads = Counter.builder("arbor.session.reloads")
			.description("Session files read again whole because another process rewrote, replaced or shrank them")
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

	@Override
	public void takenIn(int entries) {
		this.external.increment(entries);
	}

	@Override
	public void reloaded() {
		this.reloads.increment();
	}

}
