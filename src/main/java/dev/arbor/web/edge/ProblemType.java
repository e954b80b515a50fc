package dev.arbor.web.edge;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Every kind of error the API answers, each with a stable {@code type} URI (RFC 9457): clients branch on the type,
 * never on the wording of {@code detail}.
 */
public enum ProblemType {

	INVALID_ID(HttpStatus.BAD_REQUEST, "invalid-id", "Invalid id"),

	MALFORMED_JSON(HttpStatus.BAD_REQUEST, "malformed-json", "Malformed JSON"),

	INVALID_FIELD(HttpStatus.BAD_REQUEST, "invalid-field", "Invalid field"),

	INVALID_ENTRY(HttpStatus.BAD_REQUEST, "invalid-entry", "Invalid entry"),

	INVALID_PARAMETER(HttpStatus.BAD_REQUEST, "invalid-parameter", "Invalid parameter"),

	INVALID_IF_MATCH(HttpStatus.BAD_REQUEST, "invalid-if-match", "Invalid If-Match"),

	/** An {@code Idempotency-Key} that is not 1 to 255 of the characters a key may hold, or more than one. */
	INVALID_IDEMPOTENCY_KEY(HttpStatus.BAD_REQUEST, "invalid-idempotency-key", "Invalid Idempotency-Key"),

	INVALID_SESSION_FILE(HttpStatus.BAD_REQUEST, "invalid-session-file", "Not a session file"),

	BAD_REQUEST(HttpStatus.BAD_REQUEST, "bad-request", "Bad request"),

	/**
	 * A refusal with a 4xx status that no other type stands for, such as the 417 Jetty answers an {@code Expect}
	 * other than {@code 100-continue} with: the document's {@code status} is the response's, whatever the status
	 * here (the class's first).
	 */
	CLIENT_ERROR(HttpStatus.BAD_REQUEST, "client-error", "Client error"),

	/** No API key, or a wrong one, while {@code arbor.security.api-keys} is set. */
	UNAUTHORIZED(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized"),

	/** A cross-origin request from an origin (or with a method or header) CORS does not allow. */
	CORS_REJECTED(HttpStatus.FORBIDDEN, "cors-rejected", "Cross-origin request refused"),

	SESSION_NOT_FOUND(HttpStatus.NOT_FOUND, "session-not-found", "Session not found"),

	ENTRY_NOT_FOUND(HttpStatus.NOT_FOUND, "entry-not-found", "Entry not found"),

	NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "Not found"),

	METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed"),

	NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "Not acceptable"),

	/** {@code DELETE …/navigations/{requestId}} with no such navigation in flight. */
	NAVIGATION_NOT_FOUND(HttpStatus.NOT_FOUND, "navigation-not-found", "Navigation not found"),

	/** A navigation with the same {@code requestId} is in flight. */
	NAVIGATION_IN_PROGRESS(HttpStatus.CONFLICT, "navigation-in-progress", "Navigation in progress"),

	/** {@code summarize} without a summary model (docs/SESSION-FORMAT.md#navigation). */
	NO_SUMMARY_MODEL(HttpStatus.UNPROCESSABLE_CONTENT, "no-summary-model", "No summary model"),

	/** {@code /branch} from an entry that is not a user message (docs/SESSION-FORMAT.md#branching-and-forking). */
	INVALID_BRANCH_ENTRY(HttpStatus.UNPROCESSABLE_CONTENT, "invalid-branch-entry", "Invalid entry for branching"),

	/** The {@code Idempotency-Key} was sent on the session with another body (docs/API.md#idempotent-appends). */
	IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_CONTENT, "idempotency-key-reused", "Idempotency-Key reused"),

	/** The summary model failed. */
	SUMMARY_FAILED(HttpStatus.BAD_GATEWAY, "summary-failed", "Summarization failed"),

	SESSION_EXISTS(HttpStatus.CONFLICT, "session-exists", "Session exists"),

	SESSION_LOCKED(HttpStatus.CONFLICT, "session-locked", "Session locked"),

	/** An append under the {@code Idempotency-Key} is still running (docs/API.md#idempotent-appends). */
	IDEMPOTENCY_KEY_IN_FLIGHT(HttpStatus.CONFLICT, "idempotency-key-in-flight", "Idempotency-Key in flight"),

	LEAF_MOVED(HttpStatus.PRECONDITION_FAILED, "leaf-moved", "Leaf moved"),

	REQUEST_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "request-too-large", "Request too large"),

	/** A write that would make a session larger than one session may be in memory ({@code arbor.storage.max-session-size}). */
	SESSION_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "session-too-large", "Session too large"),

	/** A request body that did not arrive within {@code arbor.api.body-timeout}. */
	REQUEST_TIMEOUT(HttpStatus.REQUEST_TIMEOUT, "request-timeout", "Request timeout"),

	/**
	 * More requests whose body is still arriving from one client than
	 * {@code arbor.api.max-body-requests-per-client}.
	 */
	TOO_MANY_REQUESTS(HttpStatus.TOO_MANY_REQUESTS, "too-many-requests", "Too many requests"),

	/**
	 * More requests whose body is still arriving than {@code arbor.api.max-body-requests}, or the memory their bodies may
	 * take ({@code arbor.api.request-memory}) stayed taken while one waited: nothing was read or written; retry after
	 * {@code Retry-After}.
	 */
	SERVER_BUSY(HttpStatus.SERVICE_UNAVAILABLE, "server-busy", "Server busy"),

	UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type"),

	/**
	 * A method or transfer coding the server does not implement ({@code CONNECT}, {@code Transfer-Encoding: gzip,
	 * chunked}): refused before the API sees it, as RFC 9110, section 15.6.2, asks. (Jetty refuses a last transfer
	 * coding other than chunked, {@code Transfer-Encoding: gzip}, as a malformed request: bad-request.)
	 */
	NOT_IMPLEMENTED(HttpStatus.NOT_IMPLEMENTED, "not-implemented", "Not implemented"),

	/** A request line of an HTTP version other than 1.0 and 1.1 ({@code HTTP/1.2}), refused by Jetty. */
	HTTP_VERSION_NOT_SUPPORTED(HttpStatus.HTTP_VERSION_NOT_SUPPORTED, "http-version-not-supported",
			"HTTP version not supported"),

	STORAGE_FAILURE(HttpStatus.INTERNAL_SERVER_ERROR, "storage-failure", "Storage failure"),

	INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "internal-error", "Internal error"),

	/**
	 * A 5xx status that no other type stands for, such as the 503 Jetty answers while it stops: not a failure
	 * inside Arbor ({@link #INTERNAL_ERROR}); the document's {@code status} is the response's.
	 */
	SERVER_ERROR(HttpStatus.INTERNAL_SERVER_ERROR, "server-error", "Server error");

	/** Where the types live; each type's URI is this plus its slug. */
	public static final String BASE_URI = "https://arbor.dev/problems/";

	private final HttpStatus status;

	private final URI type;

	private final String title;

	ProblemType(HttpStatus status, String slug, String title) {
		this.status = status;
		this.type = URI.create(BASE_URI + slug);
		this.title = title;
	}

	public HttpStatus status() {
		return this.status;
	}

	public URI type() {
		return this.type;
	}

	public String title() {
		return this.title;
	}

	public ProblemDetail create(String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(this.status, detail);
		problem.setType(this.type);
		problem.setTitle(this.title);
		return problem;
	}

	/**
	 * The type Spring's and Jetty's own errors of a status get (405, 406, 415, a missing parameter, a request line
	 * Jetty refuses …): the type that stands for that status, or, when none does, the type of its class, so that a
	 * document never names a type of another status (a 505 was an internal error, a 417 a bad request).
	 */
	public static ProblemType forStatus(int status) {
		return switch (status) {
			case 400 -> BAD_REQUEST;
			case 404 -> NOT_FOUND;
			case 405 -> METHOD_NOT_ALLOWED;
			case 406 -> NOT_ACCEPTABLE;
			case 408 -> REQUEST_TIMEOUT;
			case 413 -> REQUEST_TOO_LARGE;
			case 415 -> UNSUPPORTED_MEDIA_TYPE;
			case 500 -> INTERNAL_ERROR;
			case 501 -> NOT_IMPLEMENTED;
			case 505 -> HTTP_VERSION_NOT_SUPPORTED;
			default -> (status >= 500) ? SERVER_ERROR : CLIENT_ERROR;
		};
	}

}
