package dev.arbor.operations;

/** A listing's parameter that asks for something the listing cannot give: it names the parameter and how to fix it. */
public class InvalidListingException extends RuntimeException {

	private final String parameter;

	public InvalidListingException(String parameter, String message) {
		super(message);
		this.parameter = parameter;
	}

	/** The query parameter at fault. */
	public String parameter() {
		return this.parameter;
	}

}
