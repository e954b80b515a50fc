package dev.arbor.copy;

import javax.sql.DataSource;

import dev.arbor.config.ArborProperties;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The copy command's application: the server's {@code arbor.*} settings, the data source of
 * {@code spring.datasource.*} with its schema migrated by Flyway (Spring Boot's own auto-configurations, so
 * {@code spring.flyway.*} and Hikari's settings apply as they do to the server), and the runner. Nothing of the web,
 * the events' streams or the summaries.
 * <p>
 * Not a {@code @Configuration}: the server's component scan covers this package, and must not pick it up. It is only
 * ever the primary source of {@link CopyCommand}'s application, which processes its annotations and beans all the
 * same.
 */
@EnableConfigurationProperties(ArborProperties.class)
@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
		JdbcTemplateAutoConfiguration.class, FlywayAutoConfiguration.class })
class CopyConfiguration {

	@Bean
	CopyProperties copyProperties(Environment environment) {
		return CopyProperties.of(environment);
	}

	@Bean
	CopyStores copyStores(ArborProperties properties, DataSource dataSource, JdbcTemplate jdbc,
			PlatformTransactionManager transactions) {
		return new CopyStores(properties, dataSource, jdbc, transactions);
	}

	@Bean
	CopyRunner copyRunner(CopyProperties copy, CopyStores stores) {
		return new CopyRunner(copy, stores);
	}

}
