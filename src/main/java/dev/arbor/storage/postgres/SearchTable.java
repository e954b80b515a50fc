package dev.arbor.storage.postgres;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.SearchQuery;
import dev.arbor.storage.SearchText;
import dev.arbor.storage.SearchTokens;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The search rows of entries ({@code arbor_search}; see {@code db/migration/V5__search.sql}) and how a query reads
 * them: words made by {@link SearchTokens}, written as {@code tsvector} and {@code tsquery} literals, so that
 * PostgreSQL's parsers and dictionaries never decide what a word is. Runs in the caller's transaction, if any.
 */
final class SearchTable {

	/** The largest position a {@code tsvector} holds: later words are all at this one. */
	static final int MAX_POSITION = 16_383;

	/** The most positions a {@code tsvector} keeps of one word. */
	static final int MAX_POSITIONS = 256;

	private final JdbcTemplate template;

	SearchTable(JdbcTemplate template) {
		this.template = template;
	}

	/**
	 * Writes the search rows of entries {@code firstSeq} onward, those that contribute text. A row there already (a
	 * session indexed at start-up that an append reached first) stays as it is.
	 */
	void insert(String sessionId, int firstSeq, List<EntryLine> entries) {
		List<Row> rows = new ArrayList<>();
		for (int i = 0; i < entries.size(); i++) {
			EntryLine entry = entries.get(i);
			SearchText text = SearchText.of(entry);
			String vector = (text != null) ? vector(text.text()) : "";
			if (!vector.isEmpty()) {
				rows.add(new Row(firstSeq + i, storedRole(text.role()), entry.timestamp(), vector));
			}
		}
		if (rows.isEmpty()) {
			return;
		}
		this.template.batchUpdate("""
				INSERT INTO arbor_search (session_id, seq, role, timestamp, words) VALUES (?, ?, ?, ?, CAST(? AS tsvector))
				ON CONFLICT (session_id, seq) DO NOTHING""", new BatchPreparedStatementSetter() {

			@Override
			public void setValues(PreparedStatement statement, int i) throws SQLException {
				Row row = rows.get(i);
				statement.setString(1, sessionId);
				statement.setInt(2, row.seq());
				statement.setString(3, row.role());
				statement.setLong(4, row.timestamp());
				statement.setString(5, row.vector());
			}

			@Override
			public int getBatchSize() {
				return rows.size();
			}

		});
	}

	/**
	 * A role as {@code text} holds it: PostgreSQL's text holds no NUL, which a JSON string may. A NUL becomes U+FFFD,
	 * so that the role still matches no filter it did not match before (a filter's role has letters, digits, _ and -
	 * only); hits report the role as the entry has it, read from its line.
	 */
	static String storedRole(String role) {
		return role.replace('\0', '\uFFFD');
	}

	/**
	 * The {@code tsvector} literal of a text: each word {@link SearchTokens} finds, quoted, with its positions
	 * (counted from 1, as PostgreSQL counts), so that phrases match word after word; empty when there is no word.
	 */
	static String vector(String text) {
		Map<String, List<Integer>> positions = new LinkedHashMap<>();
		int position = 0;
		for (SearchTokens.Word word : SearchTokens.words(text)) {
			position = Math.min(position + 1, MAX_POSITION);
			List<Integer> at = positions.computeIfAbsent(word.term(), term -> new ArrayList<>());
			if (at.size() < MAX_POSITIONS && (at.isEmpty() || at.get(at.size() - 1) != position)) {
				at.add(position);
			}
		}
		StringBuilder vector = new StringBuilder();
		positions.forEach((term, at) -> {
			if (vector.length() > 0) {
				vector.append(' ');
			}
			quote(vector, term);
			vector.append(':');
			for (int i = 0; i < at.size(); i++) {
				if (i > 0) {
					vector.append(',');
				}
				vector.append(at.get(i));
			}
		});
		return vector.toString();
	}

	/**
	 * The {@code tsquery} literal of a query's clauses, all of which must match: a word as itself, a prefix with
	 * {@code :*}, a phrase as its words joined by {@code <->}. The terms are quoted, so no character of the user's
	 * query is ever read as an operator; the literal itself goes to PostgreSQL as a bound parameter.
	 */
	static String query(List<SearchQuery.Clause> clauses) {
		StringBuilder query = new StringBuilder();
		for (SearchQuery.Clause clause : clauses) {
			if (query.length() > 0) {
				query.append(" & ");
			}
			if (clause.isPhrase()) {
				query.append('(');
				for (int i = 0; i < clause.words().size(); i++) {
					if (i > 0) {
						query.append(" <-> ");
					}
					quote(query, clause.words().get(i));
				}
				query.append(')');
			}
			else {
				quote(query, clause.words().get(0));
				if (clause.prefix()) {
					query.append(":*");
				}
			}
		}
		return query.toString();
	}

	/** A lexeme in quotes, as both literals read one: a quote doubled, a backslash escaped. */
	private static void quote(StringBuilder literal, String term) {
		literal.append('\'').append(term.replace("\\", "\\\\").replace("'", "''")).append('\'');
	}

	private record Row(int seq, String role, long timestamp, String vector) {
	}

}
