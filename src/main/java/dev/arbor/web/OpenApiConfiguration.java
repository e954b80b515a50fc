package dev.arbor.web;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.arbor.session.ContextMessage;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import dev.arbor.storage.ExpectedLeaf;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.ResolvableType;
import org.springframework.http.HttpHeaders;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document ({@code /v3/api-docs}, committed as {@code openapi/openapi.yaml}). What every operation
 * shares is added here once: the {@code If-Match} header of mutations and the problem responses.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

	private static final String PROBLEM = "Problem";

	private static final String ENTRY = "Entry";

	private static final String ENTRY_DRAFT = "EntryDraft";

	static final String ENTRY_DRAFTS = "EntryDrafts";

	static final String APPENDED_ENTRIES = "AppendedEntries";

	private static final String SESSION_HEADER = "SessionHeader";

	private static final String CONTEXT_MESSAGE = "ContextMessage";

	private static final String API_KEY = "apiKey";

	private static final Map<String, String> ID_EXAMPLES = Map.of("sessionId", "019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f",
			"entryId", "b2c3d4e5", "requestId", "nav-1");

	private static final Map<String, String> ID_DESCRIPTIONS = Map.of("sessionId",
			"The session's id (the `id` of its header).", "entryId", "An entry's id.", "requestId",
			"The `requestId` the navigation was sent with.");

	static {
		// Stored JSON goes out as it is stored (StoredJsonModule): describe it as JSON, not as the Java classes.
		SpringDocUtils.getConfig()
			.replaceWithSchema(EntryLine.class, ref(ENTRY))
			.replaceWithSchema(SessionHeader.class, ref(SESSION_HEADER))
			.replaceWithSchema(ContextMessage.class, ref(CONTEXT_MESSAGE))
			.replaceWithSchema(JsonNode.class, new Schema<>().description("Any JSON value, kept as given."))
			.addRequestWrapperToIgnore(ExpectedLeaf.class);
	}

	@Bean
	OpenAPI arborOpenApi() {
		return new OpenAPI()
			.info(new Info().title("Arbor")
				.version("v1")
				.description("""
						Session trees of LLM coding agents over HTTP. A session is an append-only JSONL file whose \
						entries form a tree (`id`/`parentId`); a movable leaf marks the current position. Files stay \
						compatible with the pi and oh-my-pi coding agents.

						Every response that reflects a session carries `ETag: "<leafId>"` (`"root"` for a null leaf); \
						every mutation accepts `If-Match` with it and fails with 412, changing nothing, when the leaf \
						has moved. Errors are RFC 9457 problem documents.

						With `arbor.security.api-keys` set, every operation needs `Authorization: Bearer <key>` 						(401 otherwise); without it, the API is open.""")
				.license(new License().name("Behaviour: SESSION-TREE.md; contract: API.md")))
			.servers(List.of(new Server().url("/").description("This server")))
			.addSecurityItem(new SecurityRequirement().addList(API_KEY))
			.components(new Components()
				.addSecuritySchemes(API_KEY, new SecurityScheme().type(SecurityScheme.Type.HTTP)
					.scheme("bearer")
					.description("One of `arbor.security.api-keys`; needed only when keys are set. The event streams also take it as `?access_token=`, for EventSource."))
				.addSchemas(PROBLEM, problemSchema())
				.addSchemas(ENTRY, jsonObject("An entry exactly as stored: `type`, `id`, `parentId`, `timestamp` and the type's fields (SESSION-TREE.md 2.2), unknown fields included.",
						Map.of("type", "message", "id", "b2c3d4e5", "parentId", "a1b2c3d4", "timestamp",
								"2025-11-20T23:33:05.120Z", "message", Map.of("role", "user", "content", "Run the tests"))))
				.addSchemas(ENTRY_DRAFT, jsonObject("""
						An entry to append, without `id`, `parentId` and `timestamp` (Arbor assigns them); every other \
						field is stored as sent. Appendable types: message (a `message` object with a string `role`), \
						thinking_level_change, model_change, mode_change, ttsr_injection, compaction (`firstKeptEntryId` \
						on the current path), custom, custom_message, label (target must exist), session_init, \
						service_tier_change, title_change, credential_pin, reset_boundary (SESSION-TREE.md 2.2).""",
						Map.of("type", "message", "message", Map.of("role", "user", "content", "hi")))
					.addProperty("type", new StringSchema().description("The entry type.").example("message"))
					.addRequiredItem("type"))
				.addSchemas(ENTRY_DRAFTS, new Schema<>().description("One entry, or an array of them appended in order, all or nothing.")
					.oneOf(List.of(ref(ENTRY_DRAFT), new ArraySchema().items(ref(ENTRY_DRAFT)))))
				.addSchemas(APPENDED_ENTRIES, new Schema<>().description("The stored entry, or the array of them when an array was sent.")
					.oneOf(List.of(ref(ENTRY), new ArraySchema().items(ref(ENTRY)))))
				.addSchemas(SESSION_HEADER, jsonObject("The stored header: `type` \"session\", `version`, `id`, `timestamp`, `cwd` and any other field, kept verbatim.",
						Map.of("type", "session", "version", 3, "id", "019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f", "timestamp",
								"2025-11-20T23:33:01.550Z", "cwd", "/home/me/project")))
				.addSchemas(CONTEXT_MESSAGE, jsonObject("A message: a stored agent message as is, or one made from a summary or custom message (`role` compactionSummary, branchSummary, custom; user in the llm format). Timestamps are epoch milliseconds.",
						Map.of("role", "user", "content", "Run the tests", "timestamp", 1763681585120L))));
	}

	/**
	 * What operations share, decided from the handler method: ids in paths, the ETag of responses that reflect a
	 * session, If-Match on mutations, and the problem responses each can give.
	 */
	@Bean
	OperationCustomizer sharedParts() {
		return (Operation operation, HandlerMethod handler) -> {
			boolean conditional = List.of(handler.getMethod().getParameterTypes()).contains(ExpectedLeaf.class);
			boolean sessionPath = false;
			for (Parameter parameter : (operation.getParameters() != null) ? operation.getParameters() : List.<Parameter>of()) {
				if ("path".equals(parameter.getIn()) && ID_EXAMPLES.containsKey(parameter.getName())) {
					sessionPath |= "sessionId".equals(parameter.getName());
					parameter.description(ID_DESCRIPTIONS.get(parameter.getName())).example(ID_EXAMPLES.get(parameter.getName()));
				}
			}
			if (conditional) {
				operation.addParametersItem(new HeaderParameter().name(HttpHeaders.IF_MATCH)
					.description("Only if the leaf is still this one: `\"<leafId>\"` from an ETag (`\"root\"` for a null leaf), or `*`. Left out: whatever the leaf.")
					.schema(new StringSchema().example("\"c3d4e5f6\"")));
			}
			ApiResponses responses = operation.getResponses();
			Class<?> body = ResolvableType.forMethodReturnType(handler.getMethod()).getGeneric(0).resolve();
			// A stream is no state; a branch answers about the new session, and documents its ETag itself.
			boolean reflectsSession = (sessionPath && handler.getMethod().getReturnType() != SseEmitter.class
					&& body != BranchResponse.class) || body == SessionResponse.class;
			responses.forEach((status, response) -> {
				if (reflectsSession && status.startsWith("2") && !status.equals("204")) {
					response.addHeaderObject(HttpHeaders.ETAG, new Header().description("The session's leaf: `\"<leafId>\"`, `\"root\"` for a null leaf. Send it back as `If-Match`.")
						.schema(new StringSchema().example("\"c3d4e5f6\"")));
				}
				if (response.getContent() != null) {
					response.getContent().forEach((type, media) -> {
						if (type.equals(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE) && media.getSchema() == null) {
							media.schema(problemRef());
						}
					});
				}
			});
			addProblem(responses, "400", "Invalid id, parameter, JSON or entry; `type` says which, `detail` names the field.");
			addProblem(responses, "401", "API keys are set and the request has none, or a wrong one (`WWW-Authenticate: Bearer`); nothing changed.");
			if (sessionPath) {
				addProblem(responses, "404", "No such session (or entry).");
			}
			if (conditional) {
				addProblem(responses, "412", "The leaf moved since the `If-Match` tag was read; nothing changed. `ETag` is the leaf now.");
			}
			if (operation.getRequestBody() != null) {
				addProblem(responses, "413", "The body is larger than `arbor.api.max-request-bytes`.");
			}
			addProblem(responses, "500", "Arbor could not read or write the session; nothing was changed.");
			return operation;
		};
	}

	private static void addProblem(ApiResponses responses, String status, String description) {
		if (!responses.containsKey(status)) {
			responses.addApiResponse(status, new ApiResponse().description(description)
				.content(new Content().addMediaType(org.springframework.http.MediaType.APPLICATION_PROBLEM_JSON_VALUE,
						new MediaType().schema(problemRef()))));
		}
	}

	private static Schema<?> problemRef() {
		return ref(PROBLEM);
	}

	private static Schema<?> ref(String component) {
		return new Schema<>().$ref("#/components/schemas/" + component);
	}

	private static Schema<Object> jsonObject(String description, Map<String, Object> example) {
		Schema<Object> schema = new Schema<>();
		return schema.types(Set.of("object")).description(description).example(new TreeMap<>(example));
	}

	private static Schema<?> problemSchema() {
		return new ObjectSchema().description("An RFC 9457 problem document.")
			.addProperty("type", new StringSchema().format("uri")
				.description("What went wrong, stable: " + ProblemType.BASE_URI + "<kind>, such as `session-not-found`, `invalid-entry`, `leaf-moved`.")
				.example(ProblemType.BASE_URI + "entry-not-found"))
			.addProperty("title", new StringSchema().description("A short name of the type.").example("Entry not found"))
			.addProperty("status", new IntegerSchema().description("The HTTP status.").example(404))
			.addProperty("detail", new StringSchema().description("The spec's text for the error, naming the field or id at fault.")
				.example("Entry 1a2b3c4d not found"))
			.addProperty("instance", new StringSchema().format("uri").description("The request's path.").example("/sessions/019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f/entries/1a2b3c4d"))
			.addProperty("sessionId", new StringSchema().description("The session the request named.")
				.example("019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f"))
			.addProperty("entryId", new StringSchema().description("The entry the request named.").example("1a2b3c4d"))
			.addProperty("field", new StringSchema().description("The field at fault, as a path such as `message.role` or `[2].type`.")
				.example("message.role"))
			.addProperty("parameter", new StringSchema().description("The path variable or query parameter at fault.")
				.example("sessionId"))
			.addProperty("leafId", new StringSchema().description("With 412: the leaf as it is now.").example("c3d4e5f6"));
	}

}
