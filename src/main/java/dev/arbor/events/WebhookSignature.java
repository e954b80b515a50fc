package dev.arbor.events;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The signature of a webhook's body: {@code sha256=} and the hex HMAC-SHA256 of the exact bytes sent, keyed with the
 * webhook's secret, as GitHub signs its webhooks. A receiver computes the same over the raw body and compares in
 * constant time.
 */
public final class WebhookSignature {

	public static final String HEADER = "X-Arbor-Signature-256";

	public static final String EVENT_HEADER = "X-Arbor-Event";

	private static final String ALGORITHM = "HmacSHA256";

	private final SecretKeySpec key;

	public WebhookSignature(String secret) {
		this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
	}

	public String sign(byte[] body) {
		try {
			Mac mac = Mac.getInstance(ALGORITHM);
			mac.init(this.key);
			return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
		}
		catch (NoSuchAlgorithmException | InvalidKeyException ex) {
			throw new IllegalStateException("HmacSHA256 is part of every JDK", ex);
		}
	}

}
