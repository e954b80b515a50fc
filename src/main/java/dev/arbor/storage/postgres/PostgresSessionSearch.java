package dev.arbor.storage.postgres;

import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.SearchHit;
import dev.arbor.storage.SearchPage;
import dev.arbor.storage.SearchQuery;
import dev.arbor.storage.SearchText;
import dev.arbor.storage.SessionSearch;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Search in the PostgreSQL store (docs/STORAGE.md#search-in-postgresql): the GIN index on {@code arbor_search}
 * finds the entries whose words hold every clause, {@code ts_rank_cd} ranks them, and each hit's snippet is cut from
 * its entry's text as {@link SearchText} makes it from the stored line. The rows are written in the transaction of
 * their entries, so that a search sees every committed change, and the index is never partial.
 */
public final class PostgresSessionSearch implements SessionSearch {

	/**
	 * {@code ts_rank_cd}'s normalization: divided by 1 + the logarithm of the entry's length in words, so that a
	 * word in a short entry counts for more than in a long one, and one said twice still for more than once.
	 */
	private static final int RANK_NORMALIZATION = 1;

	private final JdbcTemplate jdbc;

	private final TransactionTemplate readOnly;

	public PostgresSessionSearch(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
		this.jdbc = jdbc;
		this.readOnly = new TransactionTemplate(transactionManager);
		this.readOnly.setReadOnly(true);
		// the page and its total from one snapshot
		this.readOnly.setIsolationLevel(TransactionTemplate.ISOLATION_REPEATABLE_READ);
	}

	@Override
	public SearchPage search(SearchQuery query) {
		List<Object> parameters = new ArrayList<>();
		parameters.add(SearchTable.query(query.clauses()));
		StringBuilder where = new StringBuilder(" WHERE x.words @@ q.query");
		if (query.sessionId() != null) {
			where.append(" AND x.session_id = ?");
			parameters.add(query.sessionId());
		}
		if (query.cwd() != null) {
			where.append(" AND x.session_id IN (SELECT id FROM arbor_session WHERE cwd = ?)");
			parameters.add(query.cwd().getBytes(StandardCharsets.UTF_8));
		}
		if (!query.roles().isEmpty()) {
			where.append(" AND x.role = ANY (?)");
			parameters.add(query.roles().toArray(String[]::new));
		}
		if (query.after() != null) {
			where.append(" AND x.timestamp >= ?");
			parameters.add(query.after());
		}
		if (query.before() != null) {
			where.append(" AND x.timestamp < ?");
			parameters.add(query.before());
		}
		String from = " FROM arbor_search x CROSS JOIN (SELECT CAST(? AS tsquery) AS query) q";
		List<Object> paged = new ArrayList<>(parameters);
		paged.add(query.limit());
		paged.add(query.offset());
		return Objects.requireNonNull(this.readOnly.execute(status -> {
			Long total = this.jdbc.queryForObject("SELECT count(*)" + from + where, Long.class, parameters.toArray());
			List<SearchHit> hits = this.jdbc.query("SELECT x.session_id, x.role, x.timestamp, e.line, ts_rank_cd(x.words, q.query, "
					+ RANK_NORMALIZATION + ") AS score" + from
					+ " JOIN arbor_entry e ON e.session_id = x.session_id AND e.seq = x.seq" + where
					+ " ORDER BY score DESC, x.session_id, x.seq LIMIT ? OFFSET ?",
					(ResultSet rs, int row) -> hit(rs, query), paged.toArray());
			long all = (total != null) ? total : 0;
			return new SearchPage(hits, query.nextCursor(all), all, false);
		}));
	}

	private static SearchHit hit(ResultSet rs, SearchQuery query) throws SQLException {
		EntryLine entry = EntryLine.of(rs.getBytes("line"));
		// the text and role as the entry has them; the row's role is only what the filter compares
		@Nullable SearchText text = SearchText.of(entry);
		return SearchHit.of(rs.getString("session_id"), entry.id(), (text != null) ? text.role() : rs.getString("role"),
				rs.getLong("timestamp"), (text != null) ? text.text() : "", query, rs.getFloat("score"));
	}

}
