package dev.arbor.web;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.arbor.events.TooManyStreamsException;
import dev.arbor.operations.InvalidBranchEntryException;
import dev.arbor.operations.NavigationNotFoundException;
import dev.arbor.operations.NavigationRequestException;
import dev.arbor.operations.NoSummaryModelException;
import dev.arbor.operations.SummaryFailedException;
import dev.arbor.session.EntryNotFoundException;
import dev.arbor.session.Ids;
import dev.arbor.session.InvalidEntryException;
import dev.arbor.storage.AppendInFlightException;
import dev.arbor.storage.IdempotencyKeyException;
import dev.arbor.storage.InvalidRequestParameterException;
import dev.arbor.storage.InvalidSessionFileException;
import dev.arbor.storage.LeafMovedException;
import dev.arbor.storage.SessionExistsException;
import dev.arbor.storage.SessionLockedException;
import dev.arbor.storage.SessionNotFoundException;
import dev.arbor.storage.SessionTooLargeException;
import dev.arbor.storage.StorageException;
import dev.arbor.web.edge.NotUtf8Exception;
import dev.arbor.web.edge.ProblemType;
import dev.arbor.web.edge.QueryParameterException;
import dev.arbor.web.edge.RequestTimeoutException;
import dev.arbor.web.edge.RequestTooLargeException;
import dev.arbor.web.edge.ServerBusyException;
import dev.arbor.web.edge.UnauthorizedException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.eclipse.jetty.http.HttpException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.TypeMismatchException;
import org.springframework.context.MessageSourceResolvable;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.validation.FieldError;
import org.springframework.validation.method.ParameterErrors;
import org.springframework.validation.method.ParameterValidationResult;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;

/**
 * Every error as an RFC 9457 problem document with a stable {@code type} ({@link ProblemType}), the text the
 * docs give in {@code detail} (docs/API.md#errors-problem-documents) and, where the request named them,
 * {@code sessionId} and {@code entryId}. Spring's own errors (405, 415, a malformed body …) go through the same
 * mapping. Failures of Arbor itself are logged and answered without internals.
 */
@RestControllerAdvice
class ProblemDetailsAdvice extends ResponseEntityExceptionHandler {

	private static final Log log = LogFactory.getLog(ProblemDetailsAdvice.class);

	private static final String NUMBER_OUT_OF_RANGE = "The body holds a number that cannot be read: its exponent is beyond what Arbor keeps";

