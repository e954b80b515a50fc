package dev.arbor.web;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;

/**
 * Stored JSON written as a raw value: Jackson's UTF-8 generator copies the bytes straight into its buffer
 * ({@link #appendUnquotedUTF8}), so a 33 MB path is not decoded into strings to be encoded again. The quoted forms,
 * which raw values never use, go through a {@link SerializedString} of the text. Not thread-safe; one per write.
 */
final class RawUtf8 implements SerializableString {

	private final ByteBuffer bytes;

	private @Nullable SerializedString text;

	/**
	 * @param bytes the UTF-8 bytes of one JSON value, from position to limit; not changed
	 */
	RawUtf8(ByteBuffer bytes) {
		this.bytes = bytes;
	}

	@Override
	public int appendUnquotedUTF8(byte[] buffer, int offset) {
		int length = this.bytes.remaining();
		if (offset + length > buffer.length) {
			return -1; // the generator flushes and writes asUnquotedUTF8() instead
		}
		this.bytes.duplicate().get(buffer, offset, length);
		return length;
	}

	@Override
	public byte[] asUnquotedUTF8() {
		byte[] copy = new byte[this.bytes.remaining()];
		this.bytes.duplicate().get(copy);
		return copy;
	}

	@Override
	public int writeUnquotedUTF8(OutputStream out) throws IOException {
		byte[] copy = asUnquotedUTF8();
		out.write(copy);
		return copy.length;
	}

	@Override
	public int putUnquotedUTF8(ByteBuffer buffer) {
		int length = this.bytes.remaining();
		if (buffer.remaining() < length) {
			return -1;
		}
		buffer.put(this.bytes.duplicate());
		return length;
	}

	@Override
	public String getValue() {
		return text().getValue();
	}

	@Override
	public int charLength() {
		return text().charLength();
	}

	@Override
	public int appendUnquoted(char[] buffer, int offset) {
		return text().appendUnquoted(buffer, offset);
	}

	@Override
	public char[] asQuotedChars() {
		return text().asQuotedChars();
	}

	@Override
	public byte[] asQuotedUTF8() {
		return text().asQuotedUTF8();
	}

	@Override
	public int appendQuotedUTF8(byte[] buffer, int offset) {
		return text().appendQuotedUTF8(buffer, offset);
	}

	@Override
	public int appendQuoted(char[] buffer, int offset) {
		return text().appendQuoted(buffer, offset);
	}

	@Override
	public int writeQuotedUTF8(OutputStream out) throws IOException {
		return text().writeQuotedUTF8(out);
	}

	@Override
	public int putQuotedUTF8(ByteBuffer buffer) throws IOException {
		return text().putQuotedUTF8(buffer);
	}

	private SerializedString text() {
		if (this.text == null) {
			this.text = new SerializedString(new String(asUnquotedUTF8(), StandardCharsets.UTF_8));
		}
		return this.text;
	}

	@Override
	public String toString() {
		return getValue();
	}

}
