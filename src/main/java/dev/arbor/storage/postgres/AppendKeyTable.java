package dev.arbor.storage.postgres;

import java.security.MessageDigest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import dev.arbor.storage.IdempotencyKey;
import dev.arbor.storage.IdempotencyKeyReusedException;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The {@code arbor_append_key} table: which body each idempotency key of an append came with, shared by the replicas
 * (docs/API.md#idempotent-appends). Every method runs in the caller's transaction, the append's, under the session's
 * lock.
 */
final class AppendKeyTable {

	private final JdbcClient jdbc;

	private final Duration window;

	/** @param window how long a key's body counts after the append that wrote it */
	AppendKeyTable(JdbcClient jdbc, Duration window) {
		this.jdbc = jdbc;
		this.window = window;
	}

	/**
	 * Records the key's body for this append, replacing an expired record of it, and drops the session's other
	 * expired ones.
	 *
	 * @throws IdempotencyKeyReusedException when the key came with another body within the window
	 */
	void claim(String sessionId, IdempotencyKey key, byte[] bodyHash, Instant now) {
		Timestamp oldest = Timestamp.from(now.minus(this.window));
		Optional<byte[]> earlier = this.jdbc
			.sql("SELECT body_hash FROM arbor_append_key WHERE session_id = ? AND key = ? AND created_at >= ?")
			.param(sessionId)
			.param(key.value())
			.param(oldest)
			.query(byte[].class)
			.optional();
		if (earlier.isPresent()) {
			if (!MessageDigest.isEqual(earlier.get(), bodyHash)) {
				throw new IdempotencyKeyReusedException(sessionId, key.value());
			}
			return;
		}
		this.jdbc.sql("DELETE FROM arbor_append_key WHERE session_id = ? AND created_at < ?")
			.param(sessionId)
			.param(oldest)
			.update();
		this.jdbc.sql("INSERT INTO arbor_append_key (session_id, key, body_hash, created_at) VALUES (?, ?, ?, ?)")
			.param(sessionId)
			.param(key.value())
			.param(bodyHash)
			.param(Timestamp.from(now))
			.update();
	}

}
