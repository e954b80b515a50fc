package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What pi's session listing shows of a session's entries, by pi's own rules
 * (docs/SESSION-FORMAT.md#how-a-session-is-listed): the name, the first user message and the message count. Taken in
 * file order, one entry at a time, so that a store keeps them current on append without reading the session again.
 *
 * @param name the latest {@code session_info} entry's trimmed name; {@code null} when there is none, or the latest
 * clears it
 * @param firstMessage the first user message's text; {@code null} when no user message has any
 * @param messageCount the {@code message} entries, whatever they hold
 */
public record ListingFacts(@Nullable String name, @Nullable String firstMessage, int messageCount) {

	/** A session without entries. */
	public static final ListingFacts NONE = new ListingFacts(null, null, 0);

	/** What pi's listing shows as the first message of a session without one. */
	public static final String NO_MESSAGES = "(no messages)";

	/** The facts of entries in file order. */
	public static ListingFacts of(List<EntryLine> entries) {
		return NONE.plus(entries);
	}

	/** These facts with entries appended after the ones they were taken from. */
	public ListingFacts plus(List<EntryLine> entries) {
		Tally tally = new Tally(this);
		entries.forEach(tally::add);
		return tally.facts();
	}

	/**
	 * A name as pi's {@code /name} writes it into a {@code session_info} entry: trimmed as JavaScript's
	 * {@code trim} does, so that pi and Arbor read the same name from it.
	 */
	public static String trimmedName(String name) {
		return JavaScriptTrim.trim(name);
	}

	/** The first message as pi's listing shows it: {@link #NO_MESSAGES} when there is none. */
	public String shownFirstMessage() {
		return (this.firstMessage != null) ? this.firstMessage : NO_MESSAGES;
	}

	/**
	 * The facts taken one entry at a time, for the tree that keeps them as it grows. Not thread-safe, as the tree is
	 * not.
	 */
	static final class Tally {

		private @Nullable String name;

		private @Nullable String firstMessage;

		private int messageCount;

		Tally(ListingFacts from) {
			this.name = from.name;
			this.firstMessage = from.firstMessage;
			this.messageCount = from.messageCount;
		}

		/** pi's {@code buildSessionInfo}, for one entry. */
		void add(EntryLine entry) {
			if (entry.isType(EntryTypes.SESSION_INFO)) {
				this.name = name(entry.toNode());
			}
			else if (entry.isType(EntryTypes.MESSAGE)) {
				this.messageCount++;
				// only a user's message can be the first message: the others are never read
				if (this.firstMessage == null && "user".equals(entry.messageRole()) && entry.hasMessageObject()) {
					String text = text(entry.messageNode());
					this.firstMessage = text.isEmpty() ? null : text;
				}
			}
		}

		ListingFacts facts() {
			return new ListingFacts(this.name, this.firstMessage, this.messageCount);
		}

		/**
		 * {@code name?.trim() || undefined}: every {@code session_info} entry sets the name, an empty or absent one
		 * clears it. A name that is not a string clears it too (pi's listing would fail on that file and leave it
		 * out).
		 */
		private static @Nullable String name(ObjectNode entry) {
			String name = Json.text(entry, "name");
			String trimmed = (name != null) ? JavaScriptTrim.trim(name) : "";
			return trimmed.isEmpty() ? null : trimmed;
		}

		/**
		 * pi's {@code extractTextContent}, for a message {@code isMessageWithContent} accepts (a string role and a
		 * content): a string content as it is, else the {@code text} of its {@code type: "text"} blocks joined with
		 * spaces; {@code ""} otherwise. A block's text that is not a string counts as empty, as JavaScript joins
		 * {@code undefined}.
		 */
		private static String text(ObjectNode message) {
			if (!message.has("content")) {
				return "";
			}
			JsonNode content = message.get("content");
			if (content.isString()) {
				return content.asString();
			}
			if (!content.isArray()) {
				return "";
			}
			StringBuilder text = new StringBuilder();
			boolean first = true;
			for (JsonNode block : content) {
				if (block.isObject() && "text".equals(Json.text(block, "type"))) {
					if (!first) {
						text.append(' ');
					}
					first = false;
					String blockText = Json.text(block, "text");
					text.append((blockText != null) ? blockText : "");
				}
			}
			return text.toString();
		}

	}

	/**
	 * JavaScript's {@code String.prototype.trim}: it strips Unicode white space and line terminators (no-break space,
	 * the byte order mark, the ideographic space …), where Java's {@code strip} misses some and {@code trim} strips
	 * control characters as well.
	 */
	static final class JavaScriptTrim {

		private JavaScriptTrim() {
		}

		static String trim(String text) {
			int start = 0;
			int end = text.length();
			while (start < end && isSpace(text.charAt(start))) {
				start++;
			}
			while (end > start && isSpace(text.charAt(end - 1))) {
				end--;
			}
			return text.substring(start, end);
		}

		private static boolean isSpace(char c) {
			return switch (c) {
				case '\t', '\n', '\u000B', '\f', '\r', ' ', '\u00A0', '\u1680', '\u2028', '\u2029', '\u202F', '\u205F',
						'\u3000', '\uFEFF' ->
					true;
				default -> c >= '\u2000' && c <= '\u200A';
			};
		}

	}

}
