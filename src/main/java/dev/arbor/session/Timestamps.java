package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Entry timestamps: ISO-8601 with milliseconds in UTC (docs/SESSION-FORMAT.md#a-file-line-by-line). Parsing is on the
 * load path of every entry, so the common fixed form {@code 2025-11-20T23:33:01.550Z} is read from the bytes by hand
 * and everything else falls back to {@link Instant#parse}.
 */
public final class Timestamps {

	/** Sorts before every real timestamp: entries without a readable one come first, stably. */
	public static final long UNKNOWN = Long.MIN_VALUE;

	/** The length of the fixed form, {@code 2025-11-20T23:33:01.550Z}. */
	public static final int FIXED_LENGTH = 24;

	private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
		.withZone(ZoneOffset.UTC);

	private Timestamps() {
	}

	/** {@code 2025-11-20T23:33:01.550Z}: what new entries carry. */
	public static String format(Instant instant) {
		return format(instant.toEpochMilli());
	}

	/**
	 * {@link #format(Instant)} of epoch milliseconds. By hand for the years 0 to 9999: a tree view formats one per
	 * entry, and {@code DateTimeFormatter} made that a third of its cost.
	 */
	public static String format(long epochMillis) {
		char[] text = new char[FIXED_LENGTH];
		int length = format(epochMillis, text);
		return (length > 0) ? new String(text, 0, length) : FORMAT.format(Instant.ofEpochMilli(epochMillis));
	}

	/**
	 * {@link #format(long)} into {@code text} from its start, for writers that make no string of it, for the years
	 * 0 to 9999.
	 *
	 * @param text at least {@value #FIXED_LENGTH} characters
	 * @return how many characters, or -1 for a year outside that range
	 */
	public static int format(long epochMillis, char[] text) {
		long day = Math.floorDiv(epochMillis, 86_400_000L);
		int millisOfDay = (int) Math.floorMod(epochMillis, 86_400_000L);
		LocalDate date = LocalDate.ofEpochDay(day);
		if (date.getYear() < 0 || date.getYear() > 9999) {
			return -1;
		}
		digits(text, 0, date.getYear(), 4);
		text[4] = '-';
		digits(text, 5, date.getMonthValue(), 2);
		text[7] = '-';
		digits(text, 8, date.getDayOfMonth(), 2);
		text[10] = 'T';
		digits(text, 11, millisOfDay / 3_600_000, 2);
		text[13] = ':';
		digits(text, 14, millisOfDay / 60_000 % 60, 2);
		text[16] = ':';
		digits(text, 17, millisOfDay / 1000 % 60, 2);
		text[19] = '.';
		digits(text, 20, millisOfDay % 1000, 3);
		text[23] = 'Z';
		return FIXED_LENGTH;
	}

	private static void digits(char[] text, int at, int value, int count) {
		for (int i = at + count - 1; i >= at; i--) {
			text[i] = (char) ('0' + value % 10);
			value /= 10;
		}
	}

	/** Epoch milliseconds of an entry timestamp, or {@link #UNKNOWN} when it is not one. */
	public static long parseMillis(String text) {
		if (text.length() == FIXED_LENGTH) {
			byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
			if (bytes.length == FIXED_LENGTH) {
				long millis = parseFixed(bytes, 0);
				if (millis != UNKNOWN) {
					return millis;
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

	/** {@link #parseMillis(String)} of UTF-8 bytes, without making a string in the common case. */
	public static long parseMillis(byte[] bytes, int offset, int length) {
		if (length == FIXED_LENGTH) {
			long millis = parseFixed(bytes, offset);
			if (millis != UNKNOWN) {
				return millis;
			}
		}
		return parseMillis(new String(bytes, offset, length, StandardCharsets.UTF_8));
	}

	private static long parseFixed(byte[] b, int at) {
		if (b[at + 4] != '-' || b[at + 7] != '-' || b[at + 10] != 'T' || b[at + 13] != ':' || b[at + 16] != ':'
				|| b[at + 19] != '.' || b[at + 23] != 'Z') {
			return UNKNOWN;
		}
		int year = digits(b, at, 4);
		int month = digits(b, at + 5, 2);
		int day = digits(b, at + 8, 2);
		int hour = digits(b, at + 11, 2);
		int minute = digits(b, at + 14, 2);
		int second = digits(b, at + 17, 2);
		int millis = digits(b, at + 20, 3);
		if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0
				|| minute > 59 || second < 0 || second > 59 || millis < 0) {
			return UNKNOWN;
		}
		try {
			long epochDay = LocalDate.of(year, month, day).toEpochDay();
			return ((epochDay * 24 + hour) * 60 + minute) * 60_000L + second * 1000L + millis;
		}
		catch (DateTimeException ex) {
			return UNKNOWN; // 2025-02-30 and the like
		}
	}

	private static int digits(byte[] bytes, int from, int count) {
		int value = 0;
		for (int i = from; i < from + count; i++) {
			int c = bytes[i];
			if (c < '0' || c > '9') {
				return -1;
			}
			value = value * 10 + (c - '0');
		}
		return value;
	}

}
