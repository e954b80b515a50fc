package dev.arbor.web;

import org.jspecify.annotations.Nullable;

/** Reads {@code Last-Event-ID}: the decimal id of an event, as the streams number them. */
final class LastEventIds {

	private LastEventIds() {
	}

	/**
	 * @return the id from the header, else from the query, else {@code null}
	 * @throws InvalidLastEventIdException when the one given is not an event id
	 */
	static @Nullable Long parse(@Nullable String header, @Nullable String query) {
		String value = (header != null && !header.isBlank()) ? header : query;
		if (value == null || value.isBlank()) {
			return null;
		}
		String trimmed = value.trim();
		if (trimmed.length() > 19 || !trimmed.chars().allMatch(c -> c >= '0' && c <= '9')) {
			throw new InvalidLastEventIdException(value);
		}
		try {
			return Long.parseLong(trimmed);
		}
		catch (NumberFormatException ex) {
			throw new InvalidLastEventIdException(value);
		}
	}

}
