package dev.arbor.config;

import java.time.Clock;

import dev.arbor.storage.AppendKeys;
import dev.arbor.storage.SessionStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The session store that {@code arbor.storage.type} selects, with its event bus: files under
 * {@code arbor.storage.dir} ({@link FileStorageConfiguration}), or PostgreSQL ({@link PostgresStorageConfiguration}),
 * and the idempotency keys of appends to it ({@link AppendKeys}).
 */
@Configuration(proxyBeanMethods = false)
@Import({ FileStorageConfiguration.class, PostgresStorageConfiguration.class })
class StorageConfiguration {

	@Bean
	@ConditionalOnMissingBean
	Clock clock() {
		return Clock.systemUTC();
	}

	@Bean
	AppendKeys appendKeys(SessionStore store, ArborProperties properties, Clock clock) {
		ArborProperties.Api api = properties.api();
		return new AppendKeys(store, api.idempotencyKeys(), api.idempotencyWindow(), clock);
	}

}
