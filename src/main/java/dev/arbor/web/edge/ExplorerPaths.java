package dev.arbor.web.edge;

import java.util.regex.Pattern;

/**
 * Where the web explorer lives: its page at {@code /} (Spring's welcome page, {@code static/index.html}) and its
 * scripts, styles and icons under {@code /explorer/}. Spelled exactly, like the API key filter's other open paths,
 * so that no encoding or dot segment makes an API path look like one of them.
 */
final class ExplorerPaths {

	private static final Pattern PAGE = Pattern.compile("/|/index\\.html");

	private static final Pattern FILE = Pattern.compile("/explorer/[a-z0-9-]+\\.(js|css|svg)|/favicon\\.svg");

	private ExplorerPaths() {
	}

	/** The explorer's page, which gets its own content policy. */
	static boolean isPage(String path) {
		return PAGE.matcher(path).matches();
	}

	/** The page or one of its files: static, and open without an API key. */
	static boolean isFile(String path) {
		return isPage(path) || FILE.matcher(path).matches();
	}

}
