package dev.arbor.session;

/**
 * Ids of exactly 8 lowercase hex digits, the form every agent writes (docs/SESSION-FORMAT.md#a-file-line-by-line), held
 * as an {@code int}: a {@code String} would cost 48 bytes an entry, a third of what the tree adds to a loaded session.
 * Any other id stays a string.
 */
public final class HexIds {

	/** What {@link #parse} returns for an id of another form. */
	static final long NOT_HEX = -1;

	private HexIds() {
	}

	/** The id's value (0 to 2^32 - 1), or {@link #NOT_HEX}. */
	static long parse(String id) {
		if (id.length() != 8) {
			return NOT_HEX;
		}
		long value = 0;
		for (int i = 0; i < 8; i++) {
			char c = id.charAt(i);
			int digit = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
			if (digit < 0) {
				return NOT_HEX;
			}
			value = (value << 4) | digit;
		}
		return value;
	}

	/** {@link #parse(String)} of an id's UTF-8 bytes, without making the string. */
	static long parse(byte[] bytes, int offset, int length) {
		if (length != 8) {
			return NOT_HEX;
		}
		long value = 0;
		for (int i = offset; i < offset + 8; i++) {
			int c = bytes[i];
			int digit = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
			if (digit < 0) {
				return NOT_HEX;
			}
			value = (value << 4) | digit;
		}
		return value;
	}

	/** Whether entries hold this id as a number rather than a string. */
	public static boolean isHex(String id) {
		return parse(id) != NOT_HEX;
	}

	/** {@code EntryIds.hex8(value).hashCode()}, without making the string. */
	static int hash(int value) {
		int hash = 0;
		for (int shift = 28; shift >= 0; shift -= 4) {
			int digit = (value >>> shift) & 0xf;
			hash = 31 * hash + ((digit < 10) ? '0' + digit : 'a' + digit - 10);
		}
		return hash;
	}

}
