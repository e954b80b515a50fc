package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Whole-file writes that a crash cannot tear: after a crash the target holds the old bytes or the
 * new, never a mix (docs/SESSION-FORMAT.md#durability-and-concurrency). Kafka's {@code Utils.atomicMoveWithFallback}
 * without the fallback: a plain move would break that contract, so a file system without atomic rename fails.
 */
final class AtomicFiles {

	/** Writes the content of a file being replaced. */
	@FunctionalInterface
	interface ContentWriter {

		void writeTo(FileChannel channel) throws IOException;

	}

	private AtomicFiles() {
	}

	/** Checked right before the rename: it may still call the replacement off by throwing. */
	@FunctionalInterface
	interface BeforeMove {

		void check() throws IOException;

	}

	/** Temp file, fsync, rename over the target, fsync the directory. */
	static void replace(Path target, ContentWriter content) throws IOException {
		replace(target, content, () -> {
		});
	}

	/**
	 * Temp file, fsync, the last check, rename over the target, fsync the directory. Nothing is replaced when the
	 * check throws.
	 */
	static void replace(Path target, ContentWriter content, BeforeMove check) throws IOException {
		Path temp = StorageFiles.temp(target);
		try {
			// A leftover temp file goes first; a new one is created exclusively, which never writes through a symbolic
			// link planted under its name (to a file outside the storage directory).
			Files.deleteIfExists(temp);
			try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
				content.writeTo(out);
				out.force(true);
			}
			check.check();
			Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException | RuntimeException ex) {
			Files.deleteIfExists(temp);
			throw ex;
		}
		forceDirectory(target.toAbsolutePath().getParent());
	}

	static void replace(Path target, byte[] content) throws IOException {
		replace(target, channel -> writeFully(channel, ByteBuffer.wrap(content)));
	}

	/** Makes creations, renames and deletions in a directory durable. */
	static void forceDirectory(Path directory) throws IOException {
		try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
			channel.force(true);
		}
	}

	static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
		while (buffer.hasRemaining()) {
			channel.write(buffer);
		}
	}

}
