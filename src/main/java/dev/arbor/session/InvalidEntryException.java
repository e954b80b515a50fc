package dev.arbor.session;

import org.jspecify.annotations.Nullable;

/**
 * An entry that may not be appended as given (docs/SESSION-FORMAT.md#entry-types). Names the offending field so
 * that the API can answer a 400 that says what to fix.
 */
public class InvalidEntryException extends RuntimeException {

	private final @Nullable String field;

	public InvalidEntryException(@Nullable String field, String message) {
		super(message);
		this.field = field;
	}

	/** The field at fault, as a path such as {@code message.role} or {@code [2].type}; null for the whole entry. */
	public @Nullable String field() {
		return this.field;
	}

	InvalidEntryException inBatch(int index) {
		String where = "[" + index + "]" + ((this.field != null) ? "." + this.field : "");
		return new InvalidEntryException(where, "Entry " + index + " of the batch: " + getMessage());
	}

}
