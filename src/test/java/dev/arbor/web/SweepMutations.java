package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import dev.arbor.web.SweepCase.Expect;
import dev.arbor.web.SweepCase.Mutation;

/**
 * The hostile changes to an operation's path, query, headers, method and framing; bodies are {@link SweepBodies}'.
 * Each says what must come of it: {@link Expect#REFUSED} for what is invalid by the document or API conventions,
 * {@link Expect#ANY} for what may be valid (a request then need only meet the universal rules).
 */
final class SweepMutations {

	/** Ids the API must refuse in a path, raw as they go on the wire. */
	static final List<String> HOSTILE_PATH_IDS = List.of("%20", "a".repeat(129), "a".repeat(9000), "%C3%A9t%C3%A9",
			"%F0%9F%8C%B3", "..%2F..%2Fetc", "%2E%2E", "%2e", "a%2Fb", "a%5Cb", "%00", "a%00b", "x%0Ay", "x%09y", "%FF",
			"%C0%AF", "%ED%A0%80", "x%22y", "x;y", "-x", "a%252Fb", "x:y%3F");

	/**
	 * Dot segments, which the container takes out before routing (RFC 3986, section 5.2.4, as clients do): the request
	 * then names another resource, which it may rightly reach ({@code DELETE …/labels/..} is
	 * {@code DELETE /sessions/{id}}). Only the universal rules hold.
	 */
	static final List<String> DOT_SEGMENT_IDS = List.of("..", ".", "x/..", "../..", "./.");

	/**
	 * The dimension of the header and the query parameter that carry the last event id: never combined, because the
	 * header wins (the document says so) and a valid header rightly hides a broken parameter.
	 */
	private static final String LAST_EVENT_ID = "last event id";

	/** Query parameters that hold an id, refused unless well formed and known. */
	private static final Set<String> ID_PARAMETERS = Set.of("after", "leafId");

	private SweepMutations() {
	}

	static List<Mutation> path(ApiOperation operation) {
		List<Mutation> mutations = new ArrayList<>();
		for (String variable : operation.pathVariables()) {
			for (String id : HOSTILE_PATH_IDS) {
				Mutation mutation = Mutation.of("path", variable + " " + SweepRequest.shorten(id, 40), Expect.REFUSED,
						(world, draft) -> draft.variables.put(variable, id));
				// Over the request line's limit the server answers and closes while a body may still be on its way;
				// TCP then resets the connection, and the answer may be lost on the client's side.
				mutations.add((id.length() > 8192) ? mutation.unanswerable() : mutation);
			}
			for (String id : DOT_SEGMENT_IDS) {
				mutations.add(Mutation.of("path", variable + " " + id, Expect.ANY,
						(world, draft) -> draft.variables.put(variable, id)));
			}
			mutations.add(Mutation.of("path", variable + " empty", Expect.REFUSED,
					(world, draft) -> draft.variables.put(variable, "")));
			mutations.add(Mutation.of("path", variable + " well formed but unknown", Expect.REFUSED,
					(world, draft) -> draft.variables.put(variable, "deadbeef-0")));
			if (variable.equals("sessionId")) {
				Expect another = operation.pathVariables().contains("entryId") ? Expect.REFUSED : Expect.ANY;
				mutations.add(Mutation.of("path", "sessionId another session", another,
						(world, draft) -> draft.variables.put(variable, world.smallSession())));
				mutations.add(Mutation.of("path", "sessionId the session without entries", another,
						(world, draft) -> draft.variables.put(variable, world.emptySession())));
			}
			else {
				mutations.add(Mutation.of("path", variable + " of another session", Expect.REFUSED,
						(world, draft) -> draft.variables.put(variable, "m1")));
			}
			if (variable.equals("sessionId") || variable.equals("entryId")) {
				for (Map.Entry<String, String> id : SweepBodies.HOSTILE_ENTRY_IDS.entrySet()) {
					mutations.add(Mutation.of("path", "a session imported with an entry id with " + id.getKey(),
							Expect.ANY, (world, draft) -> {
								draft.variables.put("sessionId", world.imported(id.getValue()));
								if (draft.variables.containsKey("entryId")) {
									draft.variables.put("entryId", percentEncoded(id.getValue()));
								}
							}).known("hostile-entry-ids"));
				}
			}
		}
		return mutations;
	}

