package dev.arbor.session;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The content of a session about to be created: what storage writes as a new file.
 *
 * @param header the new header
 * @param entries the entries in file order
 * @param leafId the leaf of the new session
 */
public record NewSession(SessionHeader header, List<EntryLine> entries, @Nullable String leafId) {

	public NewSession {
		entries = List.copyOf(entries);
	}

}
