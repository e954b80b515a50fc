package dev.arbor.web;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionTreeView;
import dev.arbor.session.Timestamps;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.SerializableString;
import tools.jackson.core.io.SerializedString;
import tools.jackson.databind.JacksonSerializable;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.jsontype.TypeSerializer;

/**
 * The body of {@code GET /sessions/{id}/tree}, shaped as {@link TreeResponse} documents it and written straight from
 * the {@link SessionTreeView} to the response's generator: a large session's tree is tens of megabytes of JSON, and
 * building a record, a list and a few strings per node first made the collector the main cost. Ids and timestamps go
 * out as characters, never as strings; everything goes through the generator, so the escaping is Jackson's.
 */
final class TreeJson extends JacksonSerializable.Base {

	private static final SerializableString LEAF_ID = new SerializedString("leafId");

	private static final SerializableString ROOT_IDS = new SerializedString("rootIds");

	private static final SerializableString NODES = new SerializedString("nodes");

	private static final SerializableString ID = new SerializedString("id");

	private static final SerializableString PARENT_ID = new SerializedString("parentId");

	private static final SerializableString TYPE = new SerializedString("type");

	private static final SerializableString TIMESTAMP = new SerializedString("timestamp");

	private static final SerializableString LABEL = new SerializedString("label");

	private static final SerializableString CHILD_IDS = new SerializedString("childIds");

	private final SessionTreeView view;

	TreeJson(SessionTreeView view) {
		this.view = view;
	}

	@Override
	public void serialize(JsonGenerator generator, SerializationContext context) {
		SessionTreeView tree = this.view;
		char[] text = new char[Timestamps.FIXED_LENGTH];
		generator.writeStartObject();
		generator.writeName(LEAF_ID);
		generator.writeString(tree.leafId());
		generator.writeName(ROOT_IDS);
		generator.writeStartArray();
		for (int r = 0; r < tree.rootCount(); r++) {
			writeId(generator, tree.entry(tree.root(r)), text);
		}
		generator.writeEndArray();
		generator.writeName(NODES);
		generator.writeStartArray();
		for (int node = 0; node < tree.size(); node++) {
			EntryLine entry = tree.entry(node);
			generator.writeStartObject();
			generator.writeName(ID);
			writeId(generator, entry, text);
			generator.writeName(PARENT_ID);
			int parent = tree.parent(node);
			if (parent != -1) {
				writeId(generator, tree.entry(parent), text);
			}
			else {
				generator.writeNull();
			}
			generator.writeName(TYPE);
			generator.writeString(entry.type());
			generator.writeName(TIMESTAMP);
			writeTimestamp(generator, entry.timestamp(), text);
			generator.writeName(LABEL);
			generator.writeString(tree.label(node));
			generator.writeName(CHILD_IDS);
			generator.writeStartArray();
			for (int c = 0; c < tree.childCount(node); c++) {
				writeId(generator, tree.entry(tree.child(node, c)), text);
			}
			generator.writeEndArray();
			generator.writeEndObject();
		}
		generator.writeEndArray();
		generator.writeEndObject();
	}

	@Override
	public void serializeWithType(JsonGenerator generator, SerializationContext context, TypeSerializer typeSerializer) {
		serialize(generator, context);
	}

	private static void writeId(JsonGenerator generator, EntryLine entry, char[] text) {
		int length = entry.idChars(text);
		if (length >= 0) {
			generator.writeString(text, 0, length);
		}
		else {
			generator.writeString(entry.id());
		}
	}

	private static void writeTimestamp(JsonGenerator generator, long millis, char[] text) {
		if (millis == Timestamps.UNKNOWN) {
			generator.writeNull();
			return;
		}
		int length = Timestamps.format(millis, text);
		if (length > 0) {
			generator.writeString(text, 0, length);
		}
		else {
			generator.writeString(Timestamps.format(millis));
		}
	}

}