	static List<Mutation> query(ApiOperation operation) {
		List<Mutation> mutations = new ArrayList<>();
		for (ApiOperation.Parameter parameter : operation.parameters("query")) {
			String name = parameter.name();
			String dimension = name.equals("lastEventId") ? LAST_EVENT_ID : "query";
			for (Map.Entry<String, Expect> value : values(parameter).entrySet()) {
				Mutation mutation = Mutation.of(dimension, name + "=" + SweepRequest.shorten(value.getKey(), 40),
						value.getValue(), (world, draft) -> draft.query.add(name + "=" + value.getKey()));
				mutations.add(known(parameter, value.getKey()) ? mutation.known("loose-parameters") : mutation);
			}
			String valid = validValue(parameter);
			Expect duplicate = parameter.type().equals("string") && parameter.enumValues().isEmpty() ? Expect.ANY
					: Expect.REFUSED;
			Mutation duplicated = Mutation.of("query", name + " twice", duplicate,
					(world, draft) -> draft.query.addAll(List.of(name + "=" + valid, name + "=" + valid)));
			mutations.add(name.equals("skipMalformedLines") ? duplicated.known("loose-parameters") : duplicated);
			mutations.add(Mutation.of("query", name + " without '='", Expect.ANY, (world, draft) -> draft.query.add(name)));
			mutations.add(Mutation.of("query", name + " with an encoded name", Expect.ANY,
					(world, draft) -> draft.query.add(percentEncoded(name) + "=" + valid)));
		}
		for (String unknown : List.of("unknown=1", "=x", "&&&", "a[b]=c", "limit", "x=%FF", "x=" + "y".repeat(3000),
				"%00=1", "sessionId=x", "__proto__=1")) {
			mutations.add(Mutation.of("query", "unknown parameter " + SweepRequest.shorten(unknown, 30), Expect.ANY,
					(world, draft) -> draft.query.add(unknown)));
		}
		return mutations;
	}

	private static boolean known(ApiOperation.Parameter parameter, String value) {
		return (parameter.name().equals("skipMalformedLines") && List.of("yes", "1", "").contains(value))
				|| (parameter.type().equals("integer") && value.equals("0x10"));
	}

	private static String validValue(ApiOperation.Parameter parameter) {
		return switch (parameter.type()) {
			case "integer" -> "5";
			case "boolean" -> "false";
			default -> parameter.enumValues().isEmpty() ? "x" : parameter.enumValues().get(0);
		};
	}

