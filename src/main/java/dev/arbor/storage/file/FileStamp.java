package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What one {@code stat} tells of a session file: enough to see that another process appended to it (it grew),
 * shrank it, replaced it (another inode: a rename over it) or rewrote it in place (same length, newer time).
 *
 * @param size the length
 * @param modified the last modification time
 * @param fileKey the file's identity (device and inode on Linux); {@code null} where the file system has none
 */
record FileStamp(long size, FileTime modified, @Nullable Object fileKey) {

	/**
	 * @throws java.nio.file.NoSuchFileException when the file is gone
	 */
	static FileStamp read(Path file) throws IOException {
		BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
		return new FileStamp(attributes.size(), attributes.lastModifiedTime(), attributes.fileKey());
	}

	/** Whether both stamps are of the same file, not of one that replaced it. */
	boolean sameFile(FileStamp other) {
		return Objects.equals(this.fileKey, other.fileKey);
	}

	/** Whether nothing visible happened to the file between the two stamps. */
	boolean unchanged(FileStamp other) {
		return this.size == other.size && this.modified.equals(other.modified) && sameFile(other);
	}

	/** Milliseconds since the last modification, by the wall clock. */
	long quietMillis(long nowMillis) {
		return nowMillis - this.modified.toMillis();
	}

}
