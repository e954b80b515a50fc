package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The persisted leaf (docs/SESSION-FORMAT.md#the-leaf): {@code <session file>.leaf}, replaced atomically on every
 * leaf move, recording the leaf and the file length it belongs to. A length that no longer matches
 * means the file grew since (an append moves the leaf to the new last entry, which is exactly the
 * fallback), or someone else wrote it: either way the leaf falls back to the last entry.
 */
final class LeafSidecar {

	/**
	 * A recorded leaf.
	 *
	 * @param leafId the leaf, {@code null} for "before the first entry"
	 * @param fileLength the session file's length when it was recorded
	 */
	record RecordedLeaf(@Nullable String leafId, long fileLength) {
	}

	private LeafSidecar() {
	}

	static void write(Path sessionFile, @Nullable String leafId, long fileLength) throws IOException {
		ObjectNode node = Json.newObject();
		node.put("leafId", leafId);
		node.put("fileLength", fileLength);
		AtomicFiles.replace(StorageFiles.leafSidecar(sessionFile), Json.toBytes(node));
	}

	/** The recorded leaf, if there is a readable one. */
	static Optional<RecordedLeaf> read(Path sessionFile) throws IOException {
		byte[] bytes;
		Path sidecar = StorageFiles.leafSidecar(sessionFile);
		if (Files.isSymbolicLink(sidecar)) {
			return Optional.empty(); // Arbor writes no link: someone else's, never followed
		}
		try (SeekableByteChannel channel = Files.newByteChannel(sidecar, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
			bytes = Channels.newInputStream(channel).readAllBytes();
		}
		catch (NoSuchFileException ex) {
			return Optional.empty();
		}
		try {
			ObjectNode node = Json.parseObject(bytes);
			JsonNode length = node.get("fileLength");
			if (length == null || !length.canConvertToLong() || !node.has("leafId")) {
				return Optional.empty();
			}
			return Optional.of(new RecordedLeaf(Json.text(node, "leafId"), length.asLong()));
		}
		catch (IllegalArgumentException ex) {
			return Optional.empty(); // a damaged sidecar only costs the fallback
		}
	}

	/**
	 * Follows a session file that another process moved or renamed: the recorded leaf is written beside the new name,
	 * then the old sidecar removed. A sidecar already beside the new name (moved along with the file) is kept.
	 */
	static void move(Path from, Path to) throws IOException {
		Optional<RecordedLeaf> recorded = read(from);
		if (recorded.isPresent() && !Files.exists(StorageFiles.leafSidecar(to), LinkOption.NOFOLLOW_LINKS)) {
			write(to, recorded.get().leafId(), recorded.get().fileLength());
		}
		delete(from);
	}

	static void delete(Path sessionFile) throws IOException {
		Files.deleteIfExists(StorageFiles.leafSidecar(sessionFile));
	}

}
