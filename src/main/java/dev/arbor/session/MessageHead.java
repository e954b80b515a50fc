package dev.arbor.session;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The top-level string fields of an agent message that the context and the selector need, read
 * without building a tree (its content is skipped).
 *
 * @param role {@code message.role}
 * @param provider {@code message.provider} (assistant messages)
 * @param model {@code message.model} (assistant messages)
 */
public record MessageHead(@Nullable String role, @Nullable String provider, @Nullable String model) {

	static final MessageHead NONE = new MessageHead(null, null, null);

	static MessageHead scan(byte[] json, int offset, int length) {
		String role = null;
		String provider = null;
		String model = null;
		try (JsonParser parser = Json.MAPPER.createParser(json, offset, length)) {
			parser.nextToken();
			String name;
			while ((name = parser.nextName()) != null) {
				JsonToken value = parser.nextToken();
				if (value != JsonToken.VALUE_STRING) {
					parser.skipChildren();
					continue;
				}
				switch (name) {
					case "role" -> role = parser.getString();
					case "provider" -> provider = parser.getString();
					case "model" -> model = parser.getString();
					default -> {
					}
				}
			}
		}
		catch (JacksonException ex) {
			// The line was validated on load; a failure here leaves the fields unknown.
		}
		return new MessageHead(role, provider, model);
	}

	public boolean hasRole(String expected) {
		return expected.equals(this.role);
	}

}
