package dev.arbor.storage;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A client's name for one append, sent as {@code Idempotency-Key} (docs/API.md#idempotent-appends): a retry under the
 * same key answers what the first attempt stored instead of appending again.
 *
 * @param value 1 to {@value #MAX_LENGTH} of the characters {@link #PATTERN} allows, enough for a UUID, a ULID or
 * base64 and nothing that needs quoting in a header or a log
 */
public record IdempotencyKey(String value) {

	/** The longest key: Stripe's bound, well under a header line's. */
	public static final int MAX_LENGTH = 255;

	/** The characters a key may hold. */
	public static final String PATTERN = "[A-Za-z0-9._~:+/=-]{1," + MAX_LENGTH + "}";

	private static final Pattern VALID = Pattern.compile(PATTERN);

	public IdempotencyKey {
		Objects.requireNonNull(value, "value");
		if (!isValid(value)) {
			throw new IllegalArgumentException("Not an idempotency key: " + value.length() + " characters");
		}
	}

	public static boolean isValid(String value) {
		return VALID.matcher(value).matches();
	}

}
