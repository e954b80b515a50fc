package dev.arbor.session;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;

/**
 * New session ids: UUIDv7 strings (docs/SESSION-FORMAT.md#a-file-line-by-line), time-ordered so listings sort
 * naturally.
 */
public final class SessionIds {

	private static final SecureRandom RANDOM = new SecureRandom();

	private SessionIds() {
	}

	public static String newId(Instant now) {
		long millis = now.toEpochMilli();
		long randomHigh = RANDOM.nextLong();
		long randomLow = RANDOM.nextLong();
		long most = (millis << 16) | 0x7000L | (randomHigh & 0x0fffL);
		long least = (randomLow & 0x3fffffffffffffffL) | 0x8000000000000000L;
		return new UUID(most, least).toString();
	}

}
