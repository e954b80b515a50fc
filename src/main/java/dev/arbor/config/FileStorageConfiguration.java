package dev.arbor.config;

import java.io.IOException;
import java.time.Clock;

import dev.arbor.events.EventBus;
import dev.arbor.events.MemoryEventBus;
import dev.arbor.events.StoreEvents;
import dev.arbor.storage.file.FileSearch;
import dev.arbor.storage.file.FileSessionStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The file store ({@code arbor.storage.type=file}, the default): session files under {@code arbor.storage.dir}, what
 * watches them for other writers, and the event bus that keeps the replay in memory.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "arbor.storage.type", havingValue = "file", matchIfMissing = true)
class FileStorageConfiguration {

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
				storage.maxSessionSize().toBytes(), clock, new MicrometerStorageMetrics(meters), storage.tornTailGrace(),
				storage.followLinks());
		Gauge.builder("arbor.sessions.loaded", store, FileSessionStore::loadedSessions)
			.description("Sessions held in memory")
			.register(meters);
		return store;
	}

	/** Search (docs/API.md#search): a Lucene index under the folder's .arbor/search, built in the background. */
	@Bean(destroyMethod = "close")
	FileSearch sessionSearch(FileSessionStore store, MeterRegistry meters) throws IOException {
		FileSearch search = new FileSearch(store);
		Gauge.builder("arbor.search.index.pending", search, FileSearch::pendingSessions)
			.description("Sessions the search index has still to read before its answers are complete")
			.register(meters);
		return search;
	}

	@Bean
	EventBus eventBus(ArborProperties properties, FileSessionStore store) {
		ArborProperties.Events events = properties.events();
		MemoryEventBus bus = new MemoryEventBus(events.replaySize(), events.replayMemory().toBytes());
		store.addChangeListener(new StoreEvents(bus));
		return bus;
	}

}
