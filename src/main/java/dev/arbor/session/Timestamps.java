package dev.arbor.session;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Entry timestamps: ISO-8601 with milliseconds in UTC (SESSION-TREE.md §1). Parsing is on the load
 * path of every entry, so the common fixed form is read by hand and everything else falls back to
 * {@link Instant#parse}.
 */
public final class Timestamps {

	/** Sorts before every real timestamp: entries without a readable one come first, stably. */
	public static final long UNKNOWN = Long.MIN_VALUE;

	private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private Timestamps() {
	}

	/** {@code 2025-11-20T23:33:01.550Z}: what new entries carry. */
	public static String format(Instant instant) {
		return FORMAT.format(instant);
	}

	/** Epoch milliseconds of an entry timestamp, or {@link #UNKNOWN} when it is not one. */
	public static long parseMillis(String text) {
		if (text.length() == 24 && text.charAt(4) == '-' && text.charAt(7) == '-' && text.charAt(10) == 'T'
				&& text.charAt(13) == ':' && text.charAt(16) == ':' && text.charAt(19) == '.' && text.charAt(23) == 'Z') {
			int year = digits(text, 0, 4);
			int month = digits(text, 5, 2);
			int day = digits(text, 8, 2);
			int hour = digits(text, 11, 2);
			int minute = digits(text, 14, 2);
			int second = digits(text, 17, 2);
			int millis = digits(text, 20, 3);
			if (year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour >= 0 && hour < 24
					&& minute >= 0 && minute < 60 && second >= 0 && second < 60 && millis >= 0) {
				try {
					long epochDay = LocalDate.of(year, month, day).toEpochDay();
					return ((epochDay * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + millis;
				}
				catch (DateTimeException ex) {
					return UNKNOWN;
				}
			}
		}
		try {
			return Instant.parse(text).toEpochMilli();
		}
		catch (DateTimeParseException | ArithmeticException ex) {
			return UNKNOWN;
		}
	}

	private static int digits(String text, int from, int count) {
		int value = 0;
		for (int i = from; i < from + count; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
			value = value * 10 + (c - '0');
		}
		return value;
	}

}
