package dev.arbor.web;

/** A query parameter given in a way no operation takes (twice, or empty where a value is needed). */
class QueryParameterException extends RuntimeException {

	private final String parameter;

	QueryParameterException(String parameter, String message) {
		super(message);
		this.parameter = parameter;
	}

	String parameter() {
		return this.parameter;
	}

}
