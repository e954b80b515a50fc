package dev.arbor.config;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Whether the PostgreSQL store can serve: the database answers and holds the sessions table. Part of readiness, so
 * that a replica that lost its database leaves the rotation instead of failing every request.
 */
class DatabaseStorageHealthIndicator extends AbstractHealthIndicator {

	private final JdbcTemplate jdbc;

	DatabaseStorageHealthIndicator(JdbcTemplate jdbc) {
		super("The session database does not answer");
		this.jdbc = jdbc;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		this.jdbc.queryForObject("SELECT count(*) FROM (SELECT 1 FROM arbor_session LIMIT 1) AS probe", Integer.class);
		// A 201 promises a durable append: with this off (or local, with standbys), a crash can take it back.
		builder.withDetail("database", "postgresql")
			.withDetail("synchronousCommit", this.jdbc.queryForObject("SHOW synchronous_commit", String.class))
			.up();
	}

}