	/** Values of a query parameter, raw, with what must come of each. */
	private static Map<String, Expect> values(ApiOperation.Parameter parameter) {
		Map<String, Expect> values = new LinkedHashMap<>();
		switch (parameter.type()) {
			case "integer" -> {
				// Just past either bound; without one, past what an int holds.
				long minimum = parameter.schema().path("minimum").asLong(Integer.MIN_VALUE);
				long maximum = parameter.schema().path("maximum").asLong(Integer.MAX_VALUE);
				for (String refused : List.of("abc", "1.5", Long.toString(minimum - 1), Long.toString(maximum + 1),
						"99999999999", "0x10", "0X1F", "%2310", "1e2", "%00", "1%00", "%FF", "%EF%BC%95", "5abc", "Infinity",
						"NaN")) {
					values.put(refused, Expect.REFUSED);
				}
				// Valid where the minimum allows them (an offset starts at 0; a limit at 1).
				for (String small : List.of("0", "-0", "-1")) {
					values.put(small, (Long.parseLong(small) < minimum) ? Expect.REFUSED : Expect.ANY);
				}
				for (String lenient : List.of("", "+5", "010", "%205", "5%20", "%095")) {
					values.put(lenient, Expect.ANY);
				}
			}
			case "boolean" -> {
				for (String refused : List.of("yes", "1", "", "0", "no", "on", "off", "maybe", "%00", "true%00",
						"tru", "%FF")) {
					values.put(refused, Expect.REFUSED);
				}
				for (String valid : List.of("true", "false", "TRUE", "False")) {
					values.put(valid, Expect.ANY);
				}
			}
			default -> {
				List<String> names = parameter.enumValues();
				if (!names.isEmpty()) {
					for (String name : names) {
						values.put(name, Expect.ANY);
						values.put(name.toUpperCase(Locale.ROOT).replace('-', '_'), Expect.REFUSED);
						values.put("%20" + name, Expect.REFUSED);
						values.put(name + "%00", Expect.REFUSED);
					}
					values.put("bogus", Expect.REFUSED);
					values.put("%FF", Expect.REFUSED);
					values.put("", Expect.ANY);
				}
				else if (ID_PARAMETERS.contains(parameter.name()) || parameter.name().equals("cursor")) {
					for (String id : HOSTILE_PATH_IDS) {
						values.put(id, Expect.REFUSED);
					}
					values.put("deadbeef-0", Expect.REFUSED);
					values.put("", Expect.ANY);
				}
				else if (parameter.name().equals("lastEventId")) {
					for (String refused : List.of("abc", "-1", "1.5", "0x10", "1".repeat(25), "12abc", "%00", "%FF",
							"%EF%BC%91")) {
						values.put(refused, Expect.REFUSED);
					}
					for (String valid : List.of("", "0", "1", "%201", "9223372036854775807")) {
						values.put(valid, Expect.ANY);
					}
				}
				else {
					for (String free : List.of("", "%C3%A9t%C3%A9", "%F0%9F%8C%B3", "%00", "a%0Ab", "%20", "..%2F..",
							"%25", "a+b", "*", "x".repeat(4000))) {
						values.put(free, Expect.ANY);
					}
					values.put("%FF", Expect.REFUSED);
					values.put("%C3", Expect.REFUSED);
				}
			}
		}
		return values;
	}

