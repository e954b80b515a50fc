package dev.arbor.session;

import java.util.Set;

/**
 * What the selector's filters ask of an entry (docs/SESSION-FORMAT.md#the-selector-rows), packed in a byte so that a
 * session keeps them for every entry at one byte each, made once per entry from what its line's load noted, however
 * often the view is rebuilt.
 */
final class RowFacts {

	/** Set once the byte holds an entry's facts, so that an entry without any differs from one not yet read. */
	static final byte KNOWN = 1;

	static final byte MESSAGE = 1 << 1;

	static final byte USER = 1 << 2;

	static final byte TOOL_RESULT = 1 << 3;

	/** An assistant message with nothing to read (tool calls only) that did not stop with an error or an abort. */
	static final byte HIDDEN_UNLESS_LEAF = 1 << 4;

	/** An entry that changes settings or state rather than says something: what the default filter hides. */
	static final byte BOOKKEEPING = 1 << 5;

	private static final Set<String> BOOKKEEPING_TYPES = Set.of(EntryTypes.LABEL, EntryTypes.CUSTOM,
			EntryTypes.MODEL_CHANGE, EntryTypes.THINKING_LEVEL_CHANGE, EntryTypes.SESSION_INFO, "service_tier_change", "title_change",
			"credential_pin", "session_init", EntryTypes.TTSR_INJECTION, EntryTypes.MODE_CHANGE, "reset_boundary");

	private RowFacts() {
	}

	static byte of(EntryLine entry) {
		int facts = KNOWN;
		if (BOOKKEEPING_TYPES.contains(entry.type())) {
			facts |= BOOKKEEPING;
		}
		else if (entry.isType(EntryTypes.MESSAGE)) {
			// The role, and whether an assistant's message has anything to read, were noted when the line was loaded.
			facts |= MESSAGE;
			String role = entry.messageRole();
			if ("user".equals(role)) {
				facts |= USER;
			}
			else if ("toolResult".equals(role)) {
				facts |= TOOL_RESULT;
			}
			else if (entry.isSilentAssistant()) {
				facts |= HIDDEN_UNLESS_LEAF;
			}
		}
		return (byte) facts;
	}

	static boolean has(byte facts, byte fact) {
		return (facts & fact) != 0;
	}

}
