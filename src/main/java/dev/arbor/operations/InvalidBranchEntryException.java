package dev.arbor.operations;

/** {@code /branch} from an entry that is not a user message (docs/SESSION-FORMAT.md#branching-and-forking). */
public class InvalidBranchEntryException extends RuntimeException {

	private final String entryId;

	public InvalidBranchEntryException(String entryId) {
		super("Invalid entry ID for branching");
		this.entryId = entryId;
	}

	public String entryId() {
		return this.entryId;
	}

}
