package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

import dev.arbor.session.SessionTree;
import dev.arbor.session.Timestamps;
import dev.arbor.storage.SessionInfo;
import org.jspecify.annotations.Nullable;

/**
 * A session's listing data, kept after the session is unloaded, with the file length and the leaf sidecar's
 * modification time it was taken at: another process's append changes the length, its leaf move replaces the
 * sidecar. A rewrite in place to the same length (a title slot) is not seen, as elsewhere in this store.
 *
 * @param info what the listing shows
 * @param fileLength the session file's length then
 * @param sidecar the leaf sidecar's modification time then; {@code null} when there was none
 * @param releasedChanges how many of the session's changes had been released to the store's listeners then: a
 * later one may have changed what the listing shows
 */
record SessionSummary(SessionInfo info, long fileLength, @Nullable FileTime sidecar, long releasedChanges) {

	/**
	 * The summary of a loaded session; its newest entry dates it, or the header when it has none. It changed last
	 * when its file ({@code modified}, as the loaded tree last saw it) or its leaf sidecar was written.
	 */
	static SessionSummary of(String sessionId, Path path, SessionTree tree, int malformedLines, long fileLength,
			FileTime modified, long releasedChanges) {
		long newest = tree.newestTimestamp();
		if (newest == Timestamps.UNKNOWN && tree.header().timestamp() != null) {
			newest = Timestamps.parseMillis(tree.header().timestamp());
		}
		FileTime sidecar = sidecarStamp(path);
		long changedAt = Math.max(modified.toMillis(), (sidecar != null) ? sidecar.toMillis() : 0);
		SessionInfo info = new SessionInfo(sessionId, path, tree.header(), tree.title(), tree.listing(), tree.leafId(), tree.size(),
				newest, changedAt, malformedLines);
		return new SessionSummary(info, fileLength, sidecar, releasedChanges);
	}

	/** Whether the files still are as they were when this was taken. */
	boolean isCurrent(Path path) {
		try {
			return Files.size(path) == this.fileLength && Objects.equals(sidecarStamp(path), this.sidecar);
		}
		catch (IOException ex) {
			return false; // gone or unreadable: loading it says which
		}
	}

	private static @Nullable FileTime sidecarStamp(Path path) {
		try {
			return Files.getLastModifiedTime(StorageFiles.leafSidecar(path));
		}
		catch (IOException ex) {
			return null; // no leaf recorded
		}
	}

}
