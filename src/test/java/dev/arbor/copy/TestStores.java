package dev.arbor.copy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.arbor.operations.SessionGates;
import dev.arbor.operations.SessionOperations;
import dev.arbor.operations.Snapshot;
import dev.arbor.session.SessionLines;
import dev.arbor.storage.SessionStore;
import dev.arbor.storage.StorageMetrics;
import dev.arbor.storage.file.FileSessionStore;
import dev.arbor.storage.file.FsyncPolicy;
import dev.arbor.storage.postgres.DatabaseNotifications;
import dev.arbor.storage.postgres.PostgresSessionStore;
import dev.arbor.storage.postgres.TestDatabases;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The stores a test seeds and reads behind the copy command's back, made directly: a folder's, and a database's
 * (its schema migrated by Flyway from the same scripts as the server's). Both are real.
 */
final class TestStores {

	private TestStores() {
	}

	static FileSessionStore folder(Path dir) {
		return new FileSessionStore(dir, FsyncPolicy.ALWAYS, Long.MAX_VALUE, Clock.systemUTC());
	}

	static PostgresSessionStore database(TestDatabases.Database database) {
		DriverManagerDataSource dataSource = new DriverManagerDataSource(database.url(), database.user(),
				database.password());
		Flyway.configure().dataSource(dataSource).load().migrate();
		return new PostgresSessionStore(new JdbcTemplate(dataSource), new DataSourceTransactionManager(dataSource),
				"test", Long.MAX_VALUE, Long.MAX_VALUE, Clock.systemUTC(), StorageMetrics.NONE,
				new DatabaseNotifications(dataSource, Duration.ofSeconds(1)), Duration.ofSeconds(15), Duration.ofHours(24));
	}

	/** What {@code GET /sessions/{id}/export} sends: the file's bytes, with the leaf its {@code ETag} names. */
	static Exported export(SessionStore store, String sessionId) {
		Snapshot<SessionLines> export = new SessionOperations(store, new SessionGates()).export(sessionId);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try {
			export.value().writeTo(out);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return new Exported(new String(out.toByteArray(), StandardCharsets.ISO_8859_1), export.leafId());
	}

	/** Every file under a folder (relative path → content, byte for byte): equal before and after only if untouched. */
	static Map<String, String> files(Path dir) {
		Map<String, String> files = new TreeMap<>();
		try (Stream<Path> walk = Files.walk(dir)) {
			for (Path file : walk.filter(Files::isRegularFile).toList()) {
				files.put(dir.relativize(file).toString(), new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return files;
	}

	/**
	 * Every session row as written (its position counts its changes) with its entries, and the events: equal before
	 * and after only if nothing was written.
	 */
	static List<String> rows(TestDatabases.Database database) {
		List<String> rows = new ArrayList<>();
		try (Connection connection = DriverManager.getConnection(database.url(), database.user(), database.password());
				Statement statement = connection.createStatement()) {
			try (ResultSet sessions = statement.executeQuery(
					"SELECT id, incarnation, position, leaf_id, changed_at, (SELECT count(*) FROM arbor_entry e"
							+ " WHERE e.session_id = s.id) FROM arbor_session s ORDER BY id")) {
				while (sessions.next()) {
					rows.add(sessions.getString(1) + " " + sessions.getString(2) + " " + sessions.getLong(3) + " "
							+ sessions.getString(4) + " " + sessions.getLong(5) + " " + sessions.getLong(6));
				}
			}
			try (ResultSet events = statement.executeQuery("SELECT count(*) FROM arbor_event")) {
				events.next();
				rows.add("events " + events.getLong(1));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		return rows;
	}

	/** The types of the events written, oldest first. */
	static List<String> eventTypes(TestDatabases.Database database) {
		List<String> types = new ArrayList<>();
		try (Connection connection = DriverManager.getConnection(database.url(), database.user(), database.password());
				Statement statement = connection.createStatement();
				ResultSet events = statement.executeQuery("SELECT type FROM arbor_event ORDER BY tx, seq")) {
			while (events.next()) {
				types.add(events.getString(1));
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
		return types;
	}

	/**
	 * A session's export.
	 *
	 * @param file the file's bytes, one char each (ISO-8859-1): equal strings are equal bytes
	 * @param leafId the leaf
	 */
	record Exported(String file, @Nullable String leafId) {
	}

}
