package dev.arbor.config;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Leaves out the JDBC and Flyway auto-configurations unless a store of this process is PostgreSQL: the server's
 * ({@code arbor.storage.type=postgres}), or the copy command's source or target ({@code arbor.copy.from},
 * {@code arbor.copy.to}, which its {@code --from} and {@code --to} stand for). Registered in
 * {@code META-INF/spring.factories}.
 *
 * <p>Why a filter: the PostgreSQL store's libraries are always on the class path, and without a
 * {@code spring.datasource.url} Boot's data source fails the start; the file store must start as it did, with no
 * database configured (and with nothing of JDBC loaded).
 */
final class StorageTypeImports implements AutoConfigurationImportFilter, EnvironmentAware {

	private static final String[] DATABASE_PACKAGES = { "org.springframework.boot.jdbc.",
			"org.springframework.boot.flyway.", "org.springframework.boot.sql." };

	/** Where a process names its stores: the server's one, the copy command's two. Unset, a store is a folder. */
	private static final List<String> STORE_PROPERTIES = List.of("arbor.storage.type", "arbor.copy.from",
			"arbor.copy.to");

	private boolean anyPostgresStore = true;

	@Override
	public void setEnvironment(Environment environment) {
		Binder binder = Binder.get(environment);
		this.anyPostgresStore = STORE_PROPERTIES.stream().anyMatch(property -> isPostgres(binder, property));
	}

	@Override
	public boolean[] match(@Nullable String[] autoConfigurationClasses,
			AutoConfigurationMetadata autoConfigurationMetadata) {
		boolean[] matches = new boolean[autoConfigurationClasses.length];
		for (int i = 0; i < autoConfigurationClasses.length; i++) {
			String candidate = autoConfigurationClasses[i];
			matches[i] = candidate == null || this.anyPostgresStore || !isDatabase(candidate);
		}
		return matches;
	}

	private static boolean isPostgres(Binder binder, String property) {
		try {
			return binder.bind(property, StorageType.class).map(StorageType.POSTGRES::equals).orElse(false);
		}
		catch (BindException ex) {
			return true; // not a type: everything stays, and validating the properties says why
		}
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
