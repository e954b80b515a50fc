package dev.arbor.web;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One operation (path and method) of the OpenAPI document the running application serves, with its parameters and
 * its request body's media type and schema, {@code $ref}s resolved.
 *
 * @param id the operationId
 * @param method the method, upper case
 * @param path the path template, {@code {sessionId}} and the like in it
 * @param parameters the declared parameters
 * @param mediaType the request body's media type, {@code null} without a body
 * @param schema the request body's schema, {@code null} without a body
 */
record ApiOperation(String id, String method, String path, List<Parameter> parameters, @Nullable String mediaType,
		@Nullable JsonNode schema) {

	/** Every operation of the document, in the document's order. */
	static List<ApiOperation> all(JsonNode document) {
		List<ApiOperation> operations = new ArrayList<>();
		for (Map.Entry<String, JsonNode> path : document.get("paths").properties()) {
			for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
				JsonNode operation = method.getValue();
				List<Parameter> parameters = new ArrayList<>();
				for (JsonNode parameter : operation.path("parameters")) {
					parameters.add(new Parameter(parameter.get("in").asString(), parameter.get("name").asString(),
							resolve(document, parameter.path("schema"))));
				}
				String mediaType = null;
				JsonNode schema = null;
				Iterator<Map.Entry<String, JsonNode>> content = operation.path("requestBody")
					.path("content")
					.properties()
					.iterator();
				if (content.hasNext()) {
					Map.Entry<String, JsonNode> first = content.next();
					mediaType = first.getKey();
					schema = resolve(document, first.getValue().path("schema"));
				}
				operations.add(new ApiOperation(operation.get("operationId").asString(),
						method.getKey().toUpperCase(Locale.ROOT), path.getKey(), parameters, mediaType, schema));
			}
		}
		return operations;
	}

	/** The schema with its {@code $ref}, and those of its {@code oneOf} alternatives, replaced by what they name. */
	static JsonNode resolve(JsonNode document, JsonNode schema) {
		JsonNode resolved = schema;
		while (resolved.has("$ref")) {
			String name = resolved.get("$ref").asString().replace("#/components/schemas/", "");
			resolved = document.path("components").path("schemas").path(name);
		}
		if (resolved.has("oneOf")) {
			List<JsonNode> alternatives = new ArrayList<>();
			resolved.get("oneOf").forEach(alternative -> alternatives.add(resolve(document, alternative)));
			ObjectNode copy = (ObjectNode) resolved.deepCopy();
			copy.putArray("oneOf").addAll(alternatives);
			return copy;
		}
		return resolved;
	}

	List<String> pathVariables() {
		return this.parameters.stream().filter(parameter -> parameter.in().equals("path")).map(Parameter::name).toList();
	}

	List<Parameter> parameters(String in) {
		return this.parameters.stream().filter(parameter -> parameter.in().equals(in)).toList();
	}

	boolean declaresHeader(String name) {
		return parameters("header").stream().anyMatch(parameter -> parameter.name().equalsIgnoreCase(name));
	}

	boolean hasJsonBody() {
		return "application/json".equals(this.mediaType);
	}

	/** Whether a successful answer may change files: every method but the safe ones. */
	boolean mutates() {
		return !this.method.equals("GET");
	}

	@Override
	public String toString() {
		return this.method + " " + this.path + " (" + this.id + ")";
	}

	/**
	 * A declared parameter.
	 *
	 * @param in where: {@code path}, {@code query} or {@code header}
	 * @param name its name
	 * @param schema its schema, resolved
	 */
	record Parameter(String in, String name, JsonNode schema) {

		String type() {
			return this.schema.path("type").asString("string");
		}

		List<String> enumValues() {
			List<String> values = new ArrayList<>();
			this.schema.path("enum").forEach(value -> values.add(value.asString()));
			return values;
		}

	}

}
