package dev.arbor.storage.file;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.arbor.session.Json;
import dev.arbor.session.SessionHeader;
import dev.arbor.session.TitleSlot;
import dev.arbor.storage.InvalidSessionFileException;
import dev.arbor.storage.UnreadableSession;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finds the sessions under the storage directory: every {@code *.jsonl} at any depth (so an upstream
 * sessions folder, one sub-folder per working directory, can be mounted as is), identified by the id
 * in its header. Reads only the first lines of each file. What cannot be read, a file or a whole sub-folder, is
 * listed as unreadable and costs nothing else; so is a symbolic link that the {@link StorageBoundary} refuses.
 */
final class SessionDirectory {

	/** Header lines are short; a first line longer than this is not a session header. */
	private static final int MAX_HEADER_BYTES = 1 << 20;

	/**
	 * What a scan found.
	 *
	 * @param sessions session id → file, in path order (the first file of a duplicated id wins)
	 * @param unreadable files that are not usable sessions
	 * @param folders every folder walked, with its modification time from before its entries were read: a file
	 * created, removed or renamed in it since changes that time
	 */
	record Scan(Map<String, Path> sessions, List<UnreadableSession> unreadable, Map<Path, FileTime> folders) {
	}

	private SessionDirectory() {
	}

	/**
	 * @param boundary the storage directory, and which paths under it may be opened
	 * @param known session file → id of the sessions the caller already has: these files are not opened, because
	 * closing any descriptor of a file releases every POSIX lock this process holds on it, the session's OS lock
	 * included (docs/SESSION-FORMAT.md#durability-and-concurrency)
	 * @param skipped files to pass over: those the caller is creating
	 */
	static Scan scan(StorageBoundary boundary, Map<Path, String> known, Set<Path> skipped) throws IOException {
		Path root = boundary.root();
		Map<String, Path> sessions = new LinkedHashMap<>();
		Walk walk = new Walk(boundary, skipped);
		walk.folder(root);
		if (walk.rootFailure != null) {
			throw walk.rootFailure; // no storage at all: the store cannot start, and the health check says why
		}
		List<UnreadableSession> unreadable = walk.unreadable;
		List<Path> files = walk.files;
		files.sort(null);
		for (Path file : files) {
			try {
				String knownId = known.get(file);
				String id = (knownId != null) ? knownId : readSessionId(file);
				Path existing = sessions.putIfAbsent(id, file);
				if (existing != null) {
					unreadable.add(UnreadableSession.of(root, file,
							"duplicate session id " + id + " (already in " + root.relativize(existing) + ")"));
				}
			}
			catch (InvalidSessionFileException ex) {
				unreadable.add(UnreadableSession.of(root, file, ex.reason()));
			}
			catch (IOException ex) {
				unreadable.add(UnreadableSession.of(root, file, "cannot be read: " + describe(ex)));
			}
		}
		unreadable.sort(Comparator.comparing(UnreadableSession::file));
		return new Scan(sessions, unreadable, walk.folders);
	}

	/**
	 * The session files under the root, each entry looked at without following links: a folder that cannot be read
	 * (or a file whose attributes cannot) is listed and the rest still walked; a link to a folder or named as a session
	 * file is what {@link StorageBoundary} says of it, refused (and listed) or followed.
	 */
	private static final class Walk {

		private final StorageBoundary boundary;

		private final Path root;

		private final Set<Path> skipped;

		final List<Path> files = new ArrayList<>();

		final List<UnreadableSession> unreadable = new ArrayList<>();

		final Map<Path, FileTime> folders = new HashMap<>();

		/** The real paths of the folders walked, when links are followed: a link back to one of them is not walked again. */
		private final Set<Path> walked = new HashSet<>();

		Walk(StorageBoundary boundary, Set<Path> skipped) {
			this.boundary = boundary;
			this.root = boundary.root();
			this.skipped = skipped;
		}

		/** The root could not be read. */
		@Nullable IOException rootFailure;

		/** Walks a folder; one that cannot be read is listed, the root kept as {@link #rootFailure}. */
		void folder(Path folder) {
			try {
				this.folders.put(folder, Files.getLastModifiedTime(folder));
			}
			catch (IOException ex) {
				// reading it fails the same way below
			}
			try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
				if (this.boundary.followsLinks()) {
					this.walked.add(folder.toRealPath());
				}
				for (Path entry : entries) {
					entry(entry);
				}
			}
			catch (IOException | DirectoryIteratorException failure) {
				IOException ex = (failure instanceof DirectoryIteratorException iterator) ? iterator.getCause()
						: (IOException) failure;
				if (folder.equals(this.root)) {
					this.rootFailure = ex;
					return;
				}
				this.unreadable.add(UnreadableSession.of(this.root, folder, "a folder that cannot be read: " + describe(ex)));
			}
		}

