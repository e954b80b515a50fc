package dev.arbor.web;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.arbor.storage.ExpectedLeaf;
import org.jspecify.annotations.Nullable;

/**
 * {@code If-Match} as the leaf a mutation expects (RFC 9110, section 13.1.1; docs/API.md#versions-etag-and-if-match).
 * Absent or {@code *}: any leaf. Tags compare strongly, so a weak tag ({@code W/"…"}) matches no leaf. Parsed strictly:
 * a header with anything but entity tags in it is refused rather than read for the tags it happens to hold (Spring's
 * {@code ETag.parse} skips what it does not understand, so {@code "leaf" junk} would pass).
 */
final class IfMatch {

	/**
	 * One element of the list, then a comma or the end (RFC 9110, section 8.8.3:
	 * {@code entity-tag = [ W/ ] DQUOTE *etagc DQUOTE}).
	 */
	private static final Pattern ELEMENT = Pattern.compile("\\G[ \\t]*(?:(\\*)|(W/)?\"([^\"]*)\")[ \\t]*(?:,|$)");

	private IfMatch() {
	}

	/**
	 * @throws InvalidIfMatchException when the header holds anything but a list of entity tags, or {@code *}
	 */
	static ExpectedLeaf parse(@Nullable String header) {
		if (header == null || header.isBlank()) {
			return ExpectedLeaf.ANY;
		}
		String list = header.strip();
		Matcher element = ELEMENT.matcher(list);
		List<String> tags = new ArrayList<>();
		boolean any = false;
		int elements = 0;
		int end = 0;
		while (end < list.length() && element.find()) {
			end = element.end();
			elements++;
			if (element.group(1) != null) {
				any = true;
			}
			else if (element.group(2) == null) {
				tags.add(element.group(3));
			}
		}
		if (end < list.length() || (any && elements > 1)) { // "*" stands alone (RFC 9110, section 13.1.1)
			throw new InvalidIfMatchException();
		}
		return any ? ExpectedLeaf.ANY : ExpectedLeaf.tagged(tags);
	}

}