	static List<Mutation> headers(ApiOperation operation) {
		List<Mutation> mutations = new ArrayList<>();
		if (operation.declaresHeader("If-Match")) {
			mutations.add(ifMatch("the current leaf", Expect.ANY, "\"%s\""));
			mutations.add(ifMatch("*", Expect.ANY, "*"));
			mutations.add(ifMatch("a list with the current leaf", Expect.ANY, "\"zz\", \"%s\""));
			mutations.add(ifMatch("the current leaf, padded", Expect.ANY, " \t\"%s\"\t "));
			mutations.add(ifMatch("weak current leaf", Expect.REFUSED, "W/\"%s\""));
			mutations.add(ifMatch("\"root\" while there is a leaf", Expect.REFUSED, "\"root\""));
			mutations.add(Mutation.of("header", "If-Match a stale leaf", Expect.REFUSED,
					(world, draft) -> draft.header("If-Match", "\"" + world.branched().firstAnswer() + "\"")));
			for (String garbage : List.of("abc", "\"unterminated", "W/abc", ",", "W/", "\"a\"b\"", "\"%s\" junk",
					"\"%s\",,", "\"x\\\"y\"", "\"é\"", "\"a\tb\"", "**", "*, \"%s\"", "\"%s\"\"%s\"",
					"\"" + "a".repeat(7000) + "\"", String.join(", ", Collections.nCopies(1500, "\"a\"")),
					"\"\"")) {
				mutations.add(ifMatch("garbage " + SweepRequest.shorten(garbage, 30), Expect.REFUSED, garbage));
			}
			mutations.add(Mutation.of("header", "If-Match twice, the current leaf and a stale one", Expect.ANY,
					(world, draft) -> {
						draft.addHeader("If-Match", "\"" + world.branched().leaf() + "\"");
						draft.addHeader("If-Match", "\"" + world.branched().firstAnswer() + "\"");
					}));
			mutations.add(Mutation.of("header", "If-Match twice, garbage in the second", Expect.REFUSED,
					(world, draft) -> {
						draft.addHeader("If-Match", "\"" + world.branched().leaf() + "\"");
						draft.addHeader("If-Match", "garbage");
					}));
		}
		else {
			mutations.add(Mutation.of("header", "If-Match garbage where none is read", Expect.ANY,
					(world, draft) -> draft.header("If-Match", "\"a\" junk")));
		}
		if (operation.declaresHeader("Last-Event-ID")) {
			for (String refused : List.of("abc", "-1", "1.5", "0x10", "1".repeat(25), "12abc", "1 2", "١٢")) {
				mutations.add(Mutation.of(LAST_EVENT_ID, "Last-Event-ID " + refused, Expect.REFUSED,
						(world, draft) -> draft.header("Last-Event-ID", refused)));
			}
			for (String valid : List.of("", " ", "0", "1", "9223372036854775807")) {
				mutations.add(Mutation.of(LAST_EVENT_ID, "Last-Event-ID '" + valid + "'", Expect.ANY,
						(world, draft) -> draft.header("Last-Event-ID", valid)));
			}
			mutations.add(Mutation.of(LAST_EVENT_ID, "Last-Event-ID 9223372036854775808 (beyond long)", Expect.REFUSED,
					(world, draft) -> draft.header("Last-Event-ID", "9223372036854775808")));
		}
		for (String accept : List.of("*/*", "application/*", "application/problem+json", "text/html", "text/event-stream",
				"application/json;q=0", "garbage", ";;;", "application/json; charset=utf-16",
				"application/json, " + "x/y, ".repeat(1000) + "*/*")) {
			mutations.add(Mutation.of("header", "Accept " + SweepRequest.shorten(accept, 40), Expect.ANY,
					(world, draft) -> draft.header("Accept", accept)));
		}
		mutations.add(Mutation.of("header", "Accept-Charset and Accept-Encoding oddities", Expect.ANY, (world, draft) -> {
			draft.header("Accept-Charset", "utf-32, bogus");
			draft.header("Accept-Encoding", "br;q=2, gzip;q=-1, x-bogus");
		}));
		// Like a request line over the limit: the answer may be lost to the reset of a connection still sending.
		mutations.add(Mutation.of("header", "a header over 8 KB", Expect.REFUSED,
				(world, draft) -> draft.header("X-Padding", "p".repeat(9000))).unanswerable());
		mutations.add(Mutation.of("header", "Origin from elsewhere", Expect.ANY,
				(world, draft) -> draft.header("Origin", "https://evil.example")));
		if (operation.mediaType() != null) {
			mutations.addAll(contentTypes(operation));
		}
		else {
			mutations.add(Mutation.of("header", "a JSON body where none is read", Expect.ANY, (world, draft) -> {
				draft.header("Content-Type", "application/json");
				draft.body("{\"x\":" + SweepBodies.HUGE_EXPONENT + "}");
			}));
			mutations.add(Mutation.of("header", "Content-Type */* and a body where none is read", Expect.ANY,
					(world, draft) -> {
						draft.header("Content-Type", "*/*");
						draft.body("{]");
					}));
		}
		return mutations;
	}

