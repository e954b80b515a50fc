package dev.arbor.storage.file;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.SessionTree;
import dev.arbor.storage.SessionStore;
import tools.jackson.databind.node.ObjectNode;

/** Small session files written as bytes, and the drafts tests append. */
final class SessionFiles {

	static final String HEADER = "{\"type\":\"session\",\"version\":3,\"id\":\"s-1\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\"}";

	private SessionFiles() {
	}

	static String entry(String id, String parentId, String text) {
		String parent = (parentId != null) ? "\"" + parentId + "\"" : "null";
		return "{\"type\":\"message\",\"id\":\"" + id + "\",\"parentId\":" + parent
				+ ",\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"message\":{\"role\":\"user\",\"content\":\"" + text + "\"}}";
	}

	/**
	 * A session file that was there before: written a minute ago, so that a last line without its newline is a
	 * crash remnant, not a write in progress (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions).
	 */
	static Path write(Path dir, String name, String content) {
		try {
			Path file = dir.resolve(name);
			Files.writeString(file, content, StandardCharsets.UTF_8);
			backdate(file);
			return file;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Sets a file's modification time a minute back: what it holds was written by a process that is gone. */
	static void backdate(Path file) throws IOException {
		Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
	}

	static ObjectNode userMessage(String text) {
		ObjectNode draft = Json.newObject().put("type", "message");
		draft.putObject("message").put("role", "user").put("content", text);
		return draft;
	}

	/** Ids of entries a reader picks from the session's tree. */
	static List<String> idsOf(SessionStore store, String sessionId, Function<SessionTree, List<EntryLine>> entries) {
		return store.read(sessionId, tree -> ids(entries.apply(tree)));
	}

	static List<String> ids(List<EntryLine> entries) {
		return entries.stream().map(EntryLine::id).toList();
	}

	static List<Path> backups(Path dir) {
		try (Stream<Path> files = Files.list(dir)) {
			return files.filter(f -> f.getFileName().toString().endsWith(StorageFiles.BACKUP_SUFFIX)).toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Every file under a directory (relative path → SHA-256 of its bytes): what a failed operation must not change. */
	static Map<String, String> snapshot(Path dir) {
		Map<String, String> files = new TreeMap<>();
		try (Stream<Path> walk = Files.walk(dir)) {
			for (Path file : walk.filter(Files::isRegularFile).toList()) {
				byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
				files.put(dir.relativize(file).toString(), HexFormat.of().formatHex(digest));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
		return files;
	}

}
