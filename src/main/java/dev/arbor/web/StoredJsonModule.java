package dev.arbor.web;

import java.util.function.Function;

import dev.arbor.session.ContextMessage;
import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * Writes what sessions store as it is stored: an entry, a header or a context message goes out as its own JSON
 * text, unknown fields included, never rebuilt from a tree (API.md Conventions: "Entries are returned exactly as
 * stored").
 */
class StoredJsonModule extends SimpleModule {

	StoredJsonModule() {
		super("arbor-stored-json");
		addSerializer(EntryLine.class, new RawSerializer<>(EntryLine::json));
		addSerializer(SessionHeader.class, new RawSerializer<>(header -> header.json().toString()));
		addSerializer(ContextMessage.class, new RawSerializer<>(ContextMessage::toJson));
	}

	private static final class RawSerializer<T> extends ValueSerializer<T> {

		private final Function<T, String> json;

		RawSerializer(Function<T, String> json) {
			this.json = json;
		}

		@Override
		public void serialize(T value, JsonGenerator generator, SerializationContext context) {
			generator.writeRawValue(this.json.apply(value));
		}

	}

}
