package dev.arbor.session;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The top-level fields of one line, read with a streaming parser that skips everything nested
 * (validating it all the same). This is the whole per-line cost of opening a session.
 *
 * @param json the line's bytes (owned: a copy of the file's)
 * @param type the {@code type} field
 * @param id the {@code id} field when it is a string (version 1 files have none)
 * @param parentId the {@code parentId} field when it is a string
 * @param timestamp epoch milliseconds of {@code timestamp}, or {@link Timestamps#UNKNOWN}
 * @param messageStart offset of the {@code message} object, or -1
 * @param messageEnd offset just past the {@code message} object, or -1
 */
public record EntryScan(byte[] json, String type, @Nullable String id, @Nullable String parentId, long timestamp,
		int messageStart, int messageEnd) {

	/** Scans a line; the array becomes the entry's own, so pass a copy of shared buffers. */
	public static EntryScan of(byte[] json) throws MalformedLineException {
		String type = null;
		String id = null;
		String parentId = null;
		long timestamp = Timestamps.UNKNOWN;
		int messageStart = -1;
		int messageEnd = -1;
		try (JsonParser parser = Json.MAPPER.createParser(json)) {
			if (parser.nextToken() != JsonToken.START_OBJECT) {
				throw new MalformedLineException("not a JSON object");
			}
			String name;
			while ((name = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				switch (name) {
					case "type" -> type = (value == JsonToken.VALUE_STRING) ? EntryTypes.canonical(parser.getString()) : null;
					case "id" -> id = (value == JsonToken.VALUE_STRING) ? parser.getString() : null;
					case "parentId" -> parentId = (value == JsonToken.VALUE_STRING) ? parser.getString() : null;
					case "timestamp" -> timestamp = (value == JsonToken.VALUE_STRING)
							? Timestamps.parseMillis(parser.getString()) : Timestamps.UNKNOWN;
					case "message" -> {
						if (value == JsonToken.START_OBJECT) {
							messageStart = (int) parser.currentTokenLocation().getByteOffset();
							parser.skipChildren();
							messageEnd = (int) parser.currentTokenLocation().getByteOffset() + 1;
						}
						else {
							messageStart = -1;
							messageEnd = -1;
						}
					}
					default -> parser.skipChildren();
				}
			}
			if (parser.nextToken() != null) {
				throw new MalformedLineException("trailing content after the JSON object");
			}
		}
		catch (JacksonException ex) {
			throw new MalformedLineException("not valid JSON: " + ex.getOriginalMessage());
		}
		if (type == null) {
			throw new MalformedLineException("no string \"type\" field");
		}
		return new EntryScan(json, type, id, parentId, timestamp, messageStart, messageEnd);
	}

	public static EntryScan of(byte[] buffer, int offset, int length) throws MalformedLineException {
		return of(Arrays.copyOfRange(buffer, offset, offset + length));
	}

	/** The entry this line holds, with the given identity (migrations assign it; v3 files store it). */
	public EntryLine toLine(String entryId, @Nullable String entryParentId) {
		return new EntryLine(entryId, entryParentId, this.type, this.timestamp, this.json, this.messageStart,
				this.messageEnd);
	}

	@Override
	public String toString() {
		return "EntryScan[type=" + this.type + ", id=" + this.id + "]";
	}

}
