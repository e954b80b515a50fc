package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Hex ids held as {@code int}s behave exactly like the strings they stand for. */
class HexIdsTests {

	@Test
	void hashShouldEqualTheStringsHashForEveryValue() {
		Random random = new Random(42);
		for (int i = 0; i < 10_000; i++) {
			int value = random.nextInt();
			assertThat(HexIds.hash(value)).isEqualTo(EntryIds.hex8(value).hashCode());
			assertThat(HexIds.parse(EntryIds.hex8(value))).isEqualTo(value & 0xffffffffL);
		}
		assertThat(HexIds.hash(0)).isEqualTo("00000000".hashCode());
		assertThat(HexIds.hash(-1)).isEqualTo("ffffffff".hashCode());
	}

	@Test
	void parseWhenNotEightLowercaseHexDigitsShouldSayNotHex() {
		for (String id : List.of("", "abc", "ABCDEF12", "abcdef1", "abcdef123", "abcdefg1", "0000-000", "é0000000")) {
			assertThat(HexIds.parse(id)).as(id).isEqualTo(HexIds.NOT_HEX);
		}
	}

	@Test
	void entriesWhoseIdsDifferOnlyInFormShouldStayApart() {
		SessionTree tree = SessionTree.of(SessionHeader.create("s", Instant.EPOCH, "/", null, null), null,
				List.of(line("abcdef12", null), line("ABCDEF12", "abcdef12"), line("ffffffff", "ABCDEF12"),
						line("not-hex-id", "ffffffff")));
		assertThat(tree.requireEntry("abcdef12").parentId()).isNull();
		assertThat(tree.requireEntry("ABCDEF12").parentId()).isEqualTo("abcdef12");
		assertThat(tree.requireEntry("ffffffff").id()).isEqualTo("ffffffff");
		assertThat(tree.getPath("not-hex-id")).extracting(EntryLine::id)
			.containsExactly("abcdef12", "ABCDEF12", "ffffffff", "not-hex-id");
		assertThat(tree.getChildren("abcdef12")).extracting(EntryLine::id).containsExactly("ABCDEF12");
		assertThat(tree.contains("Abcdef12")).isFalse();
	}

	private static EntryLine line(String id, String parentId) {
		String parent = (parentId != null) ? "\"" + parentId + "\"" : "null";
		return EntryLine.of(("{\"type\":\"custom\",\"customType\":\"x\",\"id\":\"" + id + "\",\"parentId\":" + parent
				+ ",\"timestamp\":\"2025-01-01T00:00:00.000Z\"}").getBytes(StandardCharsets.UTF_8));
	}

}
