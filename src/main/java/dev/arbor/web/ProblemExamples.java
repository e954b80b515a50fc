package dev.arbor.web;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.arbor.web.edge.ProblemType;
import io.swagger.v3.oas.models.examples.Example;
import org.jspecify.annotations.Nullable;

/**
 * An example problem document for each type the OpenAPI document lists, as Arbor answers it, so that each error
 * response shows its own status, type and detail. They live once under {@code components/examples}, named by the
 * type's last path segment ({@code session-not-found}); responses refer to them.
 */
final class ProblemExamples {

	private static final String SESSION = "/sessions/" + OpenApiConfiguration.SESSION_ID;

	private static final String ID_RULE = "must be an id of 1 to 128 letters, digits and _.:- starting with a letter or digit";

	private ProblemExamples() {
	}

	/** The examples of every type that has one, by name. */
	static Map<String, Example> all() {
		Map<String, Example> examples = new LinkedHashMap<>();
		for (ProblemType type : ProblemType.values()) {
			Map<String, Object> value = value(type);
			if (value != null) {
				examples.put(name(type), new Example().summary(type.title()).value(value));
			}
		}
		return examples;
	}

	/** A reference to the type's example. */
	static Example ref(ProblemType type) {
		return new Example().$ref("#/components/examples/" + name(type));
	}

	static String name(ProblemType type) {
		return type.type().toString().substring(ProblemType.BASE_URI.length());
	}

	private static @Nullable Map<String, Object> value(ProblemType type) {
		return switch (type) {
			case INVALID_ID -> problem(type, "sessionId " + ID_RULE, "/sessions/my%20session", "parameter", "sessionId");
			case INVALID_PARAMETER -> problem(type, "limit must be greater than or equal to 1", SESSION + "/entries",
					"parameter", "limit");
			case MALFORMED_JSON -> problem(type, "The body is not valid JSON at line 1, column 18", SESSION + "/leaf");
			case INVALID_FIELD -> problem(type, "entryId must be a string", SESSION + "/leaf", "field", "entryId");
			case INVALID_ENTRY -> problem(type, "message.role must be a string", SESSION + "/entries", "field",
					"message.role");
			case INVALID_IF_MATCH -> problem(type,
					"If-Match must hold entity tags such as \"<leafId>\" (\"root\" for an empty leaf), or *", SESSION + "/leaf");
			case INVALID_IDEMPOTENCY_KEY -> problem(type, IdempotencyKeys.RULE, SESSION + "/entries");
			case IDEMPOTENCY_KEY_IN_FLIGHT -> problem(type, "An append under Idempotency-Key 5c0f3e2a-retry to session "
					+ OpenApiConfiguration.SESSION_ID + " is still running; retry once it has been answered",
					SESSION + "/entries", "idempotencyKey", "5c0f3e2a-retry");
			case IDEMPOTENCY_KEY_REUSED -> problem(type, "Idempotency-Key 5c0f3e2a-retry was used on session "
					+ OpenApiConfiguration.SESSION_ID
					+ " for a different request body; send a new key for a new append, or the same body to retry",
					SESSION + "/entries", "idempotencyKey", "5c0f3e2a-retry");
			case INVALID_SESSION_FILE -> problem(type,
					"Not a session file (line 1 is not a session header with a string id): the uploaded file",
					"/sessions/import");
			case UNAUTHORIZED -> problem(type, "This API needs a key: send Authorization: Bearer <key>", SESSION);
			case SESSION_NOT_FOUND -> problem(type, "Session " + OpenApiConfiguration.SESSION_ID + " not found", SESSION,
					"sessionId", OpenApiConfiguration.SESSION_ID);
			case ENTRY_NOT_FOUND -> problem(type, "Entry 9f8e7d6c not found", SESSION + "/entries/9f8e7d6c", "entryId",
					"9f8e7d6c");
			case NAVIGATION_NOT_FOUND -> problem(type, "No navigation with requestId nav-1 is in flight",
					SESSION + "/navigations/nav-1", "requestId", "nav-1");
			case NAVIGATION_IN_PROGRESS -> problem(type, "A navigation with requestId nav-1 is in flight already",
					SESSION + "/navigate", "requestId", "nav-1");
			case SESSION_EXISTS -> problem(type, "Session " + OpenApiConfiguration.SESSION_ID + " already exists",
					"/sessions/import", "sessionId", OpenApiConfiguration.SESSION_ID);
			case LEAF_MOVED -> problem(type, "The leaf of session " + OpenApiConfiguration.SESSION_ID
					+ " is d4e5f6a7, not c3d4e5f6", SESSION + "/leaf", "leafId", "d4e5f6a7");
			case REQUEST_TOO_LARGE -> problem(type, "The request body is larger than the limit of 16777216 bytes",
					SESSION + "/entries");
			case NO_SUMMARY_MODEL -> problem(type, "No model available for summarization", SESSION + "/navigate");
			case INVALID_BRANCH_ENTRY -> problem(type, "Invalid entry ID for branching: b2c3d4e5 is a message of role "
					+ "assistant, and /branch starts from a user message, whose text goes back to the editor; to copy the path "
					+ "up to any entry into a new session, POST its id as leafId to /sessions/{sessionId}/branched-sessions",
					SESSION + "/branch",
					"entryId", "b2c3d4e5");
			case SUMMARY_FAILED -> problem(type,
					"The summary model (openai) failed: no summary within 5m; nothing was changed", SESSION + "/navigate",
					"provider", "openai");
			case STORAGE_FAILURE -> problem(type, "Could not write session " + OpenApiConfiguration.SESSION_ID + "; nothing was changed", SESSION + "/entries");
			case SERVER_BUSY -> problem(type, "The server has its most event streams open (arbor.events.max-streams is "
					+ "6553): retry after Retry-After, or close streams you no longer read", SESSION + "/events");
			default -> null;
		};
	}

	private static Map<String, Object> problem(ProblemType type, String detail, String instance,
			String... properties) {
		Map<String, Object> value = new LinkedHashMap<>();
		value.put("type", type.type().toString());
		value.put("title", type.title());
		value.put("status", type.status().value());
		value.put("detail", detail);
		value.put("instance", instance);
		for (int i = 0; i < properties.length; i += 2) {
			value.put(properties[i], properties[i + 1]);
		}
		return value;
	}

}
