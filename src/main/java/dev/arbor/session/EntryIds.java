package dev.arbor.session;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * New entry ids: 8 random lowercase hex characters, retried until unique (docs/SESSION-FORMAT.md#a-file-line-by-line).
 */
public final class EntryIds {

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private EntryIds() {
	}

	public static String newId(Predicate<String> taken) {
		while (true) {
			String id = hex8(ThreadLocalRandom.current().nextInt());
			if (!taken.test(id)) {
				return id;
			}
		}
	}

	/** The 8 lowercase hex digits of a 32-bit value. */
	public static String hex8(int value) {
		char[] chars = new char[8];
		hex8(value, chars);
		return new String(chars);
	}

	/** {@link #hex8(int)} into {@code chars} from its start, which must hold 8; returns 8. */
	static int hex8(int value, char[] chars) {
		for (int i = 7; i >= 0; i--) {
			chars[i] = HEX[value & 0xf];
			value >>>= 4;
		}
		return 8;
	}

}
