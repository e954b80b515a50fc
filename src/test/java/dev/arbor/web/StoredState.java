package dev.arbor.web;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;

import dev.arbor.session.Json;
import dev.arbor.storage.postgres.TestDatabases;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * What a store holds, read behind the application's back: for the API contracts that run on both stores, to show
 * that a request changed nothing, or exactly what it stored.
 */
interface StoredState {

	/** Everything stored, by name: equal before and after a request that must change nothing. */
	Map<String, String> snapshot();

	/** The session as a file would hold it: its title slot (if any), header and entries, each line with its newline. */
	byte[] sessionBytes(String sessionId);

	/**
	 * The leaf the store has recorded for a session ({@code null} for "before the first entry"): read from the store,
	 * it shows that a leaf move was persisted and not only cached. Fails if the store records none.
	 */
	@Nullable String leafId(String sessionId);

	/** The file store's directory: every file with its content. */
	static StoredState files(Path storage) {
		return new StoredState() {

			@Override
			public Map<String, String> snapshot() {
				return ApiSessions.files(storage);
			}

			@Override
			public byte[] sessionBytes(String sessionId) {
				try {
					return java.nio.file.Files.readAllBytes(ApiSessions.file(storage, sessionId));
				}
				catch (java.io.IOException ex) {
					throw new java.io.UncheckedIOException(ex);
				}
			}

			/** The file store records a moved leaf in the session file's {@code .leaf} sidecar. */
			@Override
			public @Nullable String leafId(String sessionId) {
				Path session = ApiSessions.file(storage, sessionId);
				Path sidecar = session.resolveSibling(session.getFileName() + ".leaf");
				try {
					JsonNode recorded = Json.MAPPER.readTree(java.nio.file.Files.readAllBytes(sidecar));
					if (!recorded.has("leafId")) {
						throw new IllegalStateException(sidecar + " records no leaf: " + recorded);
					}
					return recorded.get("leafId").isNull() ? null : recorded.get("leafId").asString();
				}
				catch (java.io.IOException ex) {
					throw new java.io.UncheckedIOException(ex);
				}
			}

		};
	}

	/**
	 * The PostgreSQL store's database: every row of its sessions and entries (not the events: a navigation that a hook
	 * cancels has sent its {@code session_before_tree}, which the file store keeps in memory only).
	 */
	static StoredState database(TestDatabases.Database database) {
		return new DatabaseState(database);
	}

	/** Reads the tables over a connection of its own. */
	final class DatabaseState implements StoredState {

		private static final String[] TABLES = { "arbor_session ORDER BY id", "arbor_entry ORDER BY session_id, seq" };

		private final TestDatabases.Database database;

		DatabaseState(TestDatabases.Database database) {
			this.database = database;
		}

		@Override
		public Map<String, String> snapshot() {
			Map<String, String> rows = new TreeMap<>();
			try (Connection connection = connect()) {
				for (String table : TABLES) {
					try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + table);
							ResultSet result = statement.executeQuery()) {
						ResultSetMetaData columns = result.getMetaData();
						int row = 0;
						while (result.next()) {
							StringBuilder text = new StringBuilder();
							for (int column = 1; column <= columns.getColumnCount(); column++) {
								text.append(columns.getColumnName(column)).append('=').append(text(result, column)).append(' ');
							}
							rows.put(table.substring(0, table.indexOf(' ')) + "#" + row++, text.toString());
						}
					}
				}
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
			return rows;
		}

		@Override
		public byte[] sessionBytes(String sessionId) {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream();
			try (Connection connection = connect()) {
				try (PreparedStatement statement = connection
					.prepareStatement("SELECT title_slot, header FROM arbor_session WHERE id = ?")) {
					statement.setString(1, sessionId);
					try (ResultSet result = statement.executeQuery()) {
						if (!result.next()) {
							throw new IllegalStateException("No session " + sessionId + " in the database");
						}
						line(bytes, result.getBytes(1));
						line(bytes, result.getBytes(2));
					}
				}
				try (PreparedStatement statement = connection
					.prepareStatement("SELECT line FROM arbor_entry WHERE session_id = ? ORDER BY seq")) {
					statement.setString(1, sessionId);
					try (ResultSet result = statement.executeQuery()) {
						while (result.next()) {
							line(bytes, result.getBytes(1));
						}
					}
				}
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
			return bytes.toByteArray();
		}

		@Override
		public @Nullable String leafId(String sessionId) {
			try (Connection connection = connect();
					PreparedStatement statement = connection.prepareStatement("SELECT leaf_id FROM arbor_session WHERE id = ?")) {
				statement.setString(1, sessionId);
				try (ResultSet result = statement.executeQuery()) {
					if (!result.next()) {
						throw new IllegalStateException("No session " + sessionId + " in the database");
					}
					return result.getString(1);
				}
			}
			catch (SQLException ex) {
				throw new IllegalStateException(ex);
			}
		}

		private Connection connect() throws SQLException {
			return DriverManager.getConnection(this.database.url(), this.database.user(), this.database.password());
		}

		private static void line(ByteArrayOutputStream bytes, byte @Nullable [] line) {
			if (line != null) {
				bytes.writeBytes(line);
				bytes.write('\n');
			}
		}

		private static String text(ResultSet result, int column) throws SQLException {
			Object value = result.getObject(column);
			return (value instanceof byte[] raw) ? new String(raw, StandardCharsets.UTF_8) : String.valueOf(value);
		}

	}

}