	@ExceptionHandler
	ResponseEntity<Object> sessionNotFound(SessionNotFoundException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.SESSION_NOT_FOUND.create(ex.getMessage());
		problem.setProperty("sessionId", ex.sessionId());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> entryNotFound(EntryNotFoundException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.ENTRY_NOT_FOUND.create(ex.getMessage());
		problem.setProperty("entryId", ex.entryId());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidEntry(InvalidEntryException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.INVALID_ENTRY.create(ex.getMessage());
		problem.setProperty("field", ex.field());
		return respond(problem, request);
	}

	/** 412 with the leaf as it is, in the body and as {@code ETag}, so the client can re-read and retry. */
	@ExceptionHandler
	ResponseEntity<Object> leafMoved(LeafMovedException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.LEAF_MOVED.create(ex.getMessage());
		problem.setProperty("sessionId", ex.sessionId());
		problem.setProperty("leafId", ex.actualLeafId());
		HttpHeaders headers = new HttpHeaders();
		headers.setETag(ETags.forLeaf(ex.actualLeafId()));
		return respond(problem, headers, request);
	}

	/**
	 * Bodies keep their decimals as {@code BigDecimal}; Jackson refuses an exponent beyond an {@code int}
	 * ({@code 1E+2147483648}) with a {@link NumberFormatException} that Spring, which translates only Jackson's own
	 * exceptions, lets through unwrapped. Any other one is a bug, and answered as such.
	 */
	@ExceptionHandler
	ResponseEntity<Object> numberOutOfRange(NumberFormatException ex, WebRequest request) {
		boolean fromJackson = Arrays.stream(ex.getStackTrace())
			.anyMatch(frame -> frame.getClassName().startsWith("tools.jackson."));
		if (!fromJackson) {
			return unexpected(ex, request);
		}
		return respond(ProblemType.MALFORMED_JSON.create(NUMBER_OUT_OF_RANGE), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> queryParameter(QueryParameterException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.INVALID_PARAMETER.create(ex.getMessage());
		problem.setProperty("parameter", ex.parameter());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> sessionTooLarge(SessionTooLargeException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.SESSION_TOO_LARGE.create(ex.getMessage());
		problem.setProperty("sessionId", ex.sessionId());
		problem.setProperty("limitBytes", ex.limitBytes());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> serverBusy(ServerBusyException ex, WebRequest request) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, "1");
		return respond(ProblemType.SERVER_BUSY.create(ex.getMessage()), headers, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> tooManyStreams(TooManyStreamsException ex, WebRequest request) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, "5");
		return respond(ProblemType.SERVER_BUSY.create(ex.getMessage()), headers, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> sessionExists(SessionExistsException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.SESSION_EXISTS.create(ex.getMessage());
		problem.setProperty("sessionId", ex.sessionId());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidSessionFile(InvalidSessionFileException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.INVALID_SESSION_FILE.create(ex.getMessage());
		if (!ex.malformedLines().isEmpty()) {
			problem.setProperty("malformedLines", ex.malformedLines());
		}
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> unauthorized(UnauthorizedException ex, WebRequest request) {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.WWW_AUTHENTICATE, ex.challenge());
		return respond(ProblemType.UNAUTHORIZED.create(ex.getMessage()), headers, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> noSummaryModel(NoSummaryModelException ex, WebRequest request) {
		return respond(ProblemType.NO_SUMMARY_MODEL.create(ex.getMessage()), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidBranchEntry(InvalidBranchEntryException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.INVALID_BRANCH_ENTRY.create(ex.getMessage());
		problem.setProperty("entryId", ex.entryId());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> summaryFailed(SummaryFailedException ex, WebRequest request) {
		log.warn(ex.getMessage(), ex.getCause());
		ProblemDetail problem = ProblemType.SUMMARY_FAILED.create(ex.getMessage() + "; nothing was changed");
		problem.setProperty("provider", ex.provider());
		return respond(problem, request);
	}

	/** 404 when no navigation runs under the {@code requestId}, 409 when one runs under it already. */
	@ExceptionHandler
	ResponseEntity<Object> navigationRequest(NavigationRequestException ex, WebRequest request) {
		ProblemType type = (ex instanceof NavigationNotFoundException) ? ProblemType.NAVIGATION_NOT_FOUND
				: ProblemType.NAVIGATION_IN_PROGRESS;
		ProblemDetail problem = type.create(ex.getMessage());
		problem.setProperty("requestId", ex.requestId());
		return respond(problem, request);
	}

	/** 422 for a key sent with another body, 409 while its first append runs (docs/API.md#idempotent-appends). */
	@ExceptionHandler
	ResponseEntity<Object> idempotencyKey(IdempotencyKeyException ex, WebRequest request) {
		ProblemType type = (ex instanceof AppendInFlightException) ? ProblemType.IDEMPOTENCY_KEY_IN_FLIGHT
				: ProblemType.IDEMPOTENCY_KEY_REUSED;
		ProblemDetail problem = type.create(ex.getMessage());
		problem.setProperty("sessionId", ex.sessionId());
		problem.setProperty("idempotencyKey", ex.key());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidIdempotencyKey(InvalidIdempotencyKeyException ex, WebRequest request) {
		return respond(ProblemType.INVALID_IDEMPOTENCY_KEY.create(ex.getMessage()), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidLastEventId(InvalidLastEventIdException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.INVALID_PARAMETER.create(ex.getMessage());
		problem.setProperty("parameter", "Last-Event-ID");
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> sessionLocked(SessionLockedException ex, WebRequest request) {
		return respond(ProblemType.SESSION_LOCKED.create(ex.getMessage()), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> storageFailure(StorageException ex, WebRequest request) {
		log.error(ex.getMessage(), ex);
		return respond(ProblemType.STORAGE_FAILURE.create(ex.getMessage() + "; nothing was changed"), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidParameter(InvalidRequestParameterException ex, WebRequest request) {
		ProblemDetail problem = ProblemType.INVALID_PARAMETER.create(ex.getMessage());
		problem.setProperty("parameter", ex.parameter());
		return respond(problem, request);
	}

	@ExceptionHandler
	ResponseEntity<Object> invalidIfMatch(InvalidIfMatchException ex, WebRequest request) {
		return respond(ProblemType.INVALID_IF_MATCH.create(ex.getMessage()), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> requestTooLarge(RequestTooLargeException ex, WebRequest request) {
		return respond(ProblemType.REQUEST_TOO_LARGE.create(ex.getMessage()), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> requestTimeout(RequestTimeoutException ex, WebRequest request) {
		return respond(ProblemType.REQUEST_TIMEOUT.create(ex.getMessage()), request);
	}

	/**
	 * Jetty decodes query parameters lazily, so a query that is not UTF-8 surfaces when a handler reads it, as one
	 * of Jetty's HTTP exceptions ("400: Bad query"; Arbor takes no form bodies, the other parameters Jetty decodes
	 * so).
	 */
	@ExceptionHandler({ HttpException.IllegalStateException.class, HttpException.IllegalArgumentException.class,
			HttpException.RuntimeException.class })
	ResponseEntity<Object> undecodableQuery(RuntimeException ex, WebRequest request) {
		return respond(ProblemType.INVALID_PARAMETER
			.create("The query string must be UTF-8, percent-encoded (RFC 3986); it could not be decoded"), request);
	}

	@ExceptionHandler
	ResponseEntity<Object> unexpected(Exception ex, WebRequest request) {
		log.error("Request failed: " + request.getDescription(false), ex);
		return respond(ProblemType.INTERNAL_ERROR.create("The request failed inside Arbor; the log says why"), request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		RequestTooLargeException tooLarge = cause(ex, RequestTooLargeException.class);
		if (tooLarge != null) {
			return requestTooLarge(tooLarge, request);
		}
		RequestTimeoutException timeout = cause(ex, RequestTimeoutException.class);
		if (timeout != null) {
			return requestTimeout(timeout, request);
		}
		NotUtf8Exception notUtf8 = cause(ex, NotUtf8Exception.class);
		if (notUtf8 != null) {
			return respond(ProblemType.MALFORMED_JSON.create(notUtf8.getMessage()), headers, request);
		}
		StreamReadException syntax = cause(ex, StreamReadException.class);
		if (syntax != null) {
			return respond(ProblemType.MALFORMED_JSON.create(JsonErrors.describe(syntax)), headers, request);
		}
		if (cause(ex, NumberFormatException.class) != null) { // BigDecimal's refusal in a field of a record, wrapped
			return respond(ProblemType.MALFORMED_JSON.create(NUMBER_OUT_OF_RANGE), headers, request);
		}
		DatabindException binding = cause(ex, DatabindException.class);
		if (binding != null && JsonErrors.isTrailingContent(binding)) {
			return respond(ProblemType.MALFORMED_JSON.create("The body holds more than one JSON value"), headers, request);
		}
		if (binding != null) {
			String field = JsonErrors.field(binding);
			ProblemDetail problem = ProblemType.INVALID_FIELD
				.create(((field != null) ? field : "The body") + " " + JsonErrors.describe(binding));
			problem.setProperty("field", field);
			return respond(problem, headers, request);
		}
		JacksonException limit = cause(ex, JacksonException.class); // such as a nesting deeper than the parser allows
		if (limit != null) {
			return respond(ProblemType.MALFORMED_JSON.create("The body cannot be read as JSON: " + limit.getOriginalMessage()),
					headers, request);
		}
		return respond(ProblemType.BAD_REQUEST.create("The request body is missing or unreadable"), headers, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		FieldError error = ex.getBindingResult().getFieldError();
		String field = (error != null) ? error.getField() : ex.getBindingResult().getObjectName();
		String message = (error != null) ? error.getDefaultMessage() : "is invalid";
		ProblemDetail problem = ProblemType.INVALID_FIELD.create(field + " " + message);
		problem.setProperty("field", field);
		return respond(problem, headers, request);
	}

	/**
	 * A path variable, query parameter or body field that failed its constraint; ids get their own type
	 * (docs/API.md#requests-and-responses: 400 for an id that is not one).
	 */
	@Override
	protected @Nullable ResponseEntity<Object> handleHandlerMethodValidationException(
			HandlerMethodValidationException ex, HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		ParameterValidationResult result = ex.getParameterValidationResults().get(0);
		String name = result.getMethodParameter().getParameterName();
		MessageSourceResolvable error = result.getResolvableErrors().get(0);
		String property = "parameter";
		if (result instanceof ParameterErrors errors && errors.getFieldError() != null) {
			FieldError fieldError = errors.getFieldError();
			name = fieldError.getField();
			error = fieldError;
			property = "field";
		}
		String[] codes = error.getCodes();
		boolean isId = codes != null && List.of(codes).contains("ValidId");
		ProblemType type = isId ? ProblemType.INVALID_ID
				: property.equals("field") ? ProblemType.INVALID_FIELD : ProblemType.INVALID_PARAMETER;
		ProblemDetail problem = type.create(name + " " + error.getDefaultMessage());
		problem.setProperty(property, name);
		return respond(problem, headers, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
			HttpStatusCode status, WebRequest request) {
		String parameter = (ex instanceof MethodArgumentTypeMismatchException mismatch) ? mismatch.getName()
				: ex.getPropertyName();
		// Arbor's editors explain what they expected; Spring's conversions only that they failed.
		Throwable reason = (ex.getCause() instanceof ConversionFailedException failed) ? failed.getCause() : ex.getCause();
		IllegalArgumentException explained = (reason instanceof IllegalArgumentException argument
				&& !(argument instanceof NumberFormatException)) ? argument : null;
		String expected = (ex.getRequiredType() != null) ? ex.getRequiredType().getSimpleName().toLowerCase() : "value";
		String detail = (explained != null) ? parameter + ": " + explained.getMessage()
				: parameter + " must be a valid " + expected;
		ProblemDetail problem = ProblemType.INVALID_PARAMETER.create(detail);
		problem.setProperty("parameter", parameter);
		return respond(problem, headers, request);
	}

	/** A body of a type the operation does not take: the detail and {@code accepted} say which it takes. */
	@Override
	protected @Nullable ResponseEntity<Object> handleHttpMediaTypeNotSupported(HttpMediaTypeNotSupportedException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		List<String> accepted = ex.getSupportedMediaTypes().stream().map(MediaType::toString).toList();
		if (accepted.isEmpty()) {
			return respond(ProblemType.UNSUPPORTED_MEDIA_TYPE.create(ex.getMessage()), headers, request);
		}
		String sent = (ex.getContentType() != null) ? "Content-Type " + ex.getContentType() : "A body without a Content-Type";
		ProblemDetail problem = ProblemType.UNSUPPORTED_MEDIA_TYPE
			.create(sent + " is not taken here; send the body as " + String.join(" or ", accepted));
		problem.setProperty("accepted", accepted);
		return respond(problem, headers, request);
	}

	@Override
	protected @Nullable ResponseEntity<Object> handleNoResourceFoundException(NoResourceFoundException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		return respond(ProblemType.NOT_FOUND.create("No endpoint " + ex.getHttpMethod() + " /" + ex.getResourcePath()),
				headers, request);
	}

	/** Spring's own errors: Arbor's type and title for their status, and the ids the path named. */
	@Override
	protected ResponseEntity<Object> createResponseEntity(@Nullable Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		if (body instanceof ProblemDetail problem
				&& (problem.getType() == null || "about:blank".equals(problem.getType().toString()))) {
			ProblemType type = ProblemType.forStatus(statusCode.value());
			problem.setType(type.type());
			problem.setTitle(type.title());
			addPathIds(problem, request);
		}
		return super.createResponseEntity(body, headers, statusCode, request);
	}

	private ResponseEntity<Object> respond(ProblemDetail problem, WebRequest request) {
		return respond(problem, new HttpHeaders(), request);
	}

	private ResponseEntity<Object> respond(ProblemDetail problem, HttpHeaders headers, WebRequest request) {
		addPathIds(problem, request);
		return ResponseEntity.status(problem.getStatus()).headers(headers).body(problem);
	}

	/** The session and entry the request's path named, when they are ids at all (a hostile path is not echoed). */
	private static void addPathIds(ProblemDetail problem, WebRequest request) {
		@SuppressWarnings("unchecked")
		Map<String, String> variables = (Map<String, String>) request
			.getAttribute(HandlerMapping.URI_TEMPLATE_VARIABLES_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
		if (variables == null) {
			return;
		}
		for (String name : List.of("sessionId", "entryId")) {
			String value = variables.get(name);
			Map<String, Object> properties = problem.getProperties();
			if (value != null && Ids.isValid(value) && (properties == null || !properties.containsKey(name))) {
				problem.setProperty(name, value);
			}
		}
	}

	private static <T extends Throwable> @Nullable T cause(Throwable ex, Class<T> type) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
		}
		return null;
	}

}
