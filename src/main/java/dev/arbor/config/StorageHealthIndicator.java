package dev.arbor.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Whether the storage directory takes writes: a file is created in it and deleted again, as an append or a new
 * session would need. Part of readiness, so that a full or read-only volume takes the instance out of rotation
 * instead of failing every write.
 */
class StorageHealthIndicator extends AbstractHealthIndicator {

	private final Path directory;

	StorageHealthIndicator(Path directory) {
		super("The storage directory is not writable");
		this.directory = directory;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws IOException {
		builder.withDetail("directory", this.directory.toString());
		Path probe = Files.createTempFile(this.directory, ".arbor-health-", ".tmp");
		try {
			Files.write(probe, new byte[] { 1 });
		}
		finally {
			Files.deleteIfExists(probe);
		}
		builder.up();
	}

}
