package dev.arbor.storage;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import dev.arbor.session.Ids;
import org.jspecify.annotations.Nullable;

/**
 * A session's version as the opaque part of an entity tag: its leaf. An id as clients send them ({@link Ids}) is its
 * own tag, so a tag is readable and {@code If-Match: "<leafId>"} works; the null leaf is {@code root}. Any other id
 * (ids in files are any string: thousands of characters, quotes, lone surrogates) and an entry named {@code root}
 * get {@code ~} and a hash of the id, so that every tag fits a header, needs no escaping, and names one leaf: no
 * id can be a hashed tag, because {@code ~} is not in an id.
 */
public final class LeafTag {

	/** The tag of the null leaf (no entry yet, or the leaf moved before the first entry). */
	public static final String ROOT = "root";

	private static final String HASHED = "~";

	private LeafTag() {
	}

	public static String of(@Nullable String leafId) {
		if (leafId == null) {
			return ROOT;
		}
		return (Ids.isValid(leafId) && !ROOT.equals(leafId)) ? leafId : HASHED + hash(leafId);
	}

	/** SHA-256 over the id's UTF-16 code units: an encoding would map every lone surrogate to the same byte. */
	private static String hash(String id) {
		MessageDigest digest = sha256();
		for (int i = 0; i < id.length(); i++) {
			char unit = id.charAt(i);
			digest.update((byte) (unit >>> 8));
			digest.update((byte) unit);
		}
		return Base64.getUrlEncoder().withoutPadding().encodeToString(digest.digest());
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java runtime has SHA-256", ex);
		}
	}

}
