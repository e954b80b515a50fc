package dev.arbor.storage;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.arbor.Fixtures;
import dev.arbor.session.EntryIds;
import dev.arbor.session.Json;
import dev.arbor.session.Timestamps;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The sessions the benchmarks open: the v3 fixture as it is, and large sessions generated from it
 * into a directory (never committed).
 * <p>
 * A generated session keeps the fixture's title slot and header, then writes the fixture's entries
 * over and over, in file order, re-linked into one chain: entry {@code i} gets a fresh unique
 * 8-hex id, the previous entry as parent and a timestamp one second after the previous one. The
 * fixture averages about 990 bytes an entry; the sizes asked for (32 MB for 100,000 entries, 129 MB
 * for 400,000 upstream) imply about 330. So inside each {@code message} object every string is cut
 * to {@value #MAX_STRING_CHARS} characters and the assistant's {@code usage} block is dropped; the
 * mix of entry types (90% messages, 10% thinking level changes) and every other field stay as in
 * the fixture. Deterministic: the same arguments give the same bytes.
 */
public final class BenchSessions {

	/** Strings inside {@code message} are cut to this many code points. */
	static final int MAX_STRING_CHARS = 24;

	private BenchSessions() {
	}

	/**
	 * Writes the named session into {@code dir}: {@code fixture} (the v3 fixture, copied unchanged),
	 * {@code 32MB} (100,000 generated entries) or {@code 128MB} (400,000).
	 */
	public static Path create(String name, Path dir) throws IOException {
		Files.createDirectories(dir);
		switch (name) {
			case "fixture" -> {
				return Fixtures.copy(Fixtures.OMP_V3, dir);
			}
			case "32MB" -> {
				return generate(dir.resolve("generated-100k.jsonl"), 100_000);
			}
			case "128MB" -> {
				return generate(dir.resolve("generated-400k.jsonl"), 400_000);
			}
			default -> throw new IllegalArgumentException("Unknown session " + name);
		}
	}

	/** A session of {@code entries} entries made from the v3 fixture, as described above. */
	static Path generate(Path target, int entries) throws IOException {
		List<byte[]> lines = nonBlankLines(Files.readAllBytes(Fixtures.path(Fixtures.OMP_V3)));
		byte[] titleSlot = lines.get(0);
		byte[] header = lines.get(1);
		List<ObjectNode> templates = new ArrayList<>();
		for (byte[] line : lines.subList(2, lines.size())) {
			templates.add(shortened(Json.parseObject(line)));
		}
		long start = Timestamps.parseMillis(templates.get(0).get("timestamp").asString());
		try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(target), 1 << 20)) {
			writeLine(out, titleSlot);
			writeLine(out, header);
			String parentId = null;
			for (int i = 0; i < entries; i++) {
				ObjectNode entry = templates.get(i % templates.size());
				String id = EntryIds.hex8((i + 1) * 0x9E3779B1); // odd multiplier: a bijection, so ids never repeat
				long millis = start + i * 1000L;
				entry.put("id", id); // replaces in place: the fixture's field order is kept
				entry.put("parentId", parentId);
				entry.put("timestamp", Timestamps.format(Instant.ofEpochMilli(millis)));
				if (entry.get("message") instanceof ObjectNode message && message.has("timestamp")) {
					message.put("timestamp", millis);
				}
				writeLine(out, Json.toBytes(entry));
				parentId = id;
			}
		}
		return target;
	}

	/** Deletes a benchmark's directory and everything in it. */
	public static void deleteRecursively(Path dir) throws IOException {
		if (!Files.exists(dir)) {
			return;
		}
		try (Stream<Path> files = Files.walk(dir)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
	}

	/**
	 * {@link #create} in a separate JVM ({@link #main}), so that a cold benchmark's own JVM has run none of the
	 * writing: no code compiled, no heap touched. Returns the session's file.
	 */
	public static Path createInAnotherJvm(String name, Path dir) throws IOException, InterruptedException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
				BenchSessions.class.getName(), name, dir.toString())
			.inheritIO()
			.start();
		if (child.waitFor() != 0) {
			throw new IllegalStateException("Generating " + name + " failed");
		}
		try (Stream<Path> files = Files.list(dir)) {
			return files.filter(file -> file.toString().endsWith(".jsonl")).findFirst().orElseThrow();
		}
	}

	/** Writes one session: {@link #createInAnotherJvm}'s child. */
	public static void main(String[] args) throws IOException {
		create(args[0], Path.of(args[1]));
	}

	private static ObjectNode shortened(ObjectNode entry) {
		if (entry.get("message") instanceof ObjectNode message) {
			message.remove("usage");
			entry.set("message", cutStrings(message));
		}
		return entry;
	}

	private static JsonNode cutStrings(JsonNode node) {
		if (node.isString()) {
			String text = node.asString();
			if (text.codePointCount(0, text.length()) <= MAX_STRING_CHARS) {
				return node;
			}
			return JsonNodeFactory.instance.stringNode(text.substring(0, text.offsetByCodePoints(0, MAX_STRING_CHARS)));
		}
		if (node instanceof ObjectNode object) {
			for (String name : new ArrayList<>(object.propertyNames())) {
				object.replace(name, cutStrings(object.get(name)));
			}
		}
		else if (node instanceof ArrayNode array) {
			for (int i = 0; i < array.size(); i++) {
				array.set(i, cutStrings(array.get(i)));
			}
		}
		return node;
	}

	private static List<byte[]> nonBlankLines(byte[] bytes) {
		List<byte[]> lines = new ArrayList<>();
		int start = 0;
		for (int i = 0; i <= bytes.length; i++) {
			if (i == bytes.length || bytes[i] == '\n') {
				if (i > start) {
					byte[] line = new byte[i - start];
					System.arraycopy(bytes, start, line, 0, line.length);
					lines.add(line);
				}
				start = i + 1;
			}
		}
		return lines;
	}

	private static void writeLine(OutputStream out, byte[] line) throws IOException {
		out.write(line);
		out.write('\n');
	}

}
