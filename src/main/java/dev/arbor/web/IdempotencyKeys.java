package dev.arbor.web;

import dev.arbor.storage.Appended;
import dev.arbor.storage.IdempotencyKey;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * Gives a controller method the {@link IdempotencyKey} of its request's {@code Idempotency-Key} header, or
 * {@code null} without one (docs/API.md#idempotent-appends). The key may come bare ({@code Idempotency-Key: abc}, as
 * Stripe's clients send it) or as the structured-field string the IETF draft "The Idempotency-Key HTTP Header Field"
 * writes ({@code Idempotency-Key: "abc"}); the same key either way.
 */
class IdempotencyKeys implements HandlerMethodArgumentResolver {

	static final String HEADER = "Idempotency-Key";

	/** The header of an answer replayed from an earlier request under the key: Stripe's name for it. */
	static final String REPLAYED = "Idempotent-Replayed";

	/** What a client is told when its key is refused: what a key is, so that it can send one. */
	static final String RULE = "Idempotency-Key must be one key of 1 to " + IdempotencyKey.MAX_LENGTH
			+ " letters, digits and ._~:+/=- (a UUID, say), bare or in double quotes, in one header";

	@Override
	public boolean supportsParameter(MethodParameter parameter) {
		return parameter.getParameterType() == IdempotencyKey.class;
	}

	@Override
	public @Nullable IdempotencyKey resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
			NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
		return parse(webRequest.getHeaderValues(HEADER));
	}

	/** The answer's headers so far, marked as a replay when it is one. */
	static <B extends ResponseEntity.HeadersBuilder<B>> B marked(B response, Appended appended) {
		return appended.replayed() ? response.header(REPLAYED, "true") : response;
	}

	/** The key of the header's lines, {@code null} for none; several lines are several keys, which is refused. */
	static @Nullable IdempotencyKey parse(String @Nullable [] lines) {
		if (lines == null || lines.length == 0) {
			return null;
		}
		if (lines.length > 1) {
			throw new InvalidIdempotencyKeyException();
		}
		String value = lines[0].strip();
		if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
			value = value.substring(1, value.length() - 1); // no escapes to undo: a key holds no quote or backslash
		}
		if (!IdempotencyKey.isValid(value)) {
			throw new InvalidIdempotencyKeyException();
		}
		return new IdempotencyKey(value);
	}

}
