package dev.arbor.web;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import dev.arbor.web.edge.ProblemType;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.examples.Example;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.method.HandlerMethod;

/**
 * What operations share, decided from the handler method: ids in paths, the ETag of responses that reflect a
 * session, {@code If-Match} on mutations, {@code Idempotency-Key} on appends, and the problem responses each can give, each with an example of every
 * type it may have ({@link ProblemExamples}); {@link ProblemResponse} adds an operation's own.
 */
class SharedOperationParts implements OperationCustomizer {

	private static final String PROBLEM_JSON = org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE;

	private static final Map<String, String> ID_EXAMPLES = Map.of("sessionId", OpenApiConfiguration.SESSION_ID,
			"entryId", "b2c3d4e5", "requestId", "nav-1");

	private static final Map<String, String> ID_DESCRIPTIONS = Map.of("sessionId",
			"The session's id (the `id` of its header).", "entryId", "An entry's id.", "requestId",
			"The `requestId` the navigation was sent with.");

	@Override
	public Operation customize(Operation operation, HandlerMethod handler) {
		Method method = handler.getMethod();
		boolean conditional = List.of(method.getParameterTypes()).contains(ExpectedLeaf.class);
		boolean keyed = List.of(method.getParameterTypes()).contains(IdempotencyKey.class);
		boolean ids = false;
		boolean sessionPath = false;
		boolean entryIds = false;
		boolean otherParameters = false;
		for (Parameter parameter : (operation.getParameters() != null) ? operation.getParameters() : List.<Parameter>of()) {
			boolean path = "path".equals(parameter.getIn());
			if (path && ID_EXAMPLES.containsKey(parameter.getName())) {
				parameter.description(ID_DESCRIPTIONS.get(parameter.getName())).example(ID_EXAMPLES.get(parameter.getName()));
			}
			ids |= path;
			sessionPath |= path && "sessionId".equals(parameter.getName());
			// an id in the path or the query (ids are patterned) names an entry that may not exist
			entryIds |= "entryId".equals(parameter.getName())
					|| (!path && parameter.getSchema() != null && parameter.getSchema().getPattern() != null);
			otherParameters |= !path;
		}
		if (conditional) {
			// No example: Swagger UI would fill it in, and every try of a mutation would then fail with 412.
			operation.addParametersItem(new HeaderParameter().name(HttpHeaders.IF_MATCH)
				.description("Optional. Only if the leaf is still this one: `\"<leafId>\"` as the `ETag` of a read gave it, quotes included (`\"root\"` for a null leaf), or `*`. Left out, the change applies whatever the leaf.")
				.schema(new StringSchema()));
		}
		if (keyed) {
			// No example either: a tried example would be a key used twice.
			operation.addParametersItem(new HeaderParameter().name(IdempotencyKeys.HEADER)
				.description("Optional. Your name for this append, unique per append (a UUID, say): a retry with the same key and body answers what the first attempt stored, with `" + IdempotencyKeys.REPLAYED + ": true`, and writes nothing again. 1 to 255 letters, digits and `._~:+/=-`, bare or in double quotes.")
				.schema(new StringSchema().maxLength(IdempotencyKey.MAX_LENGTH)));
		}
		String body = requestBodyType(operation);
		boolean drafts = body != null && operation.getRequestBody().getContent().get(body).getSchema() != null
				&& ("#/components/schemas/" + OpenApiConfiguration.ENTRY_DRAFTS)
					.equals(operation.getRequestBody().getContent().get(body).getSchema().get$ref());
		// every JSON body of a session's operation names entries, except the drafts of an append
		entryIds |= org.springframework.http.MediaType.APPLICATION_JSON_VALUE.equals(body) && !drafts;
		ApiResponses responses = operation.getResponses();
		if (reflectsSession(method, sessionPath)) {
			responses.forEach((status, response) -> {
				if (status.startsWith("2") && !status.equals("204")) {
					response.addHeaderObject(HttpHeaders.ETAG, new Header().description("The session's leaf: `\"<leafId>\"`, `\"root\"` for a null leaf. Send it back as `If-Match`.")
						.schema(new StringSchema().example("\"c3d4e5f6\"")));
				}
			});
		}
		for (ProblemResponse problem : method.getAnnotationsByType(ProblemResponse.class)) {
			addProblem(responses, problem.description(), List.of(problem.type()));
		}
		List<ProblemType> invalid = new ArrayList<>();
		if (ids) {
			invalid.add(ProblemType.INVALID_ID);
		}
		if (otherParameters) {
			invalid.add(ProblemType.INVALID_PARAMETER);
		}
		if (org.springframework.http.MediaType.APPLICATION_JSON_VALUE.equals(body)) {
			invalid.add(ProblemType.MALFORMED_JSON);
			invalid.add(drafts ? ProblemType.INVALID_ENTRY : ProblemType.INVALID_FIELD);
		}
		else if (body != null) {
			invalid.add(ProblemType.INVALID_SESSION_FILE);
		}
		if (conditional) {
			invalid.add(ProblemType.INVALID_IF_MATCH);
		}
		if (keyed) {
			invalid.add(ProblemType.INVALID_IDEMPOTENCY_KEY);
		}
		if (!invalid.isEmpty()) {
			addProblem(responses, "Invalid id, parameter, JSON or entry; `type` says which, `detail` names the field.", invalid);
		}
		addProblem(responses, "API keys are set and the request has none, or a wrong one (`WWW-Authenticate: Bearer`); nothing changed.",
				List.of(ProblemType.UNAUTHORIZED));
		if (sessionPath && entryIds) {
			addProblem(responses, "No such session, or no such entry in it.",
					List.of(ProblemType.SESSION_NOT_FOUND, ProblemType.ENTRY_NOT_FOUND));
		}
		else if (sessionPath) {
			addProblem(responses, "No such session.", List.of(ProblemType.SESSION_NOT_FOUND));
		}
		if (conditional) {
			addProblem(responses, "The leaf moved since the `If-Match` tag was read; nothing changed. `ETag` is the leaf now.",
					List.of(ProblemType.LEAF_MOVED));
		}
		if (keyed) {
			responses.forEach((status, response) -> {
				if (status.startsWith("2")) {
					response.addHeaderObject(IdempotencyKeys.REPLAYED, new Header().description("`true` when a request earlier under the same `Idempotency-Key` stored this; nothing was written now.")
						.schema(new StringSchema().example("true")));
				}
			});
			addProblem(responses, "An append under the same `Idempotency-Key` is still running; nothing was written. Retry once it has been answered.",
					List.of(ProblemType.IDEMPOTENCY_KEY_IN_FLIGHT));
			addProblem(responses, "The `Idempotency-Key` was sent on this session with another body; nothing was written. Use a new key for a new append.",
					List.of(ProblemType.IDEMPOTENCY_KEY_REUSED));
		}
		if (body != null) {
			addProblem(responses, "The body is larger than `arbor.api.max-request-bytes`.", List.of(ProblemType.REQUEST_TOO_LARGE));
		}
		addProblem(responses, "Arbor could not read or write the session; nothing was changed.",
				List.of(ProblemType.STORAGE_FAILURE));
		return operation;
	}

