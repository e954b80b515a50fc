package dev.arbor.operations;

/** {@code /branch} from an entry that is not a user message (docs/SESSION-FORMAT.md#branching-and-forking). */
public class InvalidBranchEntryException extends RuntimeException {

	private final String entryId;

	/**
	 * @param entryId the entry asked for
	 * @param kind what it is instead: a message's role ({@code assistant}) or an entry's type ({@code label})
	 */
	public InvalidBranchEntryException(String entryId, String kind) {
		// pi's own words first, then what to do instead (docs/SESSION-FORMAT.md#branching-and-forking)
		super("Invalid entry ID for branching: " + entryId + " is " + kind
				+ ", and /branch starts from a user message, whose text goes back to the editor; to copy the path up to"
				+ " any entry into a new session, POST its id as leafId to /sessions/{sessionId}/branched-sessions");
		this.entryId = entryId;
	}

	public String entryId() {
		return this.entryId;
	}

}
