package dev.arbor.web.edge;

/** A query parameter given in a way no operation takes (twice, or empty where a value is needed). */
public class QueryParameterException extends RuntimeException {

	private final String parameter;

	public QueryParameterException(String parameter, String message) {
		super(message);
		this.parameter = parameter;
	}

	public String parameter() {
		return this.parameter;
	}

}