	/**
	 * Whether its success carries the session's ETag: a stream is no state, a branch documents its own, and a lineage
	 * changes with other sessions.
	 */
	private static boolean reflectsSession(Method method, boolean sessionPath) {
		if (method.getReturnType() == LineageResponse.class) {
			return false;
		}
		Class<?> body = ResolvableType.forMethodReturnType(method).getGeneric(0).resolve();
		return (sessionPath && !streams(method) && body != BranchResponse.class) || body == SessionResponse.class;
	}

	private static boolean streams(Method method) {
		RequestMapping mapping = AnnotatedElementUtils.findMergedAnnotation(method, RequestMapping.class);
		return mapping != null
				&& Arrays.asList(mapping.produces()).contains(org.springframework.http.MediaType.TEXT_EVENT_STREAM_VALUE);
	}

	private static @Nullable String requestBodyType(Operation operation) {
		if (operation.getRequestBody() == null || operation.getRequestBody().getContent() == null) {
			return null;
		}
		return operation.getRequestBody().getContent().keySet().iterator().next();
	}

	/** Adds the response of these types' status with an example of each, unless the operation documents it. */
	private static void addProblem(ApiResponses responses, String description, List<ProblemType> types) {
		String status = Integer.toString(types.get(0).status().value());
		if (!responses.containsKey(status)) {
			responses.addApiResponse(status, new ApiResponse().description(description)
				.content(new Content().addMediaType(PROBLEM_JSON, new MediaType())));
		}
		MediaType media = (responses.get(status).getContent() != null)
				? responses.get(status).getContent().get(PROBLEM_JSON) : null;
		if (media != null && media.getExamples() == null) {
			media.schema(OpenApiConfiguration.ref(OpenApiConfiguration.PROBLEM)).examples(examples(types));
		}
	}

	private static Map<String, Example> examples(List<ProblemType> types) {
		Map<String, Example> examples = new LinkedHashMap<>();
		for (ProblemType type : types) {
			examples.put(ProblemExamples.name(type), ProblemExamples.ref(type));
		}
		return examples;
	}

}
