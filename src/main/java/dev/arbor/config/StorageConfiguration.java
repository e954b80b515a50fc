package dev.arbor.config;

import java.time.Clock;

import dev.arbor.storage.file.FileSessionStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The session store: files under {@code arbor.storage.dir}, and what watches them for other writers. */
@Configuration(proxyBeanMethods = false)
class StorageConfiguration {

	@Bean
	@ConditionalOnMissingBean
	Clock clock() {
		return Clock.systemUTC();
	}

	/** {@code storage} in {@code /actuator/health} and the readiness group. */
	@Bean
	StorageHealthIndicator storageHealthIndicator(FileSessionStore store) {
		return new StorageHealthIndicator(store.root());
	}

	/** What other processes write to the directory, taken in as it happens. */
	@Bean
	StorageWatching storageWatching(FileSessionStore store, ArborProperties properties) {
		ArborProperties.Storage storage = properties.storage();
		return new StorageWatching(store, storage.watch(), storage.pollInterval());
	}

	@Bean(destroyMethod = "close")
	FileSessionStore sessionStore(ArborProperties properties, Clock clock, MeterRegistry meters) {
		ArborProperties.Storage storage = properties.storage();
		FileSessionStore store = new FileSessionStore(storage.dir(), storage.fsync(), storage.cacheSize().toBytes(),
				storage.maxSessionSize().toBytes(), clock, new MicrometerStorageMetrics(meters), storage.tornTailGrace());
		Gauge.builder("arbor.sessions.loaded", store, FileSessionStore::loadedSessions)
			.description("Sessions held in memory")
			.register(meters);
		return store;
	}

}
