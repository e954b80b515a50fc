package dev.arbor.session;

import java.math.BigDecimal;

/**
 * Where a JSON number ends (RFC 8259, section 6), and whether Arbor can hold it: decimals are kept exact as
 * {@code BigDecimal}, whose exponent is an {@code int}, so an exponent of more than {@value #MAX_EXPONENT_DIGITS}
 * significant digits ({@code 1E+2147483648}) is refused, as Jackson would refuse it when the entry is read.
 */
final class JsonNumber {

	static final int MAX_EXPONENT_DIGITS = 9;

	private JsonNumber() {
	}

	/**
	 * @param bytes holds the line
	 * @param start where the number starts
	 * @param end where the line ends
	 * @param lineStart where the line starts, for the column of an error
	 * @return the position after it
	 * @throws MalformedLineException when there is no number there, or one Arbor cannot hold
	 */
	static int end(byte[] bytes, int start, int end, int lineStart) throws MalformedLineException {
		int p = start;
		if (at(bytes, p, end) == '-') {
			p++;
		}
		if (at(bytes, p, end) == '0') {
			p++;
		}
		else if ((p = digits(bytes, p, end)) == -1) {
			throw JsonCursor.malformed("unexpected character", start - lineStart);
		}
		if (at(bytes, p, end) == '.') {
			int fraction = p + 1;
			if ((p = digits(bytes, fraction, end)) == -1) {
				throw JsonCursor.malformed("digits expected after the decimal point", fraction - lineStart);
			}
		}
		if (at(bytes, p, end) == 'e' || at(bytes, p, end) == 'E') {
			p++;
			if (at(bytes, p, end) == '+' || at(bytes, p, end) == '-') {
				p++;
			}
			int exponent = p;
			if ((p = digits(bytes, p, end)) == -1) {
				throw JsonCursor.malformed("digits expected in the exponent", exponent - lineStart);
			}
			while (exponent < p - 1 && bytes[exponent] == '0') {
				exponent++;
			}
			if (p - exponent > MAX_EXPONENT_DIGITS) {
				throw JsonCursor.malformed("an exponent beyond " + MAX_EXPONENT_DIGITS + " digits",
						exponent - lineStart);
			}
		}
		return p;
	}

	/**
	 * Whether a decimal that Jackson read can be written as a number {@link #end} accepts. Jackson takes any exponent
	 * {@code BigDecimal} can hold, which is more than nine digits ({@code 1e2147483647}), and writes a decimal with
	 * {@code BigDecimal.toString}, whose exponent is the adjusted one ({@code 10e999999999} is written
	 * {@code 1.0E+1000000000}): that written exponent must have at most {@value #MAX_EXPONENT_DIGITS} digits, or the
	 * line made of it could not be read back.
	 */
	static boolean fits(BigDecimal value) {
		long written = (long) value.precision() - 1 - value.scale();
		return Math.abs(written) < 1_000_000_000L;
	}

	/** The position after the digits at {@code p}, or -1 when there are none. */
	private static int digits(byte[] bytes, int p, int end) {
		int q = p;
		while (q < end && bytes[q] >= '0' && bytes[q] <= '9') {
			q++;
		}
		return (q > p) ? q : -1;
	}

	private static int at(byte[] bytes, int p, int end) {
		return (p < end) ? bytes[p] : -1;
	}

}
