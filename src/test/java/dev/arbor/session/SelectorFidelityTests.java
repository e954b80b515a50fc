package dev.arbor.session;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.arbor.Fixtures;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The selector rows against upstream's own tree selector: {@code selector/upstream-rows.json} holds what
 * pi-coding-agent 0.73.1 shows for each scenario of {@code selector/scenarios.json}, after each of its steps
 * (appends, leaf moves, labels), under every filter and search (written by {@code selector/generate.mjs}). Each row
 * and under the folds a scenario lists, is compared on its order, indentation, connector, guides, child count and
 * active path, and on the line upstream
 * draws for it, which Arbor's row must draw the same from its fields and text as docs/SESSION-FORMAT.md#the-selector-rows
 * says; each view is compared on its selected row. The steps run on one tree in turn, so the views kept between
 * requests are checked as they are rebuilt after each change.
 */
class SelectorFidelityTests {

	@TestFactory
	Stream<DynamicNode> rowsShouldDrawAsUpstreamsSelectorDoes() throws IOException {
		JsonNode scenarios = resource("selector/scenarios.json");
		JsonNode expected = resource("selector/upstream-rows.json");
		List<DynamicNode> containers = new ArrayList<>();
		for (JsonNode scenario : scenarios) {
			JsonNode upstream = find(expected, scenario.get("name").asString());
			containers.add(DynamicContainer.dynamicContainer(scenario.get("name").asString(),
					Stream.of(DynamicTest.dynamicTest("every step", () -> replay(scenario, upstream)))));
		}
		return containers.stream();
	}

	private static void replay(JsonNode scenario, JsonNode upstream) {
		SessionTree tree = load(scenario.get("session").asString());
		JsonNode steps = scenario.get("steps");
		for (int i = 0; i < steps.size(); i++) {
			JsonNode step = steps.get(i);
			if (step.has("append")) {
				List<EntryLine> lines = new ArrayList<>();
				step.get("append").forEach(entry -> lines.add(EntryLine.of(Json.MAPPER.writeValueAsBytes(entry))));
				tree.append(lines);
			}
			if (step.has("leaf")) {
				tree.moveLeaf(step.get("leaf").isNull() ? null : step.get("leaf").asString());
			}
			JsonNode upstreamStep = upstream.get("steps").get(i);
			assertThat(tree.leafId()).as("leaf after step %d", i).isEqualTo(text(upstreamStep.get("leaf")));
			for (JsonNode view : upstreamStep.get("views")) {
				RowFilter filter = RowFilter.fromName(view.get("filter").asString());
				String query = view.get("query").asString();
				Set<String> folded = new LinkedHashSet<>();
				view.path("folded").forEach(id -> folded.add(id.asString()));
				TreeRows rows = tree.getTreeRows(filter, query.isEmpty() ? null : query, folded);
				String where = "step " + i + " (" + step.get("note").asString() + "), filter " + filter.apiName()
						+ ", query '" + query + "', folded " + folded;
				assertThat(drawn(rows)).as(where).containsExactlyElementsOf(upstreamRows(tree, view.get("rows")));
				assertThat((rows.selectedIndex() >= 0) ? rows.idAt(rows.selectedIndex()) : null).as(where + ": selected")
					.isEqualTo(text(view.get("selected")));
			}
		}
	}

	/**
	 * Each row as upstream's file writes it: id, depth, connector, guides, child count, on the active path, and the
	 * line drawn as docs/SESSION-FORMAT.md#the-selector-rows says a renderer draws it.
	 */
	private static List<String> drawn(TreeRows rows) {
		return rows.rows(0, rows.matched())
			.stream()
			.map(row -> String.join(" | ", row.id(), String.valueOf(row.depth()),
					(row.connector() != null) ? row.connector().name().toLowerCase() : "-", row.guides().toString(),
					String.valueOf(row.childCount()), String.valueOf(row.onActivePath()), line(row)))
			.toList();
	}

