package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Looks for changes at an interval, where change events may not arrive (NFS, Docker Desktop bind mounts): every
 * loaded session's file by its size, time and identity, and every folder by its time, which changes when a file in
 * it is created, renamed or removed: one {@code stat} each, and only a folder that changed is listed. Also ends the
 * grace period of unfinished lines that nobody writes to any more.
 */
public final class SessionFolderPoll implements Closeable {

	private static final System.Logger LOGGER = System.getLogger(SessionFolderPoll.class.getName());

	private final FileSessionStore store;

	private final ScheduledExecutorService scheduler;

	/** Each folder's time when last looked at; only the poll's thread uses it. */
	private final Map<Path, FileTime> folders = new HashMap<>();

	private SessionFolderPoll(FileSessionStore store) {
		this.store = store;
		this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
			Thread thread = new Thread(runnable, "arbor-storage-poll");
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Starts polling the store's directory at the interval. */
	public static SessionFolderPoll start(FileSessionStore store, Duration interval) {
		SessionFolderPoll poll = new SessionFolderPoll(store);
		poll.scheduler.execute(poll::recordFolders);
		long millis = interval.toMillis();
		poll.scheduler.scheduleWithFixedDelay(poll::poll, millis, millis, TimeUnit.MILLISECONDS);
		return poll;
	}

	/** One round: folders that changed, then loaded sessions whose files changed. */
	void poll() {
		try {
			lookAtFolders();
			this.store.registry().pollLoaded();
		}
		catch (RuntimeException ex) {
			LOGGER.log(System.Logger.Level.WARNING, "Could not look for changes under " + this.store.root(), ex);
		}
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
		try {
			this.scheduler.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Records every folder as it is now: later changes are what counts. */
	private void recordFolders() {
		walkFolders(this.store.root(), folder -> {
		});
	}

	/** Lists only the folders whose time changed: a file was created, renamed or removed in them. */
	private void lookAtFolders() {
		for (Path folder : List.copyOf(this.folders.keySet())) {
			FileTime time;
			try {
				time = Files.getLastModifiedTime(folder);
			}
			catch (IOException ex) {
				this.folders.remove(folder); // gone, and the sessions in it
				this.store.registry().directoryChanged(folder);
				continue;
			}
			if (!time.equals(this.folders.put(folder, time))) {
				addNewFolders(folder);
				this.store.registry().directoryChanged(folder);
			}
		}
	}

	private void addNewFolders(Path folder) {
		try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
			for (Path entry : entries) {
				if (!this.folders.containsKey(entry) && !StorageFiles.isSessionFile(entry) && Files.isDirectory(entry)) {
					walkFolders(entry, this.store.registry()::directoryChanged); // all it holds is new
				}
			}
		}
		catch (IOException ex) {
			// removed meanwhile: its parent's next change says so
		}
	}

	private void walkFolders(Path top, Consumer<Path> added) {
		try {
			Files.walkFileTree(top, new SimpleFileVisitor<>() {
				@Override
				public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
					SessionFolderPoll.this.folders.put(dir, attributes.lastModifiedTime());
					added.accept(dir);
					return FileVisitResult.CONTINUE;
				}

				@Override
				public FileVisitResult visitFileFailed(Path file, IOException ex) {
					return FileVisitResult.CONTINUE;
				}
			});
		}
		catch (IOException ex) {
			LOGGER.log(System.Logger.Level.WARNING, "Could not walk " + top, ex);
		}
	}

}
