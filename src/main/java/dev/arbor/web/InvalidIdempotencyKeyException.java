package dev.arbor.web;

/** An {@code Idempotency-Key} header that holds no key, or more than one (docs/API.md#idempotent-appends). */
class InvalidIdempotencyKeyException extends RuntimeException {

	InvalidIdempotencyKeyException() {
		super(IdempotencyKeys.RULE);
	}

}
