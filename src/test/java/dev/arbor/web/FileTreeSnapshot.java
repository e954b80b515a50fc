package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every file and directory under a root, with a digest of each file's bytes: equal snapshots mean nothing was
 * created, removed or changed there. Bytes, not text, so that a file that is no UTF-8 is compared too.
 *
 * @param entries each relative path ({@code /} after a directory's) with its digest ({@code ""} for a directory)
 */
record FileTreeSnapshot(Map<String, String> entries) {

	static FileTreeSnapshot of(Path root) {
		return of(root, new HashMap<>());
	}

	/**
	 * As {@link #of(Path)}, with the digests of an earlier snapshot kept: a file whose size and modification time
	 * are as they were, and that was last modified more than a second ago, is not read again. A write in between
	 * would have moved its modification time to now.
	 */
	static FileTreeSnapshot of(Path root, Map<Path, Digest> digests) {
		Map<String, String> entries = new TreeMap<>();
		for (Path path : paths(root)) {
			String name = root.relativize(path).toString();
			if (Files.isDirectory(path)) {
				entries.put(name + "/", "");
			}
			else {
				entries.put(name, digest(path, digests));
			}
		}
		return new FileTreeSnapshot(entries);
	}

	/**
	 * Every folder and file under the storage directory but its {@code .arbor/} (the search index: a cache that
	 * changes on its own time, so a request that changes no session may still change it).
	 */
	static List<Path> paths(Path root) {
		List<Path> paths = new ArrayList<>();
		try {
			Files.walkFileTree(root, new SimpleFileVisitor<>() {
				@Override
				public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
					if (dir.getFileName() != null && dir.getFileName().toString().equals(".arbor")) {
						return FileVisitResult.SKIP_SUBTREE;
					}
					if (!dir.equals(root)) {
						paths.add(dir);
					}
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
					paths.add(file);
					return FileVisitResult.CONTINUE;
				}
			});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return paths;
	}

	/** What differs from an earlier snapshot, by path: created, removed or changed. */
	String differencesFrom(FileTreeSnapshot before) {
		Set<String> names = new TreeSet<>(before.entries.keySet());
		names.addAll(this.entries.keySet());
		StringBuilder differences = new StringBuilder();
		for (String name : names) {
			String was = before.entries.get(name);
			String is = this.entries.get(name);
			if (was == null) {
				differences.append("created ").append(name).append("; ");
			}
			else if (is == null) {
				differences.append("removed ").append(name).append("; ");
			}
			else if (!was.equals(is)) {
				differences.append("changed ").append(name).append("; ");
			}
		}
		return differences.toString();
	}

	private static String digest(Path file, Map<Path, Digest> digests) {
		try {
			BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
			long modified = attributes.lastModifiedTime().toMillis();
			Digest known = digests.get(file);
			if (known != null && known.size() == attributes.size() && known.modified() == modified
					&& modified < System.currentTimeMillis() - 1000) {
				return known.digest();
			}
			String digest = digest(file);
			digests.put(file, new Digest(attributes.size(), modified, digest));
			return digest;
		}
		catch (IOException ex) {
			return "unreadable: " + ex.getClass().getSimpleName();
		}
	}

	private static String digest(Path file) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
		}
		catch (IOException ex) {
			// Removed between the listing and the read: it is gone, which is what the snapshot records.
			return "unreadable: " + ex.getClass().getSimpleName();
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A file's digest as last read.
	 *
	 * @param size its size then
	 * @param modified its modification time then, in milliseconds
	 * @param digest its bytes' SHA-256
	 */
	record Digest(long size, long modified, String digest) {
	}

}
