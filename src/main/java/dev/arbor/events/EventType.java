package dev.arbor.events;

/** The events of API.md, "Events", by the name they carry on the wire ({@code event:}). */
public enum EventType {

	ENTRY_APPENDED("entry_appended"),

	LEAF_CHANGED("leaf_changed"),

	LABEL_CHANGED("label_changed"),

	SESSION_BEFORE_TREE("session_before_tree"),

	SESSION_TREE("session_tree"),

	SESSION_BEFORE_BRANCH("session_before_branch"),

	SESSION_BRANCH("session_branch"),

	SESSION_CREATED("session_created"),

	SESSION_DELETED("session_deleted");

	private final String wireName;

	EventType(String wireName) {
		this.wireName = wireName;
	}

	public String wireName() {
		return this.wireName;
	}

}
