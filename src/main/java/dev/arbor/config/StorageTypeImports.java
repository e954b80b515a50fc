package dev.arbor.config;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Leaves out the JDBC and Flyway auto-configurations unless {@code arbor.storage.type} is {@code postgres}.
 * Registered in {@code META-INF/spring.factories}.
 *
 * <p>Why a filter: the PostgreSQL store's libraries are always on the class path, and without a
 * {@code spring.datasource.url} Boot's data source fails the start; the file store must start as it did, with no
 * database configured (and with nothing of JDBC loaded).
 */
final class StorageTypeImports implements AutoConfigurationImportFilter, EnvironmentAware {

	private static final String[] DATABASE_PACKAGES = { "org.springframework.boot.jdbc.",
			"org.springframework.boot.flyway.", "org.springframework.boot.sql." };

	private @Nullable StorageType type;

	@Override
	public void setEnvironment(Environment environment) {
		try {
			this.type = Binder.get(environment).bind("arbor.storage.type", StorageType.class).orElse(StorageType.FILE);
		}
		catch (BindException ex) {
			this.type = null; // not a type: everything stays, and validating ArborProperties says why
		}
	}

	@Override
	public boolean[] match(@Nullable String[] autoConfigurationClasses,
			AutoConfigurationMetadata autoConfigurationMetadata) {
		boolean[] matches = new boolean[autoConfigurationClasses.length];
		for (int i = 0; i < autoConfigurationClasses.length; i++) {
			String candidate = autoConfigurationClasses[i];
			matches[i] = candidate == null || this.type != StorageType.FILE || !isDatabase(candidate);
		}
		return matches;
	}

	private static boolean isDatabase(String autoConfiguration) {
		for (String prefix : DATABASE_PACKAGES) {
			if (autoConfiguration.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

}
