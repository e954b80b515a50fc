package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.arbor.storage.FileLines;

/**
 * A session file opened for reading only, to take in what others appended. Closing any descriptor of a file
 * releases every POSIX lock the process has on it: while this process holds a file's lock, use the one its
 * {@link SessionFile} keeps open, never a new one.
 */
final class ReadOnlyFile implements FileTail.Reads, Closeable {

	private final Path path;

	private final FileChannel channel;

	private ReadOnlyFile(Path path, FileChannel channel) {
		this.path = path;
		this.channel = channel;
	}

	static ReadOnlyFile open(Path path) throws IOException {
		return new ReadOnlyFile(path, FileChannel.open(path, StandardOpenOption.READ));
	}

	@Override
	public String name() {
		return this.path.getFileName().toString();
	}

	@Override
	public FileLines readFrom(long from, int firstLine) throws IOException {
		return FileLines.read(this.channel, from, firstLine);
	}

	@Override
	public boolean holds(long position, byte[] expected) throws IOException {
		return FileRegions.holds(this.channel, position, expected);
	}

	/** The file's length now, others' appends included. */
	long size() throws IOException {
		return this.channel.size();
	}

	/** The bytes from one position to another. */
	byte[] bytes(long from, long to) throws IOException {
		return FileRegions.read(this.channel, from, Math.toIntExact(to - from));
	}

	/** Copies the file's bytes to a new file, durably: the backup kept before a repair. */
	void copyTo(Path copy) throws IOException {
		try (FileChannel out = FileChannel.open(copy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
			long size = this.channel.size();
			long position = 0;
			while (position < size) {
				position += this.channel.transferTo(position, size - position, out);
			}
			out.force(true);
		}
		AtomicFiles.forceDirectory(copy.toAbsolutePath().getParent());
	}

	@Override
	public void close() throws IOException {
		this.channel.close();
	}

}