	private static List<Mutation> contentTypes(ApiOperation operation) {
		List<Mutation> mutations = new ArrayList<>();
		boolean json = operation.hasJsonBody();
		for (String wildcard : List.of("*/*", "application/*", "*/*; charset=utf-8")) {
			Mutation mutation = contentType(wildcard, Expect.REFUSED);
			mutations.add(json ? mutation.known("wildcard-content-type") : mutation);
		}
		Map<String, Expect> types = new LinkedHashMap<>();
		types.put(json ? "application/json;charset=UTF-8" : "application/x-ndjson; charset=utf-8", Expect.ANY);
		types.put(json ? "APPLICATION/JSON" : "text/plain", Expect.ANY);
		types.put(json ? "application/json; charset=ISO-8859-1" : "text/plain; charset=ISO-8859-1", Expect.ANY);
		types.put(operation.mediaType() + "; charset=bogus", Expect.ANY);
		types.put(operation.mediaType() + "; charset=utf-16", Expect.ANY);
		types.put(operation.mediaType() + "; charset=\"", Expect.ANY);
		types.put(json ? "text/plain" : "application/json", Expect.REFUSED);
		types.put("application/xml", Expect.REFUSED);
		types.put("garbage", Expect.REFUSED);
		types.put("application/", Expect.REFUSED);
		types.put(";", Expect.REFUSED);
		types.put("multipart/form-data; boundary=x", Expect.REFUSED);
		types.put("application/x-www-form-urlencoded", Expect.REFUSED);
		types.put("application/octet-stream", Expect.REFUSED);
		types.put("", Expect.REFUSED);
		types.put("application/json-patch+json", Expect.ANY);
		for (Map.Entry<String, Expect> type : types.entrySet()) {
			mutations.add(contentType(type.getKey(), type.getValue()));
		}
		mutations.add(Mutation.of("header", "no Content-Type", Expect.REFUSED,
				(world, draft) -> draft.header("Content-Type", null)));
		mutations.add(Mutation.of("header", "Content-Type twice", Expect.ANY, (world, draft) -> {
			draft.addHeader("Content-Type", operation.mediaType());
		}));
		return mutations;
	}

	private static Mutation contentType(String type, Expect expect) {
		return Mutation.of("header", "Content-Type '" + type + "'", expect,
				(world, draft) -> draft.header("Content-Type", type));
	}

	private static Mutation ifMatch(String kind, Expect expect, String format) {
		return Mutation.of("header", "If-Match " + kind, expect, (world, draft) -> {
			String leaf = world.branched().leaf();
			draft.header("If-Match", format.replace("%s", leaf));
		});
	}

	/** Methods the document does not declare on the operation's path, and framings of its body. */
	static List<Mutation> methods(ApiOperation operation, Set<String> declared) {
		List<Mutation> mutations = new ArrayList<>();
		for (String method : List.of("GET", "POST", "PUT", "DELETE", "PATCH")) {
			if (!declared.contains(method)) {
				mutations.add(Mutation.of("method", "undeclared method " + method, Expect.REFUSED,
						(world, draft) -> draft.method = method));
			}
		}
		mutations.add(Mutation.of("method", "TRACE", Expect.REFUSED, (world, draft) -> draft.method = "TRACE"));
		mutations.add(Mutation.of("method", "OPTIONS", Expect.ANY, (world, draft) -> draft.method = "OPTIONS"));
		mutations.add(Mutation.of("method", "CONNECT", Expect.UNSUPPORTED, (world, draft) -> draft.method = "CONNECT")
			.known("not-implemented"));
		mutations.add(Mutation.of("method", "an unknown method FROB", Expect.UNSUPPORTED,
				(world, draft) -> draft.method = "FROB"));
		mutations.add(Mutation.of("method", "a lower-case method", Expect.UNSUPPORTED,
				(world, draft) -> draft.method = operation.method().toLowerCase(Locale.ROOT)));
		if (declared.contains("GET")) {
			mutations.add(Mutation.of("method", "HEAD", Expect.ANY, (world, draft) -> draft.method = "HEAD"));
		}
		return mutations;
	}

