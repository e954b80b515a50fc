package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.SessionLines;
import dev.arbor.session.SessionTree;

/**
 * The first write to a migrated or damaged file rewrites it whole as version 3, with the new lines, atomically; the
 * original bytes go to a backup first when lines were skipped on load or a crash remnant ends it
 * (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions and
 * docs/SESSION-FORMAT.md#durability-and-concurrency).
 * <p>
 * Others may append to the file meanwhile, by its path, without a lock. A rewrite never drops their lines: it is
 * called off when the file grew between reading it and renaming the new one over it, and bytes that still reached
 * the old file in the moment before the rename are copied to the end of the new one.
 */
final class FileRewrite {

	private FileRewrite() {
	}

	/**
	 * Rewrites the file with the tree's entries and the new lines. Under the session's write lock, with the tree up to
	 * date with the file and no unfinished line of another process at its end.
	 *
	 * @throws FileChangedException when another process appended meanwhile: nothing was replaced (the caller takes
	 * the new lines in and plans again)
	 */
	static void rewrite(StoredSession session, LoadedTree loaded, List<EntryLine> lines) throws IOException {
		Path path = session.path();
		SessionFile locked = session.openFile(); // hold the OS lock while replacing
		long basis = loaded.seen.size();
		if (loaded.needsBackup()) {
			locked.copyTo(StorageFiles.backup(path, session.context().clock().instant()));
		}
		SessionTree tree = loaded.tree;
		List<EntryLine> all = new ArrayList<>(tree.getEntries());
		all.addAll(lines);
		AtomicFiles.replace(path, SessionContent.of(new SessionLines(tree.titleSlot(), tree.header(), all)), () -> {
			if (locked.size() != basis) {
				throw new FileChangedException(path);
			}
		});
		long late = locked.size(); // of the replaced file, which the open descriptors still hold
		byte[] lateLines = (late > basis) ? locked.bytes(basis, late) : new byte[0];
		SessionFile reopened = session.reopenFile(); // the lock was on the replaced file
		long length = reopened.length();
		if (lateLines.length > 0) {
			reopened.append(ByteBuffer.wrap(lateLines), length);
		}
		tree.append(lines);
		loaded.fileVersion = SessionHeader.CURRENT_VERSION;
		loaded.malformedLines = 0;
		loaded.remnant = false;
		loaded.endsWithNewline = true;
		loaded.consumed = length;
		loaded.lineCount = ((tree.titleSlot() != null) ? 2 : 1) + all.size();
		FileStamp now = FileStamp.read(path);
		loaded.seen = new FileStamp(length, now.modified(), now.fileKey()); // the copied late lines are taken in next
		reopened.reached(length, false);
	}

	/** The file grew while it was being rewritten: another process appended to it. */
	static final class FileChangedException extends IOException {

		FileChangedException(Path path) {
			super("Another process appended to " + path.getFileName() + " while it was being rewritten");
		}

	}

}
