package dev.arbor.config;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The session store that {@code arbor.storage.type} selects, with its event bus: files under
 * {@code arbor.storage.dir} ({@link FileStorageConfiguration}), or PostgreSQL ({@link PostgresStorageConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
@Import({ FileStorageConfiguration.class, PostgresStorageConfiguration.class })
class StorageConfiguration {

	@Bean
	@ConditionalOnMissingBean
	Clock clock() {
		return Clock.systemUTC();
	}

}
