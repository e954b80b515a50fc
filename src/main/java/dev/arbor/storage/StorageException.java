package dev.arbor.storage;

import org.jspecify.annotations.Nullable;

/** A session could not be read or written because of the disk; nothing was acknowledged. */
public class StorageException extends RuntimeException {

	public StorageException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
