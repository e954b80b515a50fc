package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import dev.arbor.TestSessions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The hand-written line scanner agrees with Jackson on what is valid JSON and on every field it reads. */
class LineScannerTests {

	@Test
	void scanWhenLinesAreTestSessionsShouldReadTheSameFieldsAsJackson() throws Exception {
		for (byte[] line : fixtureLines()) {
			EntryScan scan = EntryScan.of(line);
			ObjectNode node = Json.parseObject(line);
			assertThat(scan.type()).isEqualTo(Json.text(node, "type"));
			assertThat(scan.id()).isEqualTo(Json.text(node, "id"));
			assertThat(scan.parentId()).isEqualTo(Json.text(node, "parentId"));
			String timestamp = Json.text(node, "timestamp");
			assertThat(scan.timestamp()).isEqualTo((timestamp != null) ? Timestamps.parseMillis(timestamp) : Timestamps.UNKNOWN);
			if (node.get("message") instanceof ObjectNode message) {
				assertThat(Json.parseObject(line, scan.messageStart(), scan.messageEnd() - scan.messageStart()))
					.isEqualTo(message);
				assertThat(scan.role()).isEqualTo(Json.text(message, "role"));
			}
			else {
				assertThat(scan.messageStart()).isEqualTo(-1);
			}
		}
	}

	@Test
	void scanWhenLinesAreDamagedShouldRejectExactlyWhatJacksonRejects() {
		long seed = System.nanoTime();
		Random random = new Random(seed);
		List<byte[]> lines = fixtureLines();
		String alphabet = "{}[]\",:\\ tfn0123456789.eE+-abu\t";
		int checked = 0;
		for (int round = 0; round < 20_000; round++) {
			byte[] line = lines.get(random.nextInt(lines.size()));
			byte[] damaged;
			if (random.nextBoolean()) {
				damaged = Arrays.copyOf(line, random.nextInt(line.length));
			}
			else {
				damaged = line.clone();
				for (int i = 0; i < 1 + random.nextInt(3); i++) {
					damaged[random.nextInt(damaged.length)] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
				}
			}
			String text = new String(damaged, StandardCharsets.UTF_8);
			assertThat(scannerAccepts(damaged)).as("seed %d: ...%s (Jackson: %s)", seed, text.substring(Math.max(0, text.length() - 120)), jacksonError(damaged))
				.isEqualTo(jacksonAccepts(damaged));
			checked++;
		}
		assertThat(checked).isEqualTo(20_000);
	}

