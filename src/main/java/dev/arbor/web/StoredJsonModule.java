package dev.arbor.web;

import java.util.function.Function;

import dev.arbor.session.ContextMessage;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * Writes what sessions store as it is stored: an entry, a header or a context message goes out as its own JSON
 * text, unknown fields included, never rebuilt from a tree (docs/API.md#requests-and-responses: "Entries are returned
 * as stored").
 */
class StoredJsonModule extends SimpleModule {

	StoredJsonModule() {
		super("arbor-stored-json");
		addSerializer(EntryLine.class, new RawSerializer<>(entry -> new RawUtf8(entry.buffer())));
		addSerializer(SessionHeader.class, new RawSerializer<>(header -> new SerializedString(header.json().toString())));
		addSerializer(ContextMessage.class, new RawSerializer<>(message -> (message instanceof ContextMessage.Stored stored)
				? new RawUtf8(stored.entry().messageBuffer()) : new SerializedString(message.toJson())));
	}

	private static final class RawSerializer<T> extends ValueSerializer<T> {

		private final Function<T, SerializableString> json;

		RawSerializer(Function<T, SerializableString> json) {
			this.json = json;
		}

		@Override
		public void serialize(T value, JsonGenerator generator, SerializationContext context) {
			generator.writeRawValue(this.json.apply(value));
		}

	}

}
