package dev.arbor.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** The storage directory's health: UP while a file can be created in it, DOWN otherwise, leaving nothing behind. */
class StorageHealthIndicatorTests {

	@TempDir
	Path dir;

	@Test
	void aWritableDirectoryShouldBeUpAndKeepNoProbeFile() throws IOException {
		Health health = new StorageHealthIndicator(this.dir).health(true);
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("directory", this.dir.toString());
		try (var files = Files.list(this.dir)) {
			assertThat(files).isEmpty();
		}
	}

	@Test
	void aMissingDirectoryShouldBeDown() {
		assertThat(new StorageHealthIndicator(this.dir.resolve("gone")).health(true).getStatus())
			.isEqualTo(Status.DOWN);
	}

	@Test
	void aFileWhereTheDirectoryShouldBeShouldBeDown() throws IOException {
		Path file = Files.writeString(this.dir.resolve("sessions"), "not a directory");
		assertThat(new StorageHealthIndicator(file).health(true).getStatus()).isEqualTo(Status.DOWN);
	}

	@Test
	void aReadOnlyDirectoryShouldBeDown() throws IOException {
		assumeFalse("root".equals(System.getProperty("user.name")), "root writes to read-only directories");
		Path readOnly = Files.createDirectory(this.dir.resolve("read-only"));
		Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
		try {
			assertThat(new StorageHealthIndicator(readOnly).health(true).getStatus()).isEqualTo(Status.DOWN);
		}
		finally {
			Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
		}
	}

}
