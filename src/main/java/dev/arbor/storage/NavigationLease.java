package dev.arbor.storage;

import java.util.concurrent.CompletableFuture;

/**
 * A session held for one navigation by every instance that shares the store ({@link SessionStore#holdForNavigation}):
 * while it is held, other instances' writes to the session wait. Closing it lets them go on.
 */
public interface NavigationLease extends AutoCloseable {

	/** For a store that one instance owns: its own gates serialize navigations, and nobody else can abort one. */
	NavigationLease LOCAL = new NavigationLease() {

		private final CompletableFuture<Void> never = new CompletableFuture<>();

		@Override
		public CompletableFuture<Void> aborted() {
			return this.never;
		}

		@Override
		public void close() {
		}

	};

	/** Completes when another instance was asked to abort the navigation ({@link SessionStore#abortNavigation}). */
	CompletableFuture<Void> aborted();

	@Override
	void close();

}
