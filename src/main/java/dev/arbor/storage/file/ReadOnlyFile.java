package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.arbor.storage.FileLines;

/**
 * A session file opened for reading only, to take in what others appended while this process does not hold the
 * file's lock. Never open one on a file whose lock this process holds: closing any descriptor of a file releases
 * every POSIX lock the process has on it (use the {@link SessionFile} then).
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

	@Override
	public void close() throws IOException {
		this.channel.close();
	}

}
