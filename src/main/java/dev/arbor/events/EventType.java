package dev.arbor.events;

/** The events of docs/API.md#events-server-sent-events, by the name they carry on the wire ({@code event:}). */
public enum EventType {

	ENTRY_APPENDED("entry_appended"),

	LEAF_CHANGED("leaf_changed"),

	LABEL_CHANGED("label_changed"),

	/** A {@code session_info} entry named the session, or cleared its name. */
	SESSION_RENAMED("session_renamed"),

	SESSION_BEFORE_TREE("session_before_tree"),

	SESSION_TREE("session_tree"),

	SESSION_BEFORE_BRANCH("session_before_branch"),

	SESSION_BRANCH("session_branch"),

	SESSION_CREATED("session_created"),

	SESSION_DELETED("session_deleted"),

	/** Another process moved or renamed a session's file: the session is the same, only its file's name changed. */
	SESSION_MOVED("session_moved"),

	/** Another process rewrote a session's file: what a client holds of the session may be out of date. */
	SESSION_RELOADED("session_reloaded"),

	/**
	 * Sent first to a client whose {@code Last-Event-ID} the replay buffer cannot serve (an earlier run of Arbor, or
	 * events since dropped): it may have missed events, so it refetches what it holds. Not kept for replay.
	 */
	RESYNC("resync");

	private final String wireName;

	EventType(String wireName) {
		this.wireName = wireName;
	}

	public String wireName() {
		return this.wireName;
	}

}
