package dev.arbor.events;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code session_before_tree} event's data: bounded, whatever the number of entries left behind. */
class TreePreparationTests {

	@Test
	void eventDataWhenThousandsOfEntriesAreLeftBehindShouldCountThemAndListTheFirst100() {
		TreePreparation preparation = preparation(20_000);

		String data = Json.toString(preparation.eventData());

		assertThat(data.getBytes(StandardCharsets.UTF_8)).hasSizeLessThan(2_000);
		JsonNode event = Json.MAPPER.readTree(data);
		assertThat(event.get("entriesToSummarizeCount").asInt()).isEqualTo(20_000);
		assertThat(event.get("firstEntryIdToSummarize").asString()).isEqualTo("e0000000");
		assertThat(event.get("lastEntryIdToSummarize").asString()).isEqualTo("e0019999");
		assertThat(event.get("leadingEntryIdsToSummarize")).hasSize(TreePreparation.EVENT_ID_LIMIT);
		assertThat(event.get("leadingEntryIdsToSummarize").get(99).asString()).isEqualTo("e0000099");
		assertThat(event.get("entryIdsToSummarizeTruncated").asBoolean()).isTrue();
		assertThat(event.has("entryIdsToSummarize")).isFalse();
		assertThat(preparation.entriesToSummarize()).hasSize(20_000);
	}

	@Test
	void eventDataWhenAtMost100EntriesAreLeftBehindShouldListThemAll() {
		JsonNode event = preparation(100).eventData();

		assertThat(event.get("entriesToSummarizeCount").asInt()).isEqualTo(100);
		assertThat(event.get("leadingEntryIdsToSummarize")).hasSize(100);
		assertThat(event.get("entryIdsToSummarizeTruncated").asBoolean()).isFalse();
		assertThat(event.get("lastEntryIdToSummarize").asString()).isEqualTo("e0000099");
	}

	@Test
	void eventDataWhenNothingIsLeftBehindShouldHaveNoFirstOrLast() {
		JsonNode event = new TreePreparation("s1", "t1", null, null, List.of(), true, "Be brief.").eventData();

		assertThat(Json.toString(event)).isEqualTo("{\"targetId\":\"t1\",\"oldLeafId\":null,\"commonAncestorId\":null,"
				+ "\"entriesToSummarizeCount\":0,\"firstEntryIdToSummarize\":null,\"lastEntryIdToSummarize\":null,"
				+ "\"leadingEntryIdsToSummarize\":[],\"entryIdsToSummarizeTruncated\":false,\"userWantsSummary\":true}");
	}

	private static TreePreparation preparation(int abandoned) {
		List<EntryLine> entries = new ArrayList<>(abandoned);
		for (int i = 0; i < abandoned; i++) {
			String parent = (i > 0) ? "\"e" + String.format("%07d", i - 1) + "\"" : "\"a1\"";
			entries.add(EntryLine.of(("{\"type\":\"custom\",\"id\":\"e" + String.format("%07d", i) + "\",\"parentId\":"
					+ parent + ",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"customType\":\"x\"}")
				.getBytes(StandardCharsets.UTF_8)));
		}
		return new TreePreparation("s1", "a1", entries.get(abandoned - 1).id(), "a1", entries, false, null);
	}

}
