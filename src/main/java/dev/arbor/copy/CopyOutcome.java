package dev.arbor.copy;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * What the copy did with one session of the source, or one file it could not read.
 *
 * @param result what became of it
 * @param name the session id, or the unreadable file's path under the folder
 * @param detail what the line says after the name, if anything
 */
record CopyOutcome(Result result, String name, @Nullable String detail) {

	/** What became of a session, or a file. */
	enum Result {

		/** Not in the target before: it is now, with the same export and leaf. */
		COPIED,

		/** In the target already, with the same export and leaf: left alone. */
		UNCHANGED,

		/** In the target already, with another content or leaf: left alone. */
		DIFFERS,

		/** Not copied: the source's session has malformed lines, or a store failed. */
		FAILED,

		/** A file in the source folder that is not a usable session: not copied. */
		UNREADABLE;

		/** Whether the session is in the target as it is in the source. */
		boolean done() {
			return this == COPIED || this == UNCHANGED;
		}

		String label() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/** {@code copied     <id>: 1019 entries}: the result in a column of its own, so a line is easy to pick out. */
	String line() {
		String line = String.format(Locale.ROOT, "%-10s %s", this.result.label(), this.name);
		return (this.detail != null) ? line + ": " + this.detail : line;
	}

}
