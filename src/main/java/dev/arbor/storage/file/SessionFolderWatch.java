package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the storage directory and every folder under it (the JDK's {@link WatchService}: inotify on Linux, one
 * watch a folder, not a file) and tells the store as soon as a session file is created, appended to, replaced or
 * removed, so that what another process wrote reaches the event streams within milliseconds. Events of a burst are
 * taken together, each file once. Where the file system sends no events (NFS, some container bind mounts),
 * {@link SessionFolderPoll} still finds the changes.
 */
public final class SessionFolderWatch implements Closeable {

	private static final System.Logger LOGGER = System.getLogger(SessionFolderWatch.class.getName());

	private static final long COALESCE_MILLIS = 1;

	private final FileSessionStore store;

	private final WatchService service;

	private final Map<WatchKey, Path> folders = new ConcurrentHashMap<>();

	private final Thread thread;

	private SessionFolderWatch(FileSessionStore store, WatchService service) {
		this.store = store;
		this.service = service;
		this.thread = new Thread(this::run, "arbor-storage-watch");
		this.thread.setDaemon(true);
	}

	/** Starts watching the store's directory. */
	public static SessionFolderWatch start(FileSessionStore store) throws IOException {
		SessionFolderWatch watch = new SessionFolderWatch(store, store.root().getFileSystem().newWatchService());
		boolean everyFolder;
		try {
			everyFolder = watch.registerTree(store.root());
		}
		catch (IOException | RuntimeException ex) {
			watch.service.close();
			throw ex;
		}
		watch.thread.start();
		// A folder left unwatched (unreadable) could change unseen: listings then walk, as without a watch
		store.registry().watched(everyFolder);
		return watch;
	}

	/** Folders being watched. */
	int folders() {
		return this.folders.size();
	}

	@Override
	public void close() throws IOException {
		this.store.registry().watched(false);
		this.service.close(); // ends the thread's wait
		try {
			this.thread.join(5_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void run() {
		try {
			while (true) {
				Set<Path> changed = new LinkedHashSet<>();
				Set<Path> newFolders = new LinkedHashSet<>();
				boolean overflow = false;
				WatchKey key = this.service.take();
				// A burst (Arbor's own appends among them: every write is an event) is taken as one, each file once.
				Thread.sleep(COALESCE_MILLIS);
				do {
					overflow |= collect(key, changed, newFolders);
				}
				while ((key = this.service.poll()) != null);
				handle(changed, newFolders, overflow);
			}
		}
		catch (ClosedWatchServiceException | InterruptedException ex) {
			// closed: the store is shutting down
		}
		finally {
			this.store.registry().watched(false); // nothing reports changes any more
		}
	}

	/** Takes a key's events into the sets and makes it ready for more; returns whether events were lost. */
	private boolean collect(WatchKey key, Set<Path> changed, Set<Path> newFolders) {
		Path folder = this.folders.get(key);
		boolean overflow = false;
		for (WatchEvent<?> event : key.pollEvents()) {
			if (event.kind() == StandardWatchEventKinds.OVERFLOW) {
				overflow = true;
			}
			else if (folder != null) {
				Path file = folder.resolve((Path) event.context());
				if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE && Files.isDirectory(file)) {
					if (!StorageFiles.isArborFolder(this.store.root(), file)) {
						newFolders.add(file);
					}
				}
				else {
					// A leaf sidecar changed: another Arbor on the folder moved a leaf. A session out of memory is
					// read again for it, as the listing trusts its summary (docs/STORAGE.md#how-a-listing-stays-current)
					Path session = StorageFiles.isSessionFile(file) ? file : StorageFiles.sessionOfSidecar(file);
					if (session != null) {
						changed.add(session);
					}
				}
			}
		}
		if (!key.reset()) {
			this.folders.remove(key); // the folder is gone
		}
		return overflow;
	}

	private void handle(Set<Path> changed, Set<Path> newFolders, boolean overflow) {
		try {
			for (Path folder : newFolders) {
				// Files may have been created in it before it was watched: its whole content counts as new.
				if (!registerTree(folder)) {
					this.store.registry().watched(false);
				}
				Files.walkFileTree(folder, new SimpleFileVisitor<>() {
					@Override
					public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
						SessionFolderWatch.this.store.registry().directoryChanged(dir);
						return FileVisitResult.CONTINUE;
					}
				});
			}
			if (overflow) {
				LOGGER.log(System.Logger.Level.DEBUG, "Change events were lost; looking at every file");
				this.store.registry().rescanWanted(); // and the next listing looks at every session's file
				this.store.registry().rescan();
				this.store.registry().pollLoaded();
			}
			for (Path file : changed) {
				this.store.registry().fileChanged(file);
			}
		}
		catch (IOException | UncheckedIOException ex) {
			// the directory itself is gone or unreadable: the storage health says so; the poll goes on looking, and
			// listings walk the directory again, as the watch may miss what follows
			this.store.registry().watched(false);
			LOGGER.log(System.Logger.Level.WARNING, "Could not take in a change under " + this.store.root() + ": " + ex);
		}
		catch (RuntimeException ex) {
			this.store.registry().rescanWanted();
			LOGGER.log(System.Logger.Level.WARNING, "Could not take in a change under " + this.store.root(), ex);
		}
	}

	/** Watches every folder under the top; whether every one could be watched. */
	private boolean registerTree(Path top) throws IOException {
		boolean[] everyFolder = { true };
		Files.walkFileTree(top, new SimpleFileVisitor<>() {
			@Override
			public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) throws IOException {
				if (StorageFiles.isArborFolder(SessionFolderWatch.this.store.root(), dir)) {
					return FileVisitResult.SKIP_SUBTREE; // the search index writes there all the time
				}
				WatchKey key = dir.register(SessionFolderWatch.this.service, StandardWatchEventKinds.ENTRY_CREATE,
						StandardWatchEventKinds.ENTRY_DELETE, StandardWatchEventKinds.ENTRY_MODIFY);
				SessionFolderWatch.this.folders.put(key, dir);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFileFailed(Path file, IOException ex) {
				if (!(ex instanceof NoSuchFileException)) {
					everyFolder[0] = false; // gone meanwhile is no folder left unwatched
				}
				return FileVisitResult.CONTINUE; // an unreadable folder is left out, not the whole tree
			}
		});
		return everyFolder[0];
	}

}
