package dev.arbor.session;

import java.util.regex.Pattern;

/**
 * The shape every session and entry id taken from a client must have (docs/API.md#requests-and-responses). Checked
 * before an id reaches a file path or a lookup.
 */
public final class Ids {

	public static final String PATTERN = "[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}";

	private static final Pattern COMPILED = Pattern.compile(PATTERN);

	private Ids() {
	}

	public static boolean isValid(String id) {
		return COMPILED.matcher(id).matches();
	}

}
