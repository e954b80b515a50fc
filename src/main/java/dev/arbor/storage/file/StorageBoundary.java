package dev.arbor.storage.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * The storage directory as a boundary: the one place that decides whether a path under it may be opened. A path
 * through a symbolic link (the file itself, or a folder above it) is refused when the link leads out of the
 * directory or nowhere, and also when it stays inside unless links are followed ({@code arbor.storage.follow-links}).
 * The registry asks before it takes a file in, a session before it reads or writes its file, so that a file replaced
 * by a link later is refused too.
 */
final class StorageBoundary {

	private final Path root;

	private final Path realRoot;

	private final boolean followLinks;

	/**
	 * @param root the storage directory, absolute and normalized; it must exist (it may be a link itself: that is the
	 * operator's choice, and what it leads to is the boundary)
	 * @param followLinks whether links that stay inside are followed
	 */
	StorageBoundary(Path root, boolean followLinks) throws IOException {
		this.root = root;
		this.realRoot = root.toRealPath();
		this.followLinks = followLinks;
	}

	Path root() {
		return this.root;
	}

	boolean followsLinks() {
		return this.followLinks;
	}

	/**
	 * Why the path may not be opened, or {@code null} when it may: one {@code lstat} per name below the root, and
	 * where a link leads when there is one (its target is looked at, never opened).
	 */
	@Nullable String refusal(Path path) {
		Path relative = this.root.relativize(path);
		if (relative.isAbsolute() || relative.startsWith("..")) {
			return "outside the storage directory";
		}
		Path current = this.root;
		Path link = null;
		for (Path name : relative) {
			current = current.resolve(name);
			if (Files.isSymbolicLink(current)) {
				link = current;
				break;
			}
		}
		if (link == null) {
			return null;
		}
		String what = link.equals(path) ? "a symbolic link" : "under the symbolic link " + name(link);
		Path real;
		try {
			real = path.toRealPath();
		}
		catch (IOException ex) {
			return what + " that leads nowhere (" + SessionDirectory.describe(ex) + ")";
		}
		if (!real.startsWith(this.realRoot)) {
			return what + " that leads out of the storage directory";
		}
		return this.followLinks ? null : what + ", not followed (arbor.storage.follow-links is false)";
	}

	/**
	 * A path under the root as a client may be shown it: relative, with {@code /} between names (the absolute path
	 * would tell it the server's layout).
	 */
	String name(Path path) {
		return this.root.relativize(path).toString().replace(path.getFileSystem().getSeparator(), "/");
	}

	/**
	 * Refuses a path as a file that is not there, which is what a session whose file became a link is to its callers.
	 *
	 * @throws NoSuchFileException when it may not be opened
	 */
	void check(Path path) throws NoSuchFileException {
		String refusal = refusal(path);
		if (refusal != null) {
			throw new NoSuchFileException(path.getFileName().toString(), null, refusal);
		}
	}

}
