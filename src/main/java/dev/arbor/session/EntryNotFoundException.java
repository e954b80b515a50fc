package dev.arbor.session;

/** An entry id that names no entry of the session: {@code Entry <id> not found} (docs/SESSION-FORMAT.md#the-leaf). */
public class EntryNotFoundException extends RuntimeException {

	private final String entryId;

	public EntryNotFoundException(String entryId) {
		super("Entry " + entryId + " not found");
		this.entryId = entryId;
	}

	public String entryId() {
		return this.entryId;
	}

}