		private void entry(Path entry) {
			BasicFileAttributes attributes;
			try {
				attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
			}
			catch (IOException ex) {
				if (StorageFiles.isSessionFile(entry)) {
					this.unreadable.add(UnreadableSession.of(this.root, entry, "cannot be read: " + describe(ex)));
				}
				return;
			}
			if (attributes.isSymbolicLink()) {
				link(entry);
			}
			else if (attributes.isDirectory()) {
				if (!StorageFiles.isArborFolder(this.root, entry)) {
					folder(entry);
				}
			}
			else if (attributes.isRegularFile() && StorageFiles.isSessionFile(entry) && !this.skipped.contains(entry)) {
				this.files.add(entry);
			}
		}

		private void link(Path link) {
			boolean toFolder = Files.isDirectory(link); // where it leads is looked at, not opened
			if (!toFolder && !StorageFiles.isSessionFile(link)) {
				return; // no session file, whatever it leads to
			}
			String refusal = this.boundary.refusal(link);
			if (refusal != null) {
				this.unreadable.add(UnreadableSession.of(this.root, link, refusal));
			}
			else if (!toFolder) {
				if (Files.isRegularFile(link) && !this.skipped.contains(link)) {
					this.files.add(link);
				}
			}
			else if (this.walked.contains(realPath(link))) {
				this.unreadable.add(UnreadableSession.of(this.root, link,
						"a symbolic link to a folder that is listed already, not followed"));
			}
			else {
				folder(link);
			}
		}

		/** Where a link the boundary let pass leads; when it is gone meanwhile, walking it lists it as unreadable. */
		private @Nullable Path realPath(Path link) {
			try {
				return link.toRealPath();
			}
			catch (IOException ex) {
				return null;
			}
		}

	}

	/**
	 * Why a file could not be read, without its path: the message of a {@link FileSystemException} is the absolute
	 * path, which a client is not shown.
	 */
	static String describe(IOException ex) {
		if (ex instanceof AccessDeniedException) {
			return "permission denied";
		}
		if (ex instanceof NoSuchFileException) {
			return "no such file";
		}
		if (ex instanceof FileSystemException fileSystem) {
			return (fileSystem.getReason() != null) ? fileSystem.getReason() : ex.getClass().getSimpleName();
		}
		return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
	}

	/**
	 * The header's id; the header is the first non-blank record after an optional title slot
	 * (docs/SESSION-FORMAT.md#a-file-line-by-line).
	 */
	static String readSessionId(Path file) throws IOException {
		String name = file.getFileName().toString();
		// Line by line as bytes, decoding only the lines looked at: a damaged line further down is that line's
		// problem (docs/SESSION-FORMAT.md#malformed-lines-and-files-that-are-not-sessions), and a reader that decodes
		// ahead would make it the whole file's.
		try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
			boolean firstLine = true;
			byte[] bytes;
			while ((bytes = nextLine(in)) != null) {
				boolean slotAllowed = firstLine;
				firstLine = false;
				if (bytes.length > MAX_HEADER_BYTES) {
					break;
				}
				String line = decode(bytes, name);
				if (line.isBlank()) {
					continue;
				}
				ObjectNode record = parseOrNull(line);
				if (slotAllowed && record != null && TitleSlot.parse(record, bytes) != null) {
					continue;
				}
				SessionHeader header = (record != null) ? SessionHeader.parse(record) : null;
				if (header == null) {
					break;
				}
				return header.id();
			}
		}
		throw new InvalidSessionFileException(name, "the first record is not a session header with a string id");
	}

	/**
	 * The next line's bytes without its newline (and a carriage return before it), null at the end; a line longer
	 * than {@link #MAX_HEADER_BYTES} is cut one byte past it, which is all the caller needs to know.
	 */
	private static byte @Nullable [] nextLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) != -1 && b != '\n') {
			if (line.size() <= MAX_HEADER_BYTES) {
				line.write(b);
			}
		}
		if (b == -1 && line.size() == 0) {
			return null;
		}
		byte[] bytes = line.toByteArray();
		int end = bytes.length;
		if (end > 0 && end <= MAX_HEADER_BYTES && bytes[end - 1] == '\r') {
			return Arrays.copyOf(bytes, end - 1);
		}
		return bytes;
	}

	private static String decode(byte[] line, String name) {
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(line))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new InvalidSessionFileException(name, "not UTF-8 text");
		}
	}

	private static @Nullable ObjectNode parseOrNull(String line) {
		try {
			return Json.parseObject(line.getBytes(StandardCharsets.UTF_8));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
