package dev.arbor.web;

/** An {@code If-Match} header that holds no entity tag (an unquoted leaf id, say). */
class InvalidIfMatchException extends RuntimeException {

	InvalidIfMatchException() {
		super("If-Match must hold entity tags such as \"<leafId>\" (\"root\" for an empty leaf), or *");
	}

}