	@Test
	void scanWhenMembersRepeatNestOrHoldOtherKindsShouldReadTheSameFieldsAsJackson() throws Exception {
		Random random = new Random(14);
		String[] names = { "type", "id", "parentId", "timestamp", "message", "role", "\\u0074ype", "x" };
		String[] values = { "\"message\"", "\"label\"", "\"a1b2c3d4\"", "\"text-id\"", "\"2025-01-01T00:00:00.000Z\"",
				"null", "7", "[]", "{}", "[{\"role\":\"user\"}]", "{\"role\":\"assistant\",\"content\":[{\"role\":\"x\"}]}",
				"{\"role\":[\"user\"]}", "{\"r\\u006fle\":\"user\"}", "{\"content\":{\"message\":{\"role\":\"user\"}}}",
				"\"us\\u0065r\"", "true" };
		for (int round = 0; round < 3_000; round++) {
			StringBuilder line = new StringBuilder("{");
			int members = 1 + random.nextInt(7);
			for (int m = 0; m < members; m++) {
				line.append((m > 0) ? ", " : "").append('"').append(names[random.nextInt(names.length)]).append("\" : ")
					.append(values[random.nextInt(values.length)]);
			}
			String text = line.append('}').toString();
			byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
			ObjectNode node = Json.parseObject(bytes);
			String type = Json.text(node, "type");
			if (type == null) {
				assertThatExceptionOfType(MalformedLineException.class).as(text).isThrownBy(() -> EntryScan.of(bytes));
				continue;
			}
			EntryScan scan = EntryScan.of(bytes);
			assertThat(scan.type()).as(text).isEqualTo(type);
			assertThat(scan.id()).as(text).isEqualTo(Json.text(node, "id"));
			assertThat(scan.parentId()).as(text).isEqualTo(Json.text(node, "parentId"));
			String timestamp = Json.text(node, "timestamp");
			assertThat(scan.timestamp()).as(text)
				.isEqualTo((timestamp != null) ? Timestamps.parseMillis(timestamp) : Timestamps.UNKNOWN);
			if (node.get("message") instanceof ObjectNode message) {
				assertThat(Json.parseObject(bytes, scan.messageStart(), scan.messageEnd() - scan.messageStart()))
					.as(text).isEqualTo(message);
				assertThat(scan.role()).as(text).isEqualTo(Json.text(message, "role"));
			}
			else {
				assertThat(scan.messageStart()).as(text).isEqualTo(-1);
				assertThat(scan.role()).as(text).isNull();
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "[]", "\"x\"", "{", "{\"type\":\"a\",}", "{\"type\":\"a\"} x", "{\"type\":01}",
			"{\"type\":\"a\",\"n\":1.}", "{\"type\":\"a\",\"n\":-}", "{\"type\":\"a\",\"n\":1e}", "{\"type\":\"a\",\"n\":NaN}",
			"{\"type\":\"a\",\"s\":\"\\x\"}", "{\"type\":\"a\",\"s\":\"\\u12g4\"}", "{\"type\":\"a\",\"s\":\"tab\there\"}",
			"{\"type\":\"a\" \"b\":1}", "{'type':'a'}", "{\"type\":\"a\",\"t\":tru}", "{\"type\":\"a\"}}", "{\"type\":[1,]}" })
	void scanWhenLineIsNotJsonShouldBeMalformed(String line) {
		byte[] bytes = line.replace("\\t", "\t").getBytes(StandardCharsets.UTF_8);
		assertThatExceptionOfType(MalformedLineException.class).isThrownBy(() -> EntryScan.of(bytes));
	}

	@Test
	void scanWhenKeysAndValuesAreEscapedShouldDecodeThem() throws MalformedLineException {
		byte[] line = "{\"\\u0074ype\":\"mes\\u0073age\",\"id\":\"a\\\"b\",\"parentId\":null,\"timestamp\":\"2025-01-01T00:00:00.000\\u005a\",\"message\":{\"r\\u006fle\":\"user\",\"content\":[]}}"
			.getBytes(StandardCharsets.UTF_8);
		EntryScan scan = EntryScan.of(line);
		assertThat(scan.type()).isEqualTo("message");
		assertThat(scan.id()).isEqualTo("a\"b");
		assertThat(scan.parentId()).isNull();
		assertThat(scan.timestamp()).isEqualTo(Timestamps.parseMillis("2025-01-01T00:00:00.000Z"));
		assertThat(scan.role()).isEqualTo("user");
	}

	@Test
	void scanWhenNestingIsTooDeepShouldBeMalformedAndAtTheLimitShouldPass() throws MalformedLineException {
		String deep = "[".repeat(JsonCursor.MAX_DEPTH) + "]".repeat(JsonCursor.MAX_DEPTH);
		String tooDeep = "[".repeat(JsonCursor.MAX_DEPTH + 1) + "]".repeat(JsonCursor.MAX_DEPTH + 1);
		EntryScan.of(("{\"type\":\"a\",\"x\":" + deep.substring(1, deep.length() - 1) + "}").getBytes(StandardCharsets.UTF_8));
		assertThatExceptionOfType(MalformedLineException.class)
			.isThrownBy(() -> EntryScan.of(("{\"type\":\"a\",\"x\":" + tooDeep + "}").getBytes(StandardCharsets.UTF_8)))
			.withMessageContaining("nesting");
	}

	@Test
	void scanWhenAnExponentIsBeyondNineDigitsShouldBeMalformedAsJacksonCannotHoldIt() throws MalformedLineException {
		for (String kept : List.of("1E+999999999", "1e-999999999", "1E0000000000000005", "-0.5e+12")) {
			byte[] line = ("{\"type\":\"a\",\"n\":" + kept + "}").getBytes(StandardCharsets.UTF_8);
			EntryScan.of(line);
			assertThat(Json.parseObject(line).get("n").isNumber()).as(kept).isTrue();
		}
		for (String refused : List.of("1E+2147483648", "1e-2147483649", "2.5E+3000000000")) {
			byte[] line = ("{\"type\":\"a\",\"n\":" + refused + "}").getBytes(StandardCharsets.UTF_8);
			assertThatExceptionOfType(MalformedLineException.class).as(refused).isThrownBy(() -> EntryScan.of(line))
				.withMessageContaining("exponent");
			assertThatIllegalArgumentException().as(refused).isThrownBy(() -> Json.parseObject(line));
		}
	}

	@Test
	void scanWhenAStringIsNotUtf8ShouldBeMalformed() {
		byte[] line = "{\"type\":\"a\",\"s\":\"xx\"}".getBytes(StandardCharsets.UTF_8);
		line[line.length - 4] = (byte) 0xc3; // a lead byte followed by 'x', not a continuation
		assertThatExceptionOfType(MalformedLineException.class).isThrownBy(() -> EntryScan.of(line))
			.withMessageContaining("UTF-8");
	}

	@Test
	void scanWhenTextIsNotAsciiShouldKeepItAndTheMessageRange() throws MalformedLineException {
		String line = "{\"type\":\"message\",\"id\":\"é1\",\"message\":{\"role\":\"user\",\"content\":\"→ ✓ 😀\"},\"x\":[true,false,null,-0.5e+3]}";
		EntryScan scan = EntryScan.of(line.getBytes(StandardCharsets.UTF_8));
		assertThat(scan.id()).isEqualTo("é1");
		assertThat(new String(scan.json(), scan.messageStart(), scan.messageEnd() - scan.messageStart(), StandardCharsets.UTF_8))
			.isEqualTo("{\"role\":\"user\",\"content\":\"→ ✓ 😀\"}");
	}

	private static boolean scannerAccepts(byte[] line) {
		try {
			LineScanner.scan(line);
			return true;
		}
		catch (MalformedLineException ex) {
			return !ex.getMessage().startsWith("not valid JSON") && !ex.getMessage().startsWith("not a JSON object")
					&& !ex.getMessage().startsWith("trailing");
		}
	}

	private static String jacksonError(byte[] line) {
		try (JsonParser parser = Json.MAPPER.createParser(line)) {
			parser.nextToken();
			parser.skipChildren();
			return String.valueOf(parser.nextToken());
		}
		catch (JacksonException ex) {
			return ex.getOriginalMessage();
		}
	}

	/** Jackson's verdict: one JSON object and nothing after it. */
	private static boolean jacksonAccepts(byte[] line) {
		try (JsonParser parser = Json.MAPPER.createParser(line)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				return false;
			}
			for (int depth = 1; depth > 0;) {
				JsonToken token = parser.nextToken();
				if (token == null) {
					return false;
				}
				depth += token.isStructStart() ? 1 : token.isStructEnd() ? -1 : 0;
				if (token == JsonToken.VALUE_NUMBER_FLOAT) {
					parser.getDecimalValue(); // as the engine reads decimals
				}
			}
			return parser.nextToken() == null;
		}
		catch (JacksonException | NumberFormatException ex) {
			return false;
		}
	}

	/** Every line of both test sessions: each entry type, escapes, non-ASCII text and image data. */
	private static List<byte[]> fixtureLines() {
		List<byte[]> lines = new ArrayList<>();
		for (String session : List.of(TestSessions.PI_V1, TestSessions.OMP_V3)) {
			for (String line : TestSessions.lines(session)) {
				lines.add(line.getBytes(StandardCharsets.UTF_8));
			}
		}
		return lines;
	}

}
