package dev.arbor.session;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The bytes of one stored line that is not an entry (the header, the title slot), without the
 * newline. Immutable.
 */
public final class StoredLine {

	private final byte[] bytes;

	public StoredLine(byte[] bytes) {
		this.bytes = bytes.clone();
	}

	public byte[] bytes() {
		return this.bytes.clone();
	}

	public int length() {
		return this.bytes.length;
	}

	@Override
	public boolean equals(Object other) {
		return (this == other) || (other instanceof StoredLine text && Arrays.equals(this.bytes, text.bytes));
	}

	@Override
	public int hashCode() {
		return Arrays.hashCode(this.bytes);
	}

	@Override
	public String toString() {
		return new String(this.bytes, StandardCharsets.UTF_8);
	}

}
