package dev.arbor.storage.postgres;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.session.ListingFacts;
import dev.arbor.session.NewSession;
import dev.arbor.session.SessionHeader;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The SQL of sessions and their entries ({@code arbor_session}, {@code arbor_entry}; see
 * {@code db/migration/V1__session_store.sql}). Runs in the caller's transaction, if any.
 */
final class SessionTable {

	/** Entries go to the database in batches of this many rows. */
	private static final int BATCH = 1_000;

	private static final String COLUMNS = """
			id, incarnation, position, header, title_slot, title, name, first_message, message_count, leaf_id,
			entry_count, bytes, last_entry_timestamp, changed_at, (nav_expires_at > now() AND nav_owner IS DISTINCT FROM ?) AS nav_elsewhere""";

	private final JdbcClient jdbc;

	private final JdbcTemplate template;

	private final SearchTable search;

	/** This replica, as a navigation's lease names it. */
	private final String replicaId;

	SessionTable(JdbcTemplate template, String replicaId) {
		this.template = template;
		this.jdbc = JdbcClient.create(template);
		this.search = new SearchTable(template);
		this.replicaId = replicaId;
	}

	/** See {@link SessionLocks}. */
	void lock(String sessionId) {
		SessionLocks.lock(this.jdbc, sessionId);
	}

	Optional<SessionRow> find(String sessionId) {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM arbor_session WHERE id = ?")
			.param(this.replicaId)
			.param(sessionId)
			.query(SessionTable::row)
			.optional();
	}

	/** Every session, newest id first. */
	List<SessionRow> all() {
		return this.jdbc.sql("SELECT " + COLUMNS + " FROM arbor_session ORDER BY id DESC")
			.param(this.replicaId)
			.query(SessionTable::row)
			.list();
	}

	/**
	 * Inserts a new session and its entries.
	 *
	 * @return false when a session of that id exists already (nothing is written)
	 */
	boolean insert(NewSession session, @Nullable String title, ListingFacts listing, long bytes,
			long lastEntryTimestamp, long changedAt) {
		int inserted = this.jdbc.sql("""
				INSERT INTO arbor_session (id, header, title_slot, title, name, first_message, message_count, leaf_id,
					entry_count, bytes, last_entry_timestamp, changed_at, cwd)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING""")
			.param(session.header().id())
			.param(session.header().json().bytes())
			.param((session.titleSlot() != null) ? session.titleSlot().line().bytes() : null)
			.param(title)
			.param(utf8(listing.name()))
			.param(utf8(listing.firstMessage()))
			.param(listing.messageCount())
			.param(session.leafId())
			.param(session.entries().size())
			.param(bytes)
			.param(lastEntryTimestamp)
			.param(changedAt)
			.param(utf8(session.header().cwd()))
			.update();
		if (inserted == 0) {
			return false;
		}
		insertEntries(session.header().id(), 0, session.entries());
		return true;
	}

	/** Inserts entries, with their search rows: every insert, append, import and fork comes through here. */
	void insertEntries(String sessionId, int firstSeq, List<EntryLine> entries) {
		for (int from = 0; from < entries.size(); from += BATCH) {
			List<EntryLine> batch = entries.subList(from, Math.min(entries.size(), from + BATCH));
			int seq = firstSeq + from;
			this.template.batchUpdate("INSERT INTO arbor_entry (session_id, seq, line) VALUES (?, ?, ?)",
					new BatchPreparedStatementSetter() {

						@Override
						public void setValues(PreparedStatement statement, int i) throws SQLException {
							statement.setString(1, sessionId);
							statement.setInt(2, seq + i);
							statement.setBytes(3, batch.get(i).bytes());
						}

						@Override
						public int getBatchSize() {
							return batch.size();
						}

					});
			this.search.insert(sessionId, seq, batch);
		}
	}

	/** Ids of the sessions stored before search, whose entries have no search rows yet. */
	List<String> unsearched() {
		return this.jdbc.sql("SELECT id FROM arbor_session WHERE NOT search_ready").query(String.class).list();
	}

	/**
	 * Writes the search rows of a session stored before search, and its cwd, from its rows: under its lock, in a
	 * transaction, so that its entries stream in batches and no change comes between.
	 */
	void indexForSearch(SessionRow row) {
		String cwd = Objects.requireNonNull(SessionHeader.parse(Json.parseObject(row.header()))).cwd();
		int[] seq = { 0 };
		List<EntryLine> batch = new ArrayList<>();
		forEachEntryLine(row.id(), 0, row.entryCount(), line -> {
			batch.add(EntryLine.of(line));
			if (batch.size() == BATCH) {
				this.search.insert(row.id(), seq[0], batch);
				seq[0] += batch.size();
				batch.clear();
			}
		});
		this.search.insert(row.id(), seq[0], batch);
		this.jdbc.sql("UPDATE arbor_session SET cwd = ?, search_ready = true WHERE id = ?")
			.param(utf8(cwd))
			.param(row.id())
			.update();
	}

