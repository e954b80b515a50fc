package dev.arbor.session;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Entry timestamps written and read (docs/SESSION-FORMAT.md#a-file-line-by-line: ISO-8601 with milliseconds, UTC). */
class TimestampsTests {

	private static final DateTimeFormatter REFERENCE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	@Test
	void formatShouldWriteMillisecondsInUtcWithAFixedWidth() {
		assertThat(Timestamps.format(Instant.parse("2025-11-20T23:33:01.550Z"))).isEqualTo("2025-11-20T23:33:01.550Z");
		assertThat(Timestamps.format(Instant.parse("2025-01-02T03:04:05.000123Z"))).isEqualTo("2025-01-02T03:04:05.000Z");
		assertThat(Timestamps.format(0L)).isEqualTo("1970-01-01T00:00:00.000Z");
		assertThat(Timestamps.format(-1L)).isEqualTo("1969-12-31T23:59:59.999Z");
	}

	@Test
	void formatShouldAgreeWithDateTimeFormatterAcrossTheYears() {
		SplittableRandom random = new SplittableRandom(20261201);
		long first = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
		long last = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
		for (int i = 0; i < 100_000; i++) {
			long millis = random.nextLong(first, last + 1);
			assertThat(Timestamps.format(millis)).isEqualTo(REFERENCE.format(Instant.ofEpochMilli(millis)));
		}
	}

	@Test
	void formatThenParseShouldGiveTheSameMilliseconds() {
		SplittableRandom random = new SplittableRandom(7);
		for (int i = 0; i < 10_000; i++) {
			long millis = random.nextLong(0, 4_102_444_800_000L); // 1970 to 2100
			assertThat(Timestamps.parseMillis(Timestamps.format(millis))).isEqualTo(millis);
		}
	}

}
