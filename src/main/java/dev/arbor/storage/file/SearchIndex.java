package dev.arbor.storage.file;

import java.io.Closeable;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.arbor.session.EntryLine;
import dev.arbor.storage.SearchHit;
import dev.arbor.storage.SearchPage;
import dev.arbor.storage.SearchQuery;
import dev.arbor.storage.SearchText;
import dev.arbor.storage.SearchTokens;
import dev.arbor.storage.SessionSearch;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.PhraseQuery;
import org.apache.lucene.search.PrefixQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file store's search index (docs/API.md#search): one Lucene document per searchable entry, in a folder that is
 * only a cache of the session files. An index that does not open, is damaged or was written by another version of
 * this class is wiped and starts empty, and says so ({@link #isFresh()}) so that its owner fills it again from the
 * files; a search that fails on a damaged index answers partial, never an error, and marks the index
 * {@link #isBroken() broken} for its owner to {@link #reset()}. Queries are built from {@link SearchQuery}'s clauses,
 * never parsed, and words are made by {@link SearchTokens}, as in the PostgreSQL store. Thread-safe.
 *
 * <p>
 * A phrase is found by its pairs of words: each entry's text is indexed a second time as the pairs of words next to
 * each other ({@code "read env"}, {@code "env vars"}), so that a phrase of two words is one term, as quick to find and
 * to count as a word, and a longer one a phrase of its pairs, whose terms are far rarer than its words. Matching the
 * positions of two common words in every entry that has both took a hundred milliseconds and more on a million entries
 * (docs/BENCHMARKS.md#finding-a-session-benchfind-sessionssh).
 *
 * <p>
 * The folder is memory-mapped ({@link MMapDirectory}, Lucene's default), which reads postings three to four times
 * faster than positional reads. A mapped file that another process truncates faults on the next read: the JVM throws
 * an {@link InternalError} for it (on Java 17 possibly a little after the read), which this class takes as damage, as
 * it takes an {@link IOException}; so too an {@link AssertionError}, which is how Lucene's own checks of what it reads
 * fail where assertions are enabled.
 */
final class SearchIndex implements SessionSearch, Closeable {

	/** Commit user data that names the layout of the documents; an index without this value is rebuilt. */
	static final String VERSION_KEY = "arbor.search.version";

	static final String VERSION = "3";

	private static final Logger logger = LoggerFactory.getLogger(SearchIndex.class);

	private static final String SESSION = "session";

	private static final String ENTRY = "entry";

	private static final String KEY = "key";

	private static final String ROLE = "role";

	private static final String CWD = "cwd";

	private static final String TIME = "time";

	private static final String TEXT = "text";

	/** The text again, as its pairs of words next to each other: where phrases are looked up. */
	private static final String PAIRS = "pairs";

	private static final char PAIR_SEPARATOR = ' ';

	/** On a session's stamp document only: what its file was when it was last indexed whole. */
	private static final String STAMP = "stamp";

	/** What a document is, on stamp documents ({@link #STAMP}); entries' documents have none. */
	private static final String KIND = "kind";

	private final Path folder;

	private volatile Lucene lucene;

	private volatile boolean fresh;

	private volatile boolean broken;

	private volatile boolean partial;

	/** Whether {@link #reset()} is under way: a search that fails meanwhile met the closing index, not damage. */
	private volatile boolean resetting;

	private SearchIndex(Path folder, Lucene lucene, boolean fresh) {
		this.folder = folder;
		this.lucene = lucene;
		this.fresh = fresh;
	}

	/** Opens the index in a folder, or an empty one in its place when it is missing, damaged or of another version. */
	static SearchIndex open(Path folder) throws IOException {
		try {
			Lucene existing = Lucene.openExisting(folder);
			if (existing != null) {
				return new SearchIndex(folder, existing, false);
			}
		}
		catch (IOException | RuntimeException | InternalError | AssertionError ex) {
			logger.warn("Search index in {} is unreadable ({}); it is rebuilt from the session files", folder,
					ex.toString());
		}
		return new SearchIndex(folder, Lucene.create(folder), true);
	}

	/** Whether the index started empty (new, damaged or of another version): its owner fills it from the files. */
	boolean isFresh() {
		return this.fresh;
	}

	/** Whether a search found the index damaged since it was opened or reset. */
	boolean isBroken() {
		return this.broken;
	}

	/** Whether answers say they may miss entries: set by the owner while it fills the index. */
	void partial(boolean partial) {
		this.partial = partial;
	}

	/** Wipes the index and starts it empty, {@link #isFresh() fresh}. */
	synchronized void reset() throws IOException {
		this.resetting = true;
		try {
			this.lucene.closeQuietly();
			this.lucene = Lucene.create(this.folder);
			this.broken = false;
			this.fresh = true;
		}
		finally {
			this.resetting = false;
		}
	}

	/** Adds a session's entries to those already indexed. */
	synchronized void add(String sessionId, @Nullable String cwd, List<EntryLine> entries) throws IOException {
		IndexWriter writer = this.lucene.writer;
		for (EntryLine entry : entries) {
			SearchText text = SearchText.of(entry);
			if (text != null) {
				writer.updateDocument(new Term(KEY, key(sessionId, entry.id())), document(sessionId, cwd, entry, text));
			}
		}
	}

	/** Indexes a session again whole, in place of what was indexed of it. */
	synchronized void replace(String sessionId, @Nullable String cwd, List<EntryLine> entries) throws IOException {
		delete(sessionId);
		add(sessionId, cwd, entries);
	}

	/** Removes a session's entries, and its stamp. */
	synchronized void delete(String sessionId) throws IOException {
		this.lucene.writer.deleteDocuments(new Term(SESSION, sessionId));
	}

	/**
	 * Records what the session's file was when it was read for {@link #replace}, so that a later start finds it
	 * indexed already when the file is still so ({@link #stamps()}).
	 */
	synchronized void stamp(String sessionId, String stamp) throws IOException {
		Document doc = new Document();
		doc.add(new StringField(KEY, key(sessionId, ""), Field.Store.NO));
		doc.add(new StringField(SESSION, sessionId, Field.Store.YES));
		doc.add(new StringField(KIND, STAMP, Field.Store.NO));
		doc.add(new StoredField(STAMP, stamp));
		this.lucene.writer.updateDocument(new Term(KEY, key(sessionId, "")), doc);
	}

	/** Forgets a session's stamp: entries were added since, and a later start reads the session again. */
	synchronized void unstamp(String sessionId) throws IOException {
		this.lucene.writer.deleteDocuments(new Term(KEY, key(sessionId, "")));
	}

	/**
	 * Every session the index holds something of, with its stamp, or {@code null} for one without: read again, as
	 * the index may miss some of it.
	 */
	Map<String, @Nullable String> stamps() throws IOException {
		Map<String, @Nullable String> stamps = new HashMap<>();
		Lucene current = this.lucene;
		current.searchers.maybeRefreshBlocking();
		IndexSearcher searcher = current.searchers.acquire();
		try {
			Terms sessions = MultiTerms.getTerms(searcher.getIndexReader(), SESSION);
			if (sessions != null) {
				TermsEnum each = sessions.iterator();
				for (BytesRef term = each.next(); term != null; term = each.next()) {
					stamps.put(term.utf8ToString(), null);
				}
			}
			StoredFields stored = searcher.storedFields();
			Query stamped = new TermQuery(new Term(KIND, STAMP));
			for (ScoreDoc doc : searcher.search(stamped, Math.max(1, searcher.count(stamped))).scoreDocs) {
				Document stamp = stored.document(doc.doc);
				stamps.put(stamp.get(SESSION), stamp.get(STAMP));
			}
		}
		finally {
			current.searchers.release(searcher);
		}
		return stamps;
	}

	/** Makes what was written durable and searchable; a fresh index is no longer fresh once committed full. */
	synchronized void commit() throws IOException {
		Lucene current = this.lucene;
		current.writer.setLiveCommitData(Map.of(VERSION_KEY, VERSION).entrySet());
		current.writer.commit();
		current.searchers.maybeRefreshBlocking();
	}

	/** Makes what was written searchable without waiting for the disk. */
	void refresh() throws IOException {
		this.lucene.searchers.maybeRefreshBlocking();
	}

	@Override
	public SearchPage search(SearchQuery query) {
		Lucene current = this.lucene;
		IndexSearcher searcher;
		try {
			searcher = current.searchers.acquire();
		}
		catch (IOException | RuntimeException | InternalError | AssertionError ex) {
			return failed(current, ex);
		}
		try {
			Query lucene = query(query);
			// The count is taken apart, with the index's shortcuts (a phrase is its pairs), so the page need count no
			// hit beyond its own: it skips what cannot rank from its last hit on, not from Lucene's default 1,000th
			int wanted = query.offset() + query.limit();
			TopDocs top = searcher.search(lucene, new TopScoreDocCollectorManager(wanted, null, wanted));
			long total = searcher.count(lucene);
			StoredFields stored = searcher.storedFields();
			List<SearchHit> hits = new ArrayList<>();
			ScoreDoc[] docs = top.scoreDocs;
			for (int i = query.offset(); i < docs.length; i++) {
				Document doc = stored.document(docs[i].doc);
				hits.add(SearchHit.of(doc.get(SESSION), doc.get(ENTRY), doc.get(ROLE),
						doc.getField(TIME).numericValue().longValue(), doc.get(TEXT), query, docs[i].score));
			}
			return new SearchPage(hits, query.nextCursor(total), total, this.partial);
		}
		catch (IOException | RuntimeException | InternalError | AssertionError ex) {
			return failed(current, ex);
		}
		finally {
			try {
				current.searchers.release(searcher);
			}
			catch (IOException | RuntimeException | InternalError | AssertionError ex) {
				this.broken = true;
			}
		}
	}

	private SearchPage failed(Lucene searched, Throwable ex) {
		if (this.resetting || searched != this.lucene) {
			return SearchPage.empty(true); // reset meanwhile: the index searched is closed, not damaged
		}
		logger.warn("Search index in {} failed a search ({}); it is rebuilt from the session files", this.folder,
				ex.toString());
		this.broken = true;
		return SearchPage.empty(true);
	}

	@Override
	public synchronized void close() throws IOException {
		this.lucene.close();
	}

	static Query query(SearchQuery query) {
		BooleanQuery.Builder all = new BooleanQuery.Builder();
		for (SearchQuery.Clause clause : query.clauses()) {
			List<String> words = clause.words();
			Query match;
			if (clause.isPhrase()) {
				match = phrase(words);
			}
			else if (clause.prefix()) {
				match = new PrefixQuery(new Term(TEXT, words.get(0)));
			}
			else {
				match = new TermQuery(new Term(TEXT, words.get(0)));
			}
			all.add(match, BooleanClause.Occur.MUST);
		}
		if (query.sessionId() != null) {
			all.add(new TermQuery(new Term(SESSION, query.sessionId())), BooleanClause.Occur.FILTER);
		}
		if (query.cwd() != null) {
			all.add(new TermQuery(new Term(CWD, query.cwd())), BooleanClause.Occur.FILTER);
		}
		if (!query.roles().isEmpty()) {
			BooleanQuery.Builder roles = new BooleanQuery.Builder();
			query.roles().forEach((role) -> roles.add(new TermQuery(new Term(ROLE, role)), BooleanClause.Occur.SHOULD));
			all.add(roles.build(), BooleanClause.Occur.FILTER);
		}
		if (query.after() != null || query.before() != null) {
			long from = (query.after() != null) ? query.after() : Long.MIN_VALUE;
			long to = (query.before() != null) ? query.before() - 1 : Long.MAX_VALUE;
			all.add(LongPoint.newRangeQuery(TIME, from, to), BooleanClause.Occur.FILTER);
		}
		return all.build();
	}

	/**
	 * A phrase as its pairs: two words are the one pair, more the pairs next to each other, which hold exactly where
	 * the words are next to each other.
	 */
	private static Query phrase(List<String> words) {
		String[] pairs = new String[words.size() - 1];
		for (int i = 0; i < pairs.length; i++) {
			pairs[i] = pair(words.get(i), words.get(i + 1));
		}
		return (pairs.length == 1) ? new TermQuery(new Term(PAIRS, pairs[0])) : new PhraseQuery(PAIRS, pairs);
	}

	/** Two words as one term; a word never holds a space ({@link SearchTokens}). */
	private static String pair(String first, String second) {
		return first + PAIR_SEPARATOR + second;
	}

	private static Document document(String sessionId, @Nullable String cwd, EntryLine entry, SearchText text) {
		Document doc = new Document();
		doc.add(new StringField(KEY, key(sessionId, entry.id()), Field.Store.NO));
		doc.add(new StringField(SESSION, sessionId, Field.Store.YES));
		doc.add(new StoredField(ENTRY, entry.id()));
		doc.add(new StringField(ROLE, text.role(), Field.Store.YES));
		doc.add(new StringField(CWD, (cwd != null) ? cwd : "", Field.Store.NO));
		doc.add(new LongPoint(TIME, entry.timestamp()));
		doc.add(new StoredField(TIME, entry.timestamp()));
		doc.add(new TextField(TEXT, text.text(), Field.Store.YES));
		doc.add(new TextField(PAIRS, text.text(), Field.Store.NO));
		return doc;
	}

	/** One key per entry of a session: a session's id is a token (Ids), so it never holds the NUL between them. */
	private static String key(String sessionId, String entryId) {
		return sessionId + '\u0000' + entryId;
	}

	/** An open index: its folder, writer and near-real-time searchers. */
	private record Lucene(Directory directory, IndexWriter writer, SearcherManager searchers) implements Closeable {

		/** The index in the folder, or {@code null} when there is none or it is of another version. */
		static @Nullable Lucene openExisting(Path folder) throws IOException {
			if (!Files.isDirectory(folder)) {
				return null;
			}
			Directory directory = new MMapDirectory(folder);
			try {
				if (!DirectoryReader.indexExists(directory)
						|| !VERSION.equals(SegmentInfos.readLatestCommit(directory).getUserData().get(VERSION_KEY))) {
					directory.close();
					return null;
				}
				return open(directory, IndexWriterConfig.OpenMode.APPEND);
			}
			catch (IOException | RuntimeException ex) {
				directory.close();
				throw ex;
			}
		}

		/** A new, empty index in place of whatever the folder held. */
		static Lucene create(Path folder) throws IOException {
			wipe(folder);
			Files.createDirectories(folder);
			Directory directory = new MMapDirectory(folder);
			try {
				Lucene lucene = open(directory, IndexWriterConfig.OpenMode.CREATE);
				lucene.writer.setLiveCommitData(Map.of(VERSION_KEY, VERSION).entrySet());
				lucene.writer.commit();
				return lucene;
			}
			catch (IOException | RuntimeException ex) {
				directory.close();
				throw ex;
			}
		}

		private static Lucene open(Directory directory, IndexWriterConfig.OpenMode mode) throws IOException {
			// Merges run on one thread of Lucene's beside the owner's, so that a large one never holds up what the
			// owner indexes: on the owner's thread, a merge of a million entries' segments kept an append out of
			// the results for 15 s (docs/BENCHMARKS.md#finding-a-session-benchfind-sessionssh). Closing rolls the
			// writer back, which aborts a running merge and waits for it: nothing writes into the folder after.
			ConcurrentMergeScheduler merges = new ConcurrentMergeScheduler();
			merges.setMaxMergesAndThreads(2, 1);
			IndexWriterConfig config = new IndexWriterConfig(new WordAnalyzer()).setOpenMode(mode)
				.setMergeScheduler(merges);
			IndexWriter writer = new IndexWriter(directory, config);
			try {
				return new Lucene(directory, writer, new SearcherManager(writer, null));
			}
			catch (IOException | RuntimeException ex) {
				writer.close();
				throw ex;
			}
		}

		private static void wipe(Path folder) throws IOException {
			if (!Files.exists(folder)) {
				return;
			}
			try (Stream<Path> paths = Files.walk(folder)) {
				for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
					if (!path.equals(folder)) {
						try {
							Files.delete(path);
						}
						catch (NoSuchFileException ex) {
							// gone already
						}
					}
				}
			}
			catch (UncheckedIOException ex) {
				throw ex.getCause();
			}
		}

		void closeQuietly() {
			try {
				close();
			}
			catch (IOException | RuntimeException | InternalError | AssertionError ex) {
				logger.debug("Closing a damaged search index failed", ex);
			}
		}

		@Override
		public void close() throws IOException {
			try {
				this.searchers.close();
			}
			finally {
				try {
					this.writer.rollback(); // a damaged index cannot commit; a sound one was committed by its owner
				}
				finally {
					this.directory.close();
				}
			}
		}

	}

	/**
	 * Lucene's analyzer with search's one word rule: the index holds exactly the words {@link SearchTokens} makes, and
	 * in {@link #PAIRS} each two of them next to each other.
	 */
	private static final class WordAnalyzer extends Analyzer {

		WordAnalyzer() {
			super(PER_FIELD_REUSE_STRATEGY); // the words and the pairs need a tokenizer each
		}

		@Override
		protected TokenStreamComponents createComponents(String fieldName) {
			return new TokenStreamComponents(new WordTokenizer(PAIRS.equals(fieldName)));
		}

	}

	/**
	 * Reads the whole text (at most {@link SearchText#MAX_CHARS}) and hands out its words, or its pairs of words: the
	 * pair of words {@code i} and {@code i + 1} at position {@code i}, so that pairs next to each other stand for
	 * words next to each other.
	 */
	private static final class WordTokenizer extends Tokenizer {

		private final boolean pairs;

		private final CharTermAttribute term = addAttribute(CharTermAttribute.class);

		private final OffsetAttribute offset = addAttribute(OffsetAttribute.class);

		private @Nullable List<SearchTokens.Word> words;

		private int next;

		private int length;

		WordTokenizer(boolean pairs) {
			this.pairs = pairs;
		}

		@Override
		public boolean incrementToken() throws IOException {
			if (this.words == null) {
				String text = read(this.input);
				this.length = text.length();
				this.words = SearchTokens.words(text);
			}
			int last = this.pairs ? this.next + 1 : this.next;
			if (last >= this.words.size()) {
				return false;
			}
			clearAttributes();
			SearchTokens.Word word = this.words.get(this.next++);
			if (this.pairs) {
				SearchTokens.Word second = this.words.get(last);
				this.term.setEmpty().append(word.term()).append(PAIR_SEPARATOR).append(second.term());
				this.offset.setOffset(correctOffset(word.start()), correctOffset(second.end()));
			}
			else {
				this.term.setEmpty().append(word.term());
				this.offset.setOffset(correctOffset(word.start()), correctOffset(word.end()));
			}
			return true;
		}

		@Override
		public void end() throws IOException {
			super.end();
			int end = correctOffset(this.length);
			this.offset.setOffset(end, end);
		}

		@Override
		public void reset() throws IOException {
			super.reset();
			this.words = null;
			this.next = 0;
			this.length = 0;
		}

		private static String read(Reader reader) throws IOException {
			StringBuilder text = new StringBuilder();
			char[] buffer = new char[4096];
			int read;
			while ((read = reader.read(buffer)) >= 0) {
				text.append(buffer, 0, read);
			}
			return text.toString();
		}

	}

}
