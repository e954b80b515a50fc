package dev.arbor.storage;

/** A session followed: see {@link SessionStore#watch}. Closing it more than once does nothing more. */
@FunctionalInterface
public interface SessionWatch extends AutoCloseable {

	@Override
	void close();

}