	static List<Mutation> framings(ApiOperation operation) {
		List<Mutation> mutations = new ArrayList<>();
		mutations.add(framing("Content-Length 3 short", Expect.REFUSED, false, (body) -> Map.of("Content-Length",
				Integer.toString(body.length - 3)), body -> body));
		mutations.add(framing("Content-Length 10 long, then the client stops sending", Expect.REFUSED, true,
				body -> Map.of("Content-Length", Integer.toString(body.length + 10)), body -> body).unanswerable());
		mutations.add(framing("Content-Length abc", Expect.REFUSED, false, body -> Map.of("Content-Length", "abc"),
				body -> body));
		mutations.add(framing("Content-Length -1", Expect.REFUSED, false, body -> Map.of("Content-Length", "-1"),
				body -> body));
		mutations.add(Mutation.of("framing", "two different Content-Lengths", Expect.REFUSED, (world, draft) -> {
			byte[] body = body(draft);
			draft.addHeader("Content-Length", Integer.toString(body.length));
			draft.addHeader("Content-Length", Integer.toString(body.length - 1));
		}));
		mutations.add(framing("chunked", Expect.ANY, false, body -> Map.of("Transfer-Encoding", "chunked"),
				SweepMutations::chunked));
		mutations.add(framing("chunked with a bad chunk size", Expect.REFUSED, false,
				body -> Map.of("Transfer-Encoding", "chunked"), body -> ("zz\r\n").getBytes(StandardCharsets.US_ASCII)));
		mutations.add(framing("chunked and a Content-Length", Expect.ANY, false,
				body -> Map.of("Transfer-Encoding", "chunked", "Content-Length", "3"), SweepMutations::chunked));
		mutations.add(framing("Transfer-Encoding gzip", Expect.UNSUPPORTED, false,
				body -> Map.of("Transfer-Encoding", "gzip"), body -> body).known("not-implemented"));
		mutations.add(framing("Transfer-Encoding gzip, chunked", Expect.UNSUPPORTED, false,
				body -> Map.of("Transfer-Encoding", "gzip, chunked"), SweepMutations::chunked)
			.known("not-implemented"));
		mutations.add(framing("Transfer-Encoding x-bogus", Expect.UNSUPPORTED, false,
				body -> Map.of("Transfer-Encoding", "x-bogus"), body -> body).known("not-implemented"));
		mutations.add(framing("Content-Encoding gzip on a body that is not", Expect.ANY, false,
				body -> Map.of("Content-Encoding", "gzip", "Content-Length", Integer.toString(body.length)), body -> body));
		mutations.add(Mutation.of("framing", "Expect: 100-continue", Expect.ANY,
				(world, draft) -> draft.header("Expect", "100-continue")));
		mutations.add(Mutation.of("framing", "Expect: something else", Expect.REFUSED,
				(world, draft) -> draft.header("Expect", "200-ok")));
		return mutations;
	}

	private static Mutation framing(String kind, Expect expect, boolean halfClose,
			Function<byte[], Map<String, String>> headers,
			UnaryOperator<byte[]> body) {
		return Mutation.of("framing", kind, expect, (world, draft) -> {
			byte[] original = body(draft);
			headers.apply(original).forEach(draft::header);
			draft.body(body.apply(original));
			if (halfClose) {
				draft.request = draft.request.halfClosed();
			}
		});
	}

	private static byte[] body(SweepCase.Draft draft) {
		return (draft.body() != null) ? draft.body() : new byte[0];
	}

	private static byte[] chunked(byte[] body) {
		String head = Integer.toHexString(body.length) + "\r\n";
		byte[] tail = "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
		byte[] chunked = new byte[head.length() + body.length + tail.length];
		System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, chunked, 0, head.length());
		System.arraycopy(body, 0, chunked, head.length(), body.length);
		System.arraycopy(tail, 0, chunked, head.length() + body.length, tail.length);
		return chunked;
	}

	/**
	 * Every byte as {@code %XX}, as a client may write any character of a path or query. A lone surrogate, which UTF-8
	 * cannot carry, goes as the three bytes a lenient encoder writes for it (WTF-8).
	 */
	static String percentEncoded(String text) {
		StringBuilder encoded = new StringBuilder();
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length()
					&& Character.isLowSurrogate(text.charAt(i + 1));
			byte[] bytes;
			if (pair) {
				bytes = text.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
				i++;
			}
			else if (Character.isSurrogate(c)) {
				bytes = new byte[] { (byte) (0xE0 | (c >> 12)), (byte) (0x80 | ((c >> 6) & 0x3F)),
						(byte) (0x80 | (c & 0x3F)) };
			}
			else {
				bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
			}
			for (byte b : bytes) {
				encoded.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
			}
		}
		return encoded.toString();
	}

}
