package dev.arbor.config;

/** Where sessions live ({@code arbor.storage.type}). */
public enum StorageType {

	/** Session files in a directory: the embedded default, for one instance beside the agents that write them. */
	FILE,

	/** A PostgreSQL database, shared by any number of instances. */
	POSTGRES

}
