package dev.arbor.storage.file;


/** When an append reaches the disk before it is acknowledged ({@code arbor.storage.fsync}). */
public enum FsyncPolicy {

	/** Acknowledge after fsync: an acknowledged entry survives a power loss. */
	ALWAYS,

	/** Acknowledge after the write: survives a crash of Arbor, not of the machine. */
	NEVER

}
