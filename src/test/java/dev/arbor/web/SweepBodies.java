package dev.arbor.web;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

import dev.arbor.session.Json;
import dev.arbor.web.SweepCase.Expect;
import dev.arbor.web.SweepCase.Mutation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Request bodies of the sweep, derived from the operation's schema in the OpenAPI document: a valid one, then
 * hostile ones: required fields missing, wrong types and nulls, hostile ids, extra fields, deep nesting, huge strings
 * (within the size limit) and numbers, invalid UTF-8, truncated JSON, the wrong top-level type. Session files for
 * the import get their own: headers, lines and entry ids no API client could send.
 */
final class SweepBodies {

	/** Fields that hold an entry id; the valid body points them at the branched session's first user message. */
	static final Set<String> ID_FIELDS = Set.of("entryId", "targetId", "fromId", "leafId");

	/** A number whose exponent is beyond an int (the known defect {@code huge-exponent}). */
	static final String HUGE_EXPONENT = "1E+2147483648";

	/** Entry ids an imported file may hold (ids read from files are kept, whatever their form) but no API path can. */
	static final Map<String, String> HOSTILE_ENTRY_IDS = Map.of("a quote", "a\"b", "a comma and space", "a, b",
			"over 8 KB", "x".repeat(9000), "a lone surrogate", "\ud800", "\"root\", the null leaf's tag", "root",
			"an empty string", "", "non-ASCII", "été-🌳");

	private SweepBodies() {
	}

	static byte[] valid(ApiOperation operation, SweepWorld world) {
		if (!operation.hasJsonBody()) {
			return bytes(sessionFile(world.nextImportId(), "m1", "hi"));
		}
		return bytes(Json.toString(validJson(operation, world)));
	}

