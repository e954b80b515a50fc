package dev.arbor.storage;

import java.util.concurrent.CompletableFuture;

/**
 * A session held for one navigation by every instance that shares the store ({@link SessionStore#holdForNavigation}):
 * while it is held, other instances' writes to the session wait. Closing it lets them go on. An abort asked of
 * another instance ({@link SessionStore#abortNavigation}) and {@link #commit} decide between them: whichever comes
 * first wins.
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
		public boolean commit() {
			return true;
		}

		@Override
		public void close() {
		}

	};

	/** Completes when another instance was asked to abort the navigation ({@link SessionStore#abortNavigation}). */
	CompletableFuture<Void> aborted();

	/**
	 * Marks the navigation as applying its result, unless another instance was asked to abort it first; from here
	 * such an abort is too late (docs/API.md#navigation).
	 *
	 * @return false when an abort came first: the navigation must stop without changing the session
	 */
	boolean commit();

	@Override
	void close();

}
