package dev.arbor.storage.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * The PostgreSQL that tests use, and a fresh database in it for each test class (so that classes, and the
 * application contexts that outlive them, never see each other's sessions, locks or events):
 * <ul>
 * <li>the server that {@code ARBOR_TEST_POSTGRES_URL} names (a JDBC URL to a database the user may
 * {@code CREATE DATABASE} from, e.g. {@code jdbc:postgresql://localhost:5432/postgres}), with
 * {@code ARBOR_TEST_POSTGRES_USER} (default {@code postgres}) and {@code ARBOR_TEST_POSTGRES_PASSWORD} (default
 * {@code postgres}): what {@code .ci/run} starts from Debian's package;</li>
 * <li>else, where Docker runs, a Testcontainers PostgreSQL;</li>
 * <li>else none: the tests are skipped ({@link RequiresPostgres}), unless {@code ARBOR_REQUIRE_POSTGRES=true}
 * (set by {@code .ci/run}), which fails them instead.</li>
 * </ul>
 */
public final class TestDatabases {

	public static final String URL_VARIABLE = "ARBOR_TEST_POSTGRES_URL";

	public static final String REQUIRED_VARIABLE = "ARBOR_REQUIRE_POSTGRES";

	private static final String IMAGE = "postgres:15-alpine";

	private static @Nullable Server server;

	private static @Nullable String unavailable;

	/** The databases this JVM created: dropped when it exits, so that runs on a long-lived server leave nothing. */
	private static final java.util.List<String> created = new java.util.concurrent.CopyOnWriteArrayList<>();

	private TestDatabases() {
	}

	/** A database of its own, created now. */
	public static Database create() {
		Server found = server();
		if (found == null) {
			throw new IllegalStateException(unavailable);
		}
		String name = "arbor_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
		try (Connection admin = DriverManager.getConnection(found.url(), found.user(), found.password());
				Statement statement = admin.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
			if (created.isEmpty()) {
				Runtime.getRuntime().addShutdownHook(new Thread(() -> dropCreated(found), "drop-test-databases"));
			}
			created.add(name);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Could not create a test database on " + found.url(), ex);
		}
		return new Database(found.urlOf(name), found.user(), found.password());
	}

	private static void dropCreated(Server server) {
		try (Connection admin = DriverManager.getConnection(server.url(), server.user(), server.password());
				Statement statement = admin.createStatement()) {
			for (String name : created) {
				statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
			}
		}
		catch (SQLException ex) {
			// the server is gone, or refuses: the databases stay, named arbor_test_*
		}
	}

	/** Why there is no PostgreSQL to test against, or {@code null} when there is one. */
	static synchronized @Nullable String unavailable() {
		server();
		return unavailable;
	}

	static boolean required() {
		return "true".equalsIgnoreCase(System.getenv(REQUIRED_VARIABLE));
	}

	private static synchronized @Nullable Server server() {
		if (server != null || unavailable != null) {
			return server;
		}
		String url = System.getenv(URL_VARIABLE);
		if (url != null && !url.isBlank()) {
			Server named = new Server(url, variable("ARBOR_TEST_POSTGRES_USER", "postgres"),
					variable("ARBOR_TEST_POSTGRES_PASSWORD", "postgres"));
			try (Connection connection = DriverManager.getConnection(named.url(), named.user(), named.password())) {
				server = named;
			}
			catch (SQLException ex) {
				unavailable = URL_VARIABLE + " names " + url + ", which does not answer: " + ex.getMessage();
			}
			return server;
		}
		if (isDockerAvailable()) {
			@SuppressWarnings("resource") // stopped by Testcontainers when the JVM exits
			PostgreSQLContainer container = new PostgreSQLContainer(IMAGE);
			container.start();
			server = new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword());
			return server;
		}
		unavailable = "No PostgreSQL to test against: set " + URL_VARIABLE
				+ " (e.g. jdbc:postgresql://localhost:5432/postgres) or run Docker";
		return null;
	}

	private static boolean isDockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static String variable(String name, String otherwise) {
		String value = System.getenv(name);
		return (value != null) ? value : otherwise;
	}

	/** A server, and the database on it that new databases are created from. */
	private record Server(String url, String user, String password) {

		/** The same server's database of that name: the URL with its path replaced. */
		String urlOf(String database) {
			int slash = this.url.indexOf('/', "jdbc:postgresql://".length());
			int query = this.url.indexOf('?', slash);
			String rest = (query >= 0) ? this.url.substring(query) : "";
			return this.url.substring(0, slash + 1) + database.toLowerCase(Locale.ROOT) + rest;
		}

	}

	/** One test class's database. */
	public record Database(String url, String user, String password) {
	}

}
