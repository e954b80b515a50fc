package dev.arbor.web;

import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * What a client did wrong in a JSON body, in its own terms: the field as a path ({@code message.role},
 * {@code [2].type}) and the JSON type expected, never a Java class name.
 */
final class JsonErrors {

	private JsonErrors() {
	}

	/** The field at fault as a path; {@code null} when it is the body itself. */
	static @Nullable String field(DatabindException ex) {
		List<JacksonException.Reference> path = ex.getPath();
		if (path.isEmpty()) {
			return null;
		}
		StringBuilder field = new StringBuilder();
		for (JacksonException.Reference reference : path) {
			if (reference.getPropertyName() != null) {
				field.append((field.length() > 0) ? "." : "").append(reference.getPropertyName());
			}
			else if (reference.getIndex() >= 0) {
				field.append('[').append(reference.getIndex()).append(']');
			}
		}
		return field.toString();
	}

	/** Whether the body held a second JSON value after the first ({@code FAIL_ON_TRAILING_TOKENS}). */
	static boolean isTrailingContent(DatabindException ex) {
		return ex.getOriginalMessage().startsWith("Trailing token");
	}

	/** What is wrong with the value, to follow its field's name. */
	static String describe(DatabindException ex) {
		if (ex.getOriginalMessage().startsWith("Missing required creator property")) {
			return "is required";
		}
		if (ex instanceof UnrecognizedPropertyException unknown) {
			List<String> known = unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
			return "is not a field of this body" + (known.isEmpty() ? "" : " (it takes " + String.join(", ", known) + ")");
		}
		if (ex instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
			return "must be " + jsonType(mismatch.getTargetType());
		}
		return "is invalid";
	}

	/** Where the text stops being JSON, and why. */
	static String describe(StreamReadException ex) {
		TokenStreamLocation location = ex.getLocation();
		String where = (location != null && location.getLineNr() > 0)
				? " at line " + location.getLineNr() + ", column " + location.getColumnNr() : "";
		return "The body is not valid JSON" + where + ": " + ex.getOriginalMessage();
	}

	private static String jsonType(Class<?> type) {
		if (type == String.class || type == Character.class || type == char.class) {
			return "a string";
		}
		if (type == Boolean.class || type == boolean.class) {
			return "true or false";
		}
		if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
			return "a number";
		}
		if (Collection.class.isAssignableFrom(type) || type.isArray()) {
			return "an array";
		}
		if (JsonNode.class.isAssignableFrom(type)) {
			return "JSON";
		}
		return "an object";
	}

}
