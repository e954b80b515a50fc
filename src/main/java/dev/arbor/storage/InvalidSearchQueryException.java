package dev.arbor.storage;

/** A search query or one of its filters that cannot be searched for; nothing was searched. */
public class InvalidSearchQueryException extends RuntimeException {

	private final String parameter;

	public InvalidSearchQueryException(String parameter, String message) {
		super(message);
		this.parameter = parameter;
	}

	/** The query parameter at fault. */
	public String parameter() {
		return this.parameter;
	}

}
