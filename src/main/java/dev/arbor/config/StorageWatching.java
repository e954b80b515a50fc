package dev.arbor.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.file.SessionFolderPoll;
import dev.arbor.storage.file.SessionFolderWatch;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

/**
 * Starts looking for what other processes write to the storage directory once the application runs (every
 * listener of the store is registered then, so no change goes unannounced), and stops before the store closes:
 * the watch ({@code arbor.storage.watch}) and the poll ({@code arbor.storage.poll-interval}).
 */
final class StorageWatching implements SmartLifecycle {

	private static final System.Logger LOGGER = System.getLogger(StorageWatching.class.getName());

	private final FileSessionStore store;

	private final boolean watch;

	private final Duration pollInterval;

	private @Nullable SessionFolderWatch folderWatch;

	private @Nullable SessionFolderPoll folderPoll;

	private volatile boolean running;

	StorageWatching(FileSessionStore store, boolean watch, Duration pollInterval) {
		this.store = store;
		this.watch = watch;
		this.pollInterval = pollInterval;
	}

	@Override
	public void start() {
		if (this.watch) {
			try {
				this.folderWatch = SessionFolderWatch.start(this.store);
			}
			catch (IOException ex) {
				if (this.pollInterval.isZero()) {
					throw new UncheckedIOException("Cannot watch " + this.store.root() + " and polling is off", ex);
				}
				LOGGER.log(System.Logger.Level.WARNING, "Cannot watch " + this.store.root() + " for changes by other "
						+ "processes (" + ex.getMessage() + "); they are found every " + this.pollInterval, ex);
			}
		}
		if (!this.pollInterval.isZero()) {
			this.folderPoll = SessionFolderPoll.start(this.store, this.pollInterval);
		}
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		if (this.folderPoll != null) {
			this.folderPoll.close();
			this.folderPoll = null;
		}
		if (this.folderWatch != null) {
			try {
				this.folderWatch.close();
			}
			catch (IOException ex) {
				LOGGER.log(System.Logger.Level.DEBUG, "Closing the watch of " + this.store.root() + " failed", ex);
			}
			this.folderWatch = null;
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
