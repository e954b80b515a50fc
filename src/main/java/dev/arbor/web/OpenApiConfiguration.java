package dev.arbor.web;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.arbor.config.ArborProperties;
import dev.arbor.session.ContextMessage;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import dev.arbor.storage.ExpectedLeaf;
import dev.arbor.storage.IdempotencyKey;
import dev.arbor.web.edge.ProblemType;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.ArraySchema;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.MethodParameter;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document ({@code /v3/api-docs}, committed as {@code openapi/openapi.yaml}). What every operation
 * shares is added here once: the {@code If-Match} header of mutations, the problem responses with an example of each
 * type, and, only where API keys are set, the bearer scheme.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

	/** The session every example refers to: the one the import example creates. */
	static final String SESSION_ID = "019a9f3e-7b2c-7d4e-8f10-2a3b4c5d6e7f";

	static final String ENTRY_DRAFTS = "EntryDrafts";

	static final String APPENDED_ENTRIES = "AppendedEntries";

	static final String PROBLEM = "Problem";

	private static final String ENTRY = "Entry";

	private static final String ENTRY_DRAFT = "EntryDraft";

	private static final String SESSION_HEADER = "SessionHeader";

	private static final String CONTEXT_MESSAGE = "ContextMessage";

	private static final String API_KEY = "apiKey";

	static {
		// Stored JSON goes out as it is stored (StoredJsonModule): describe it as JSON, not as the Java classes.
		SpringDocUtils.getConfig()
			.replaceWithSchema(EntryLine.class, ref(ENTRY))
			.replaceWithSchema(SessionHeader.class, ref(SESSION_HEADER))
			.replaceWithSchema(ContextMessage.class, ref(CONTEXT_MESSAGE))
			.replaceWithSchema(JsonNode.class, new Schema<>().description("Any JSON value, kept as given."))
			.addRequestWrapperToIgnore(ExpectedLeaf.class, IdempotencyKey.class);
	}

	@Bean
	OpenAPI arborOpenApi(ArborProperties properties) {
		OpenAPI document = new OpenAPI()
			.info(new Info().title("Arbor")
				.version("v1")
				.description("""
						Session trees of LLM coding agents over HTTP. A session is an append-only JSONL file whose \
						entries form a tree (`id`/`parentId`); a movable leaf marks the current position. Files stay \
						compatible with the pi and oh-my-pi coding agents.

						Every response that reflects a session carries `ETag: "<leafId>"` (`"root"` for a null leaf); \
						every mutation accepts `If-Match` with it and fails with 412, changing nothing, when the leaf \
						has moved. Errors are RFC 9457 problem documents.

						The examples work on each other: import the example session first (`POST /sessions/import`), \
						and every other example finds the session and entries it names.

						With `arbor.security.api-keys` set, every operation needs `Authorization: Bearer <key>` \
						(401 otherwise); without it, the API is open."""))
			.servers(List.of(new Server().url("/").description("This server")))
			.components(new Components().examples(new TreeMap<>(ProblemExamples.all()))
				.addSchemas(PROBLEM, problemSchema())
				.addSchemas(ENTRY, storedJson("An entry exactly as stored: `type`, `id`, `parentId`, `timestamp` and the type's fields, unknown fields included.",
						Map.of("type", "message", "id", "b2c3d4e5", "parentId", "a1b2c3d4", "timestamp",
								"2025-11-20T23:33:05.120Z", "message", Map.of("role", "user", "content", "Run the tests")),
						"type", "The entry type.", "id", "The entry's id."))
				.addSchemas(ENTRY_DRAFT, storedJson("""
						An entry to append, without `id`, `parentId` and `timestamp` (Arbor assigns them); every other \
						field is stored as sent. Appendable types: message (a `message` object with a string `role`), \
						thinking_level_change, model_change, mode_change, ttsr_injection, compaction (`firstKeptEntryId` \
						on the current path), custom, custom_message, label (target must exist), session_init, \
						service_tier_change, title_change, credential_pin, reset_boundary.""",
						Map.of("type", "message", "message", Map.of("role", "user", "content", "hi")), "type",
						"The entry type."))
				.addSchemas(ENTRY_DRAFTS, oneOf("One entry, or an array of them appended in order, all or nothing.",
						ENTRY_DRAFT))
				.addSchemas(APPENDED_ENTRIES, oneOf("The stored entry, or the array of them when an array was sent.",
						ENTRY))
				.addSchemas(SESSION_HEADER, storedJson("The stored header: `type` \"session\", `version`, `id`, `timestamp`, `cwd` and any other field, kept verbatim.",
						Map.of("type", "session", "version", 3, "id", SESSION_ID, "timestamp",
								"2025-11-20T23:33:01.550Z", "cwd", "/home/me/project"),
						"type", "Always `session`.", "id", "The session id."))
				.addSchemas(CONTEXT_MESSAGE, storedJson("A message: a stored agent message as is, or one made from a summary or custom message (`role` compactionSummary, branchSummary, custom; user in the llm format). Timestamps are epoch milliseconds.",
						Map.of("role", "user", "content", "Run the tests", "timestamp", 1763681585120L), "role",
						"Who speaks: user, assistant, toolResult, …")));
		if (!properties.security().keys().isEmpty()) {
			// Only then: without keys, Swagger UI's Authorize button and lock icons would promise a check that is not made.
			document.addSecurityItem(new SecurityRequirement().addList(API_KEY))
				.getComponents()
				.addSecuritySchemes(API_KEY, new SecurityScheme().type(SecurityScheme.Type.HTTP)
					.scheme("bearer")
					.description("One of `arbor.security.api-keys`. The event streams also take it as `?access_token=`, for EventSource."));
		}
		return document;
	}

	/** Which records the API reads, so that {@link RecordSchemas} tells them from those it writes. */
	@Bean
	RecordSchemas recordSchemas(
			@Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> handlers) {
		return new RecordSchemas(SingletonSupplier.of(() -> {
			Set<Class<?>> bodies = new HashSet<>();
			for (HandlerMethod handler : handlers.getObject().getHandlerMethods().values()) {
				for (MethodParameter parameter : handler.getMethodParameters()) {
					if (parameter.hasParameterAnnotation(RequestBody.class)) {
						bodies.add(parameter.getParameterType());
					}
				}
			}
			return bodies;
		}));
	}

	@Bean
	OperationCustomizer sharedParts() {
		return new SharedOperationParts();
	}

	static Schema<?> ref(String component) {
		return new Schema<>().$ref("#/components/schemas/" + component);
	}

	private static Schema<?> oneOf(String description, String component) {
		Schema<?> schema = new Schema<>().description(description);
		schema.setOneOf(List.of(ref(component), new ArraySchema().items(ref(component))));
		return schema;
	}

	/**
	 * Stored JSON: an object with whatever fields were stored. The string fields named (name, description, name, …)
	 * are always there; their examples come from the object's.
	 */
	private static Schema<?> storedJson(String description, Map<String, Object> example, String... always) {
		Schema<?> schema = new Schema<>().types(Set.of("object")).description(description);
		schema.setExample(new TreeMap<>(example));
		schema.setAdditionalProperties(true);
		for (int i = 0; i < always.length; i += 2) {
			schema.addProperty(always[i], new StringSchema().description(always[i + 1]).example(example.get(always[i])));
			schema.addRequiredItem(always[i]);
		}
		return schema;
	}

	private static Schema<?> problemSchema() {
		Schema<?> problem = new ObjectSchema().description("An RFC 9457 problem document. Each error response shows an example of each type it may have.")
			.addProperty("type", new StringSchema().format("uri")
				.description("What went wrong, stable: " + ProblemType.BASE_URI + "<kind>, such as `session-not-found`, `invalid-entry`, `leaf-moved`.")
				.example(ProblemType.BASE_URI + "session-not-found"))
			.addProperty("title", new StringSchema().description("A short name of the type.").example("Session not found"))
			.addProperty("status", new IntegerSchema().description("The HTTP status.").example(404))
			.addProperty("detail", new StringSchema().description("What went wrong in this request, naming the field or id at fault.")
				.example("Session " + SESSION_ID + " not found"))
			.addProperty("instance", new StringSchema().format("uri").description("The request's path.").example("/sessions/" + SESSION_ID))
			.addProperty("sessionId", new StringSchema().description("The session the request named.").example(SESSION_ID))
			.addProperty("entryId", new StringSchema().description("The entry the request named.").example("9f8e7d6c"))
			.addProperty("field", new StringSchema().description("The field at fault, as a path such as `message.role` or `[2].type`.")
				.example("message.role"))
			.addProperty("parameter", new StringSchema().description("The path variable, query parameter or header at fault.")
				.example("sessionId"))
			.addProperty("leafId", new StringSchema().description("With 412: the leaf as it is now.").example("d4e5f6a7"))
			.addProperty("requestId", new StringSchema().description("The navigation's `requestId`.").example("nav-1"))
			.addProperty("provider", new StringSchema().description("With 502: the summary model's provider.").example("openai"));
		problem.setRequired(List.of("type", "title", "status"));
		return problem;
	}

}