	static ObjectNode validJson(ApiOperation operation, SweepWorld world) {
		JsonNode schema = object(operation.schema());
		ObjectNode body;
		if (schema.has("example")) {
			body = (ObjectNode) schema.get("example").deepCopy();
		}
		else {
			body = Json.newObject();
			for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
				if (property.getValue().has("example")) {
					body.set(property.getKey(), property.getValue().get("example"));
				}
			}
		}
		for (String field : ID_FIELDS) {
			if (schema.path("properties").has(field)) {
				body.put(field, world.branched().firstUser());
			}
		}
		return body;
	}

	/** The object schema of a body: the first alternative of a {@code oneOf}. */
	static JsonNode object(JsonNode schema) {
		return schema.has("oneOf") ? schema.get("oneOf").get(0) : schema;
	}

	static List<Mutation> of(ApiOperation operation, int limit) {
		return operation.hasJsonBody() ? json(operation, limit) : sessionFiles(limit);
	}

	private static List<Mutation> json(ApiOperation operation, int limit) {
		List<Mutation> mutations = new ArrayList<>();
		JsonNode schema = object(operation.schema());
		boolean optionalBody = !schema.has("required");
		boolean entries = operation.schema().has("oneOf");
		Set<String> required = new HashSet<>();
		schema.path("required").forEach(name -> required.add(name.asString()));
		for (String field : required) {
			mutations.add(edit("required field " + field + " missing", Expect.REFUSED, (world, body) -> {
				body.remove(field);
				return body;
			}));
		}
		for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
			String field = property.getKey();
			JsonNode type = property.getValue().path("type");
			boolean nullable = type.isArray() && type.toString().contains("null");
			String declared = type.isArray() ? type.get(0).asString() : type.asString();
			boolean anyValue = type.isArray() && type.size() > 2; // several types besides null: nothing is wrong
			for (String wrong : anyValue ? List.<String>of() : wrongValues(declared)) {
				mutations.add(field(field + " of the wrong type: " + wrong, Expect.REFUSED, field, wrong));
			}
			mutations.add(field(field + " null", (nullable || !required.contains(field)) ? Expect.ANY : Expect.REFUSED,
					field, "null"));
			if (ID_FIELDS.contains(field)) {
				for (String id : List.of("", "../x", "a".repeat(129), "a\"b", "été", "\ud800", "a b", "a/b", "a\u0000b",
						"-x", " " + "x")) {
					mutations.add(field(field + " a malformed id " + quote(id), Expect.REFUSED, field, quote(id)));
				}
				mutations.add(field(field + " an unknown id", Expect.REFUSED, field, "\"deadbeef\""));
				mutations.add(field(field + " a huge id within the limit", Expect.REFUSED, field,
						Json.quote("a".repeat(limit / 2))));
			}
			else if (declared.equals("string")) {
				mutations.add(field(field + " a huge string within the limit", Expect.ANY, field,
						Json.quote("ü".repeat(limit / 8))));
				mutations.add(field(field + " with a lone surrogate", Expect.ANY, field, "\"a\\ud800b\""));
				mutations.add(field(field + " with NUL and controls", Expect.ANY, field, "\"a\\u0000\\u001b[31mb\""));
				mutations.add(field(field + " with emoji and RTL", Expect.ANY, field, "\"🌳\u202eabc\""));
			}
		}
		mutations.add(text("an extra field", Expect.ANY, (world, json) -> insert(json, "\"unexpected\":{\"a\":[1,2]}")));
		mutations.add(text("a __proto__ field", Expect.ANY, (world, json) -> insert(json, "\"__proto__\":{\"x\":1}")));
		mutations.add(text("a duplicate key", Expect.ANY, (world, json) -> insert(json, "\"unexpected\":1,\"unexpected\":2")));
		mutations.add(text("an extra field nested 200 deep", Expect.ANY,
				(world, json) -> insert(json, "\"deep\":" + "[".repeat(200) + "]".repeat(200))));
		mutations.add(text("an extra field nested 2000 deep", Expect.REFUSED,
				(world, json) -> insert(json, "\"deep\":" + "[".repeat(2000) + "]".repeat(2000))));
		mutations.add(text("an extra object nested 2000 deep", Expect.REFUSED,
				(world, json) -> insert(json, "\"deep\":" + "{\"a\":".repeat(2000) + "1" + "}".repeat(2000))));
		Mutation hugeExponent = text("a number with an exponent beyond int (" + HUGE_EXPONENT + ")",
				entries ? Expect.REFUSED : Expect.ANY, (world, json) -> insert(json, "\"n\":" + HUGE_EXPONENT));
		mutations.add(entries ? hugeExponent.known("huge-exponent") : hugeExponent);
		Mutation negativeExponent = text("a number with a negative exponent beyond int (-1e-2147483649)",
				entries ? Expect.REFUSED : Expect.ANY, (world, json) -> insert(json, "\"n\":-1e-2147483649"));
		mutations.add(entries ? negativeExponent.known("huge-exponent") : negativeExponent);
		mutations.add(text("a number beyond double (1e400)", Expect.ANY, (world, json) -> insert(json, "\"n\":1e400")));
		mutations.add(text("a 900-digit integer", Expect.ANY, (world, json) -> insert(json, "\"n\":" + "9".repeat(900))));
		mutations.add(text("a 5000-digit integer", Expect.ANY, (world, json) -> insert(json, "\"n\":" + "9".repeat(5000))));
		mutations.add(text("NaN", Expect.REFUSED, (world, json) -> insert(json, "\"n\":NaN")));
		mutations.add(text("-Infinity", Expect.REFUSED, (world, json) -> insert(json, "\"n\":-Infinity")));
		mutations.add(text("a comment", Expect.REFUSED, (world, json) -> "/* c */" + json));
		mutations.add(text("single quotes", Expect.REFUSED, (world, json) -> json.replace('"', '\'')));
		mutations.add(text("trailing garbage", Expect.REFUSED, (world, json) -> json + " garbage"));
		mutations.add(text("trailing comma", Expect.REFUSED, (world, json) -> json.substring(0, json.length() - 1) + ",}"));
		mutations.add(text("a byte-order mark", Expect.ANY, (world, json) -> "\ufeff" + json));
		mutations.add(text("surrounding whitespace", Expect.ANY, (world, json) -> " \r\n\t" + json + "\n\n"));
		for (int cut : new int[] { 1, 2, 7 }) {
			mutations.add(text("truncated after " + cut + " chars", Expect.REFUSED,
					(world, json) -> json.substring(0, Math.min(cut, json.length() - 1))));
		}
		mutations.add(text("truncated at the half", Expect.REFUSED, (world, json) -> json.substring(0, json.length() / 2)));
		mutations.add(text("truncated by the last brace", Expect.REFUSED,
				(world, json) -> json.substring(0, json.length() - 1)));
		for (String top : List.of("\"just a string\"", "42", "-0.5e3", "true", "{}[]")) {
			mutations.add(text("the top level " + top, Expect.REFUSED, (world, json) -> top));
		}
		mutations.add(text("the top level null", optionalBody ? Expect.ANY : Expect.REFUSED, (world, json) -> "null"));
		mutations.add(text("no body", optionalBody ? Expect.ANY : Expect.REFUSED, (world, json) -> ""));
		mutations.add(text("an empty array", Expect.REFUSED, (world, json) -> "[]"));
		mutations.add(text("an array of the body", entries ? Expect.ANY : Expect.REFUSED, (world, json) -> "[" + json + "]"));
		mutations.add(text("an array of the body and a number", Expect.REFUSED, (world, json) -> "[" + json + ",1]"));
		mutations.add(text("an array nested 2000 deep", Expect.REFUSED,
				(world, json) -> "[".repeat(2000) + json + "]".repeat(2000)));
		mutations.add(text("padded over the size limit", Expect.REFUSED,
				(world, json) -> insert(json, "\"pad\":\"" + "x".repeat(limit + 1) + "\"")));
		mutations.add(text("padded with whitespace just under the limit", Expect.ANY,
				(world, json) -> json + " ".repeat(limit - json.length() - 512)));
		for (Map.Entry<String, byte[]> invalid : invalidUtf8().entrySet()) {
			mutations.add(Mutation.of("body", "invalid UTF-8: " + invalid.getKey(), Expect.REFUSED, (world, draft) -> {
				String json = new String(draft.body(), StandardCharsets.UTF_8);
				int quote = json.indexOf("\":\"");
				int at = (quote >= 0) ? quote + 3 : 1;
				draft.body(splice(bytes(json), at, invalid.getValue()));
			}));
		}
		if (entries) {
			mutations.addAll(entryDrafts());
		}
		return mutations;
	}

	private static List<Mutation> entryDrafts() {
		List<Mutation> mutations = new ArrayList<>();
		Map<String, Expect> drafts = new LinkedHashMap<>();
		drafts.put("{\"type\":\"bogus\"}", Expect.REFUSED);
		drafts.put("{\"type\":\"session\",\"version\":3,\"id\":\"x\"}", Expect.REFUSED);
		drafts.put("{\"type\":\"branch_summary\",\"fromId\":\"root\",\"summary\":\"s\"}", Expect.REFUSED);
		drafts.put("{\"type\":\"label\",\"targetId\":\"deadbeef\"}", Expect.REFUSED);
		drafts.put("{\"type\":\"message\",\"message\":{\"role\":5,\"content\":\"x\"}}", Expect.REFUSED);
		drafts.put("{\"type\":\"message\",\"message\":{\"content\":\"x\"}}", Expect.REFUSED);
		drafts.put("{\"type\":\"message\",\"message\":[]}", Expect.REFUSED);
		drafts.put("{\"type\":\"message\",\"id\":\"cafebabe\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}",
				Expect.REFUSED);
		drafts.put("{\"type\":\"message\",\"parentId\":null,\"message\":{\"role\":\"user\",\"content\":\"x\"}}",
				Expect.REFUSED);
		drafts.put("{\"type\":\"message\",\"timestamp\":\"2025-01-01T00:00:00Z\",\"message\":{\"role\":\"user\",\"content\":\"x\"}}",
				Expect.REFUSED);
		drafts.put("{\"type\":\"compaction\",\"summary\":\"s\",\"firstKeptEntryId\":\"deadbeef\",\"tokensBefore\":1}",
				Expect.REFUSED);
		drafts.put("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"x\",\"usage\":{\"input\":"
				+ HUGE_EXPONENT + "}}}", Expect.REFUSED);
		drafts.put("{\"type\":\"model_change\",\"provider\":\"p\",\"modelId\":\"m\"}", Expect.ANY);
		drafts.put("{\"type\":\"custom\",\"customType\":\"x\",\"data\":{\"big\":" + "9".repeat(500) + "}}", Expect.ANY);
		drafts.put("{\"type\":\"message\",\"message\":{\"role\":\"user\",\"content\":\"\\ud800\"}}", Expect.ANY);
		drafts.put("[" + SweepWorld.user("a") + "," + SweepWorld.user("b") + ",{\"type\":\"bogus\"}]", Expect.REFUSED);
		drafts.put("[" + SweepWorld.user("a") + ",[]]", Expect.REFUSED);
		for (Map.Entry<String, Expect> draft : drafts.entrySet()) {
			Mutation mutation = text("the entry " + SweepRequest.shorten(draft.getKey(), 90), draft.getValue(),
					(world, json) -> draft.getKey());
			mutations.add(draft.getKey().contains(HUGE_EXPONENT) ? mutation.known("huge-exponent") : mutation);
		}
		return mutations;
	}

	private static List<Mutation> sessionFiles(int limit) {
		List<Mutation> mutations = new ArrayList<>();
		mutations.add(file("the id of an existing session", Expect.REFUSED,
				world -> sessionFile(world.branched().sessionId(), "m1", "hi")));
		mutations.add(file("an empty file", Expect.REFUSED, world -> ""));
		mutations.add(file("not JSON", Expect.REFUSED, world -> "not json at all\n"));
		mutations.add(file("no header", Expect.REFUSED, world -> SweepWorld.user("x") + "\n"));
		mutations.add(file("a header without an id", Expect.REFUSED,
				world -> "{\"type\":\"session\",\"version\":3,\"timestamp\":\"2025-11-20T23:33:01.550Z\"}\n"));
		for (String id : List.of("../escape", "a/b", "..", "a\"b", "a".repeat(200), "", " x", "x\u0000y", "\ud800",
				"con")) {
			mutations.add(file("a header id " + quote(id), id.equals("con") ? Expect.ANY : Expect.REFUSED,
					world -> sessionFile(id, "m1", "hi")));
		}
		mutations.add(file("a numeric header id", Expect.REFUSED,
				world -> sessionFile("x", "m1", "hi").replace("\"id\":\"x\"", "\"id\":5")));
		mutations.add(file("a torn last line", Expect.REFUSED,
				world -> sessionFile(world.nextImportId(), "m1", "hi") + "{\"type\":\"message\",\"id\":\n"));
		mutations.add(file("a line that is not JSON", Expect.REFUSED,
				world -> sessionFile(world.nextImportId(), "m1", "hi") + "garbage\n"));
		mutations.add(file("CRLF line ends", Expect.ANY,
				world -> sessionFile(world.nextImportId(), "m1", "hi").replace("\n", "\r\n")));
		mutations.add(file("a byte-order mark", Expect.ANY, world -> "\ufeff" + sessionFile(world.nextImportId(), "m1", "hi")));
		mutations.add(file("blank lines", Expect.ANY,
				world -> "\n" + sessionFile(world.nextImportId(), "m1", "hi").replace("\n", "\n\n")));
		mutations.add(file("no final newline", Expect.ANY, world -> sessionFile(world.nextImportId(), "m1", "hi").strip()));
		mutations.add(file("a duplicate entry id", Expect.ANY, world -> {
			String file = sessionFile(world.nextImportId(), "m1", "hi");
			return file + file.substring(file.indexOf('\n') + 1);
		}));
		mutations.add(file("a parentId that names nothing", Expect.ANY,
				world -> sessionFile(world.nextImportId(), "m1", "hi").replace("\"parentId\":null", "\"parentId\":\"nope\"")));
		mutations.add(file("an entry with a number beyond int's exponent", Expect.ANY,
				world -> sessionFile(world.nextImportId(), "m1", "hi").replace("\"content\":", "\"n\":" + HUGE_EXPONENT + ",\"content\":")));
		mutations.add(file("a huge line within the limit", Expect.ANY,
				world -> sessionFile(world.nextImportId(), "m1", "x".repeat(limit - 1024))));
		mutations.add(file("a line over the limit", Expect.REFUSED,
				world -> sessionFile(world.nextImportId(), "m1", "x".repeat(limit + 1))));
		for (Map.Entry<String, String> id : HOSTILE_ENTRY_IDS.entrySet()) {
			mutations.add(file("an entry id with " + id.getKey(), Expect.ANY,
					world -> sessionFile(world.nextImportId(), id.getValue(), "hi")).known("hostile-entry-ids"));
		}
		for (Map.Entry<String, byte[]> invalid : invalidUtf8().entrySet()) {
			mutations.add(Mutation.of("body", "a file with invalid UTF-8: " + invalid.getKey(), Expect.REFUSED,
					(world, draft) -> {
						byte[] file = bytes(sessionFile(world.nextImportId(), "m1", "hi"));
						draft.body(splice(file, file.length - 8, invalid.getValue()));
					}));
		}
		return mutations;
	}

	/**
	 * A JSON string literal that survives as bytes: a lone surrogate, which UTF-8 cannot carry, and the halves of a
	 * pair are written as {@code \\uXXXX} escapes.
	 */
	static String quote(String text) {
		StringBuilder quoted = new StringBuilder("\"");
		for (char c : text.toCharArray()) {
			String one = Character.isSurrogate(c) ? String.format("\\u%04x", (int) c) : Json.quote(String.valueOf(c));
			quoted.append(Character.isSurrogate(c) ? one : one.substring(1, one.length() - 1));
		}
		return quoted.append('"').toString();
	}

	/** A version-3 session file: its header and one user message, whose id and text are given. */
	static String sessionFile(String sessionId, String entryId, String text) {
		return "{\"type\":\"session\",\"version\":3,\"id\":" + quote(sessionId)
				+ ",\"timestamp\":\"2025-11-20T23:33:01.550Z\",\"cwd\":\"/work\"}\n{\"type\":\"message\",\"id\":"
				+ quote(entryId) + ",\"parentId\":null,\"timestamp\":\"2025-11-20T23:33:02.000Z\","
				+ "\"message\":{\"role\":\"user\",\"content\":" + Json.quote(text) + "}}\n";
	}

	private static List<String> wrongValues(String declared) {
		return switch (declared) {
			case "boolean" -> List.of("\"true\"", "\"yes\"", "1", "[]", "{}");
			case "object" -> List.of("\"x\"", "5", "[]", "true");
			default -> List.of("5", "-1.5e300", "true", "[]", "[\"a\"]", "{}");
		};
	}

	private static Map<String, byte[]> invalidUtf8() {
		Map<String, byte[]> invalid = new LinkedHashMap<>();
		invalid.put("C3 28", new byte[] { (byte) 0xC3, 0x28 });
		invalid.put("a lone continuation byte", new byte[] { (byte) 0x80 });
		invalid.put("an overlong slash C0 AF", new byte[] { (byte) 0xC0, (byte) 0xAF });
		invalid.put("an encoded surrogate ED A0 80", new byte[] { (byte) 0xED, (byte) 0xA0, (byte) 0x80 });
		invalid.put("FF", new byte[] { (byte) 0xFF });
		invalid.put("a truncated sequence E2 82", new byte[] { (byte) 0xE2, (byte) 0x82 });
		return invalid;
	}

	private static Mutation edit(String kind, Expect expect, BiFunction<SweepWorld, ObjectNode, ObjectNode> edit) {
		return Mutation.of("body", kind, expect, (world, draft) -> {
			ObjectNode body = (ObjectNode) Json.MAPPER.readTree(draft.body());
			draft.body(bytes(Json.toString(edit.apply(world, body))));
		});
	}

	/** The field set to a raw JSON value. */
	private static Mutation field(String kind, Expect expect, String field, String rawValue) {
		return text(kind, expect, (world, json) -> {
			ObjectNode body = (ObjectNode) Json.MAPPER.readTree(json);
			body.remove(field);
			return insert(Json.toString(body), Json.quote(field) + ":" + rawValue);
		});
	}

	private static Mutation text(String kind, Expect expect, BiFunction<SweepWorld, String, String> edit) {
		return Mutation.of("body", kind, expect,
				(world, draft) -> draft.body(bytes(edit.apply(world, new String(draft.body(), StandardCharsets.UTF_8)))));
	}

	private static Mutation file(String kind, Expect expect, Function<SweepWorld, String> file) {
		return Mutation.of("body", kind, expect, (world, draft) -> draft.body(bytes(file.apply(world))));
	}

	/** A member put first into a JSON object's text. */
	private static String insert(String json, String member) {
		String rest = json.substring(json.indexOf('{') + 1).strip();
		return "{" + member + (rest.startsWith("}") ? "" : ",") + rest;
	}

	private static byte[] splice(byte[] bytes, int at, byte[] inserted) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.write(bytes, 0, at);
		out.writeBytes(inserted);
		out.write(bytes, at, bytes.length - at);
		return out.toByteArray();
	}

	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
