package dev.arbor.storage;

/**
 * Full-text search across every session of a store (docs/API.md#search): one interface, a Lucene index beside the
 * files for the file store, PostgreSQL's full-text search for the database. What an entry contributes
 * ({@link SearchText}), how a query is read ({@link SearchQuery}), and how a hit's snippet and highlights are made
 * ({@link SearchSnippet}) are written once here, so both answer alike. Thread-safe.
 */
public interface SessionSearch {

	/** One page of the entries that match, best first. */
	SearchPage search(SearchQuery query);

}