	/**
	 * Three characters a column (a guide, the connector or blanks), the fold of a row without a connector, the active
	 * path's mark, the label, the text.
	 */
	private static String line(TreeRow row) {
		StringBuilder line = new StringBuilder();
		for (int column = 0; column < row.depth(); column++) {
			if (row.guides().contains(column)) {
				line.append("│  ");
			}
			else if (column == row.depth() - 1 && row.connector() != null) {
				line.append((row.connector() == TreeRow.Connector.BRANCH) ? '├' : '└')
					.append(row.folded() ? '⊞' : (row.childCount() > 0) ? '⊟' : '─')
					.append(' ');
			}
			else {
				line.append("   ");
			}
		}
		line.append((row.folded() && row.connector() == null) ? "⊞ " : "").append(row.onActivePath() ? "• " : "").append((row.label() != null) ? "[" + row.label() + "] " : "");
		return line.append(row.text()).toString();
	}

	private static List<String> upstreamRows(SessionTree tree, JsonNode rows) {
		List<String> drawn = new ArrayList<>();
		for (JsonNode row : rows) {
			List<Integer> guides = new ArrayList<>();
			row.get(3).forEach(guide -> guides.add(guide.asInt()));
			drawn.add(String.join(" | ", row.get(0).asString(), String.valueOf(row.get(1).asInt()),
					row.get(2).isNull() ? "-" : row.get(2).asString(), guides.toString(),
					String.valueOf(row.get(4).asInt()), String.valueOf(row.get(5).asBoolean()),
					followedLine(tree.requireEntry(row.get(0).asString()), row.get(6).asString())));
		}
		return drawn;
	}

	/**
	 * Upstream's line, where Arbor follows oh-my-pi (docs/SESSION-FORMAT.md#the-selector-rows): upstream names a model
	 * change by its {@code modelId}, which oh-my-pi's entries do not have, so it writes {@code undefined} where oh-my-pi
	 * and Arbor write their {@code model}.
	 */
	private static String followedLine(EntryLine entry, String line) {
		JsonNode model = entry.toNode().get("model");
		if (entry.isType(EntryTypes.MODEL_CHANGE) && !entry.toNode().has("modelId") && model != null) {
			return line.replace("[model: undefined]", "[model: " + model.asString() + "]");
		}
		return line;
	}

	private static JsonNode find(JsonNode expected, String name) {
		for (JsonNode scenario : expected) {
			if (scenario.get("name").asString().equals(name)) {
				return scenario;
			}
		}
		throw new IllegalStateException("upstream-rows.json has no scenario '" + name + "': run generate.mjs");
	}

	private static String text(JsonNode node) {
		return node.isNull() ? null : node.asString();
	}

	// sessions, read here because storage is not part of this package

	/** {@code fixtures/…} are upstream's files (skipped where absent), the rest test resources. */
	private static SessionTree load(String name) {
		List<String> lines;
		try {
			if (name.startsWith("fixtures/")) {
				lines = Files.readAllLines(Fixtures.path(name.substring("fixtures/".length())), StandardCharsets.UTF_8);
			}
			else {
				try (InputStream in = resourceStream(name)) {
					lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		// An oh-my-pi title line may come before the header.
		int header = 0;
		while (!lines.get(header).contains("\"type\":\"session\"")) {
			header++;
		}
		SessionHeader parsed = SessionHeader.parse(Json.parseObject(lines.get(header).getBytes(StandardCharsets.UTF_8)));
		List<EntryLine> entries = lines.subList(header + 1, lines.size())
			.stream()
			.filter(line -> !line.isBlank())
			.map(line -> EntryLine.of(toVersion3(parsed.version(), line).getBytes(StandardCharsets.UTF_8)))
			.toList();
		return SessionTree.of(parsed, null, entries);
	}

	/**
	 * A version-2 line as the store (and upstream) bring it to version 3 before the tree sees it
	 * (docs/SESSION-FORMAT.md#versions-and-migrations): a {@code hookMessage} role is called {@code custom}.
	 */
	private static String toVersion3(int version, String line) {
		if (version != 2) {
			return line;
		}
		ObjectNode entry = Json.parseObject(line.getBytes(StandardCharsets.UTF_8));
		if (entry.path("message").path("role").asString("").equals("hookMessage")) {
			((ObjectNode) entry.get("message")).put("role", "custom");
			return Json.MAPPER.writeValueAsString(entry);
		}
		return line;
	}

	private static JsonNode resource(String name) throws IOException {
		try (InputStream in = resourceStream(name)) {
			return Json.MAPPER.readTree(in);
		}
	}

	private static InputStream resourceStream(String name) {
		InputStream in = SelectorFidelityTests.class.getClassLoader().getResourceAsStream(name);
		assertThat(in).as(name).isNotNull();
		return in;
	}

}
