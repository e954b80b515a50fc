package dev.arbor.storage;

/**
 * A query parameter that asks for something the operation cannot give: it names the parameter and says how to fix
 * it.
 */
public class InvalidRequestParameterException extends RuntimeException {

	private final String parameter;

	public InvalidRequestParameterException(String parameter, String message) {
		super(message);
		this.parameter = parameter;
	}

	/** The query parameter at fault. */
	public String parameter() {
		return this.parameter;
	}

}
