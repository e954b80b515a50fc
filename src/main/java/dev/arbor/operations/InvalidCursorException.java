package dev.arbor.operations;

/** A paging cursor that this API did not hand out, or that no longer names a place in the list. */
public class InvalidCursorException extends RuntimeException {

	private final String parameter;

	public InvalidCursorException(String parameter, String message) {
		super(message);
		this.parameter = parameter;
	}

	/** The query parameter that carried the cursor. */
	public String parameter() {
		return this.parameter;
	}

}
