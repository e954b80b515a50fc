package dev.arbor.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.arbor.session.Json;
import dev.arbor.storage.postgres.PostgresProperties;
import dev.arbor.storage.postgres.RequiresPostgres;
import dev.arbor.storage.postgres.TestDatabases;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PiListingContract} on the PostgreSQL store, the sessions imported; and the listing of rows stored before
 * its columns, filled in from their entries when the store starts (db/migration/V4__session_listing.sql).
 */
@RequiresPostgres
@DirtiesContext // its own database: the context is never used again, and its connections go back now
class PostgresPiListingTests extends PiListingContract {

	private static final Pattern HEADER_ID = Pattern.compile("\"type\":\"session\"[^\\n]*?\"id\":\"([^\"]+)\"");

	static TestDatabases.Database database;

	@DynamicPropertySource
	static void postgres(DynamicPropertyRegistry registry) {
		database = PostgresProperties.register(registry);
	}

	@Override
	void store(String name, String text) {
		Matcher id = HEADER_ID.matcher(text);
		assertThat(id.find()).as("a header in %s", name).isTrue();
		ApiSessions.importOnce(this.client, id.group(1), text.getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void rowsStoredBeforeTheListingColumnsShouldBeListedAsPiDoesOnceTheStoreStarts() throws Exception {
		everySessionShouldBeListedWithPisNameFirstMessageAndMessageCount();
		try (Connection connection = DriverManager.getConnection(database.url(), database.user(), database.password());
				Statement statement = connection.createStatement()) {
			// what the rows of an older Arbor hold after the migration added the columns
			statement.executeUpdate("UPDATE arbor_session SET name = NULL, first_message = NULL, message_count = NULL");
		}
		try (RestartedApp restarted = RestartedApp.start("arbor.storage.type=postgres",
				"spring.datasource.url=" + database.url(), "spring.datasource.username=" + database.user(),
				"spring.datasource.password=" + database.password())) {
			assertListedAsPiDoes(this.listedByPi, listed(restarted.port()));
		}
		try (Connection connection = DriverManager.getConnection(database.url(), database.user(), database.password());
				Statement statement = connection.createStatement();
				var unfilled = statement.executeQuery("SELECT count(*) FROM arbor_session WHERE message_count IS NULL")) {
			unfilled.next();
			assertThat(unfilled.getInt(1)).as("rows left unfilled").isZero();
		}
	}

	private static Map<String, JsonNode> listed(int port) throws IOException, InterruptedException, SQLException {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/sessions?limit=100")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		Map<String, JsonNode> byId = new LinkedHashMap<>();
		Json.MAPPER.readTree(response.body()).get("items").forEach((session) -> byId.put(session.get("id").asString(), session));
		return byId;
	}

}
