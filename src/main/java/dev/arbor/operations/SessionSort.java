package dev.arbor.operations;

import java.util.Locale;

import dev.arbor.session.Timestamps;
import dev.arbor.storage.SessionInfo;

/**
 * What the session listing is sorted by (docs/API.md#sessions), each a key every session has, so that a cursor can
 * resume after the last session of a page. Sessions with equal keys follow each other by id, in the same direction.
 */
public enum SessionSort {

	/** When the session last changed: an entry written, the leaf moved, the file created or imported. */
	CHANGED("changed"),

	/** The header's timestamp; a session without a readable one sorts before every other. */
	CREATED("created"),

	/**
	 * The name a person reads: pi's name, else the title, else the first message, compared without case; a session
	 * with none of them sorts as the empty text.
	 */
	NAME("name"),

	/** The message entries, as pi's listing counts them. */
	MESSAGES("messages");

	private final String apiName;

	SessionSort(String apiName) {
		this.apiName = apiName;
	}

	/** The name the API gives it. */
	public String apiName() {
		return this.apiName;
	}

	/** The sort of an API name. */
	public static SessionSort fromName(String name) {
		for (SessionSort sort : values()) {
			if (sort.apiName.equals(name)) {
				return sort;
			}
		}
		throw new IllegalArgumentException("Unknown sort '" + name + "': expected one of changed, created, name, messages");
	}

	/** The session's key: a number for every sort but {@link #NAME}, whose key is the text. */
	Key keyOf(SessionInfo info) {
		return switch (this) {
			case CHANGED -> new Key(info.changedAt(), "");
			case CREATED -> {
				String timestamp = info.header().timestamp();
				yield new Key((timestamp != null) ? Timestamps.parseMillis(timestamp) : Timestamps.UNKNOWN, "");
			}
			case NAME -> new Key(0, nameKey(shownName(info)));
			case MESSAGES -> new Key(info.listing().messageCount(), "");
		};
	}

	/**
	 * The start of a name, without case: a first message can be a pasted log of megabytes, and its first
	 * {@value #NAME_KEY_LENGTH} characters place it among the others as well as all of it would.
	 */
	private static String nameKey(String name) {
		String start = (name.length() > NAME_KEY_LENGTH) ? name.substring(0, NAME_KEY_LENGTH) : name;
		return start.toLowerCase(Locale.ROOT);
	}

	private static final int NAME_KEY_LENGTH = 256;

	private static String shownName(SessionInfo info) {
		if (info.listing().name() != null) {
			return info.listing().name();
		}
		if (info.title() != null) {
			return info.title();
		}
		return (info.listing().firstMessage() != null) ? info.listing().firstMessage() : "";
	}

	/**
	 * A session's place in one sort: a number, then a text (only one of them varies within a sort).
	 *
	 * @param number the numeric key
	 * @param text the text key
	 */
	record Key(long number, String text) implements Comparable<Key> {

		@Override
		public int compareTo(Key other) {
			int byNumber = Long.compare(this.number, other.number);
			return (byNumber != 0) ? byNumber : this.text.compareTo(other.text);
		}

	}

}