	/** Records appended entries: the session's new leaf, count, size and listing. */
	long appended(String sessionId, @Nullable String leafId, int entryCount, long bytes, long lastEntryTimestamp,
			long changedAt, ListingFacts listing) {
		return this.jdbc.sql("""
				UPDATE arbor_session SET position = position + 1, leaf_id = ?, entry_count = ?, bytes = ?,
					last_entry_timestamp = ?, changed_at = ?, name = ?, first_message = ?, message_count = ?
				WHERE id = ? RETURNING position""")
			.param(leafId)
			.param(entryCount)
			.param(bytes)
			.param(lastEntryTimestamp)
			.param(changedAt)
			.param(utf8(listing.name()))
			.param(utf8(listing.firstMessage()))
			.param(listing.messageCount())
			.param(sessionId)
			.query(Long.class)
			.single();
	}

	/** Ids of the sessions stored before the listing columns, whose rows are not filled in yet. */
	List<String> unlisted() {
		return this.jdbc.sql("SELECT id FROM arbor_session WHERE message_count IS NULL").query(String.class).list();
	}

	/**
	 * Fills in the listing of a session stored before the columns, unless it changed since {@code position} (its
	 * change wrote the listing then).
	 */
	void listed(String sessionId, long position, ListingFacts listing) {
		this.jdbc.sql("""
				UPDATE arbor_session SET name = ?, first_message = ?, message_count = ?
				WHERE id = ? AND position = ?""")
			.param(utf8(listing.name()))
			.param(utf8(listing.firstMessage()))
			.param(listing.messageCount())
			.param(sessionId)
			.param(position)
			.update();
	}

	long leafMoved(String sessionId, @Nullable String leafId, long changedAt) {
		return this.jdbc.sql("""
				UPDATE arbor_session SET position = position + 1, leaf_id = ?, changed_at = ?
				WHERE id = ? RETURNING position""")
			.param(leafId)
			.param(changedAt)
			.param(sessionId)
			.query(Long.class)
			.single();
	}

	void delete(String sessionId) {
		this.jdbc.sql("DELETE FROM arbor_session WHERE id = ?").param(sessionId).update();
	}

	/**
	 * Hands the lines of entries {@code from} (inclusive) to {@code to} (exclusive) over in file order, streamed in
	 * batches when the caller runs a transaction (a large session is then never held as rows and as lines at once).
	 */
	void forEachEntryLine(String sessionId, int from, int to, Consumer<byte[]> lines) {
		if (from >= to) {
			return;
		}
		this.template.query(connection -> {
			PreparedStatement statement = connection.prepareStatement(
					"SELECT line FROM arbor_entry WHERE session_id = ? AND seq >= ? AND seq < ? ORDER BY seq");
			statement.setString(1, sessionId);
			statement.setInt(2, from);
			statement.setInt(3, to);
			statement.setFetchSize(BATCH);
			return statement;
		}, (ResultSet resultSet) -> lines.accept(resultSet.getBytes(1)));
	}

	private static SessionRow row(ResultSet rs, int row) throws SQLException {
		int messageCount = rs.getInt("message_count");
		ListingFacts listing = rs.wasNull() ? null
				: new ListingFacts(text(rs.getBytes("name")), text(rs.getBytes("first_message")), messageCount);
		return new SessionRow(rs.getString("id"), rs.getObject("incarnation", UUID.class), rs.getLong("position"),
				rs.getBytes("header"), rs.getBytes("title_slot"), rs.getString("title"), listing, rs.getString("leaf_id"),
				rs.getInt("entry_count"), rs.getLong("bytes"), rs.getLong("last_entry_timestamp"),
				rs.getLong("changed_at"), rs.getBoolean("nav_elsewhere"));
	}

	private static byte @Nullable [] utf8(@Nullable String text) {
		return (text != null) ? text.getBytes(StandardCharsets.UTF_8) : null;
	}

	private static @Nullable String text(byte @Nullable [] utf8) {
		return (utf8 != null) ? new String(utf8, StandardCharsets.UTF_8) : null;
	}

}
