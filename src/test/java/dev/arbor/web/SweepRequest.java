package dev.arbor.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * One request of the hostile sweep, exactly as it goes on the wire: the request target is sent as written (encoded
 * or not), headers may repeat or be missing, and the body's framing is the request's own when it sets
 * {@code Content-Length} or {@code Transfer-Encoding} itself.
 *
 * @param method the method token, sent as is
 * @param target the request target: path and query, raw
 * @param headers the headers in order, repeats allowed
 * @param body the body bytes, {@code null} for none
 * @param halfClose whether to shut the output after the body, for a body shorter than its {@code Content-Length}
 */
record SweepRequest(String method, String target, List<Header> headers, byte @Nullable [] body, boolean halfClose) {

	static SweepRequest of(String method, String target) {
		return new SweepRequest(method, target, List.of(), null, false);
	}

	SweepRequest header(String name, String value) {
		List<Header> headers = new ArrayList<>(this.headers);
		headers.add(new Header(name, value));
		return new SweepRequest(this.method, this.target, headers, this.body, this.halfClose);
	}

	/** Replaces every header of this name (case-insensitively); a {@code null} value removes them. */
	SweepRequest withHeader(String name, @Nullable String value) {
		List<Header> headers = new ArrayList<>(this.headers);
		headers.removeIf(header -> header.name().equalsIgnoreCase(name));
		if (value != null) {
			headers.add(new Header(name, value));
		}
		return new SweepRequest(this.method, this.target, headers, this.body, this.halfClose);
	}

	SweepRequest body(byte @Nullable [] body) {
		return new SweepRequest(this.method, this.target, this.headers, body, this.halfClose);
	}

	SweepRequest method(String method) {
		return new SweepRequest(method, this.target, this.headers, this.body, this.halfClose);
	}

	SweepRequest target(String target) {
		return new SweepRequest(this.method, target, this.headers, this.body, this.halfClose);
	}

	SweepRequest halfClosed() {
		return new SweepRequest(this.method, this.target, this.headers, this.body, true);
	}

	@Nullable String header(String name) {
		return this.headers.stream()
			.filter(header -> header.name().equalsIgnoreCase(name))
			.map(Header::value)
			.findFirst()
			.orElse(null);
	}

	/** Whether the request frames its body itself, so that the wire must not add a {@code Content-Length}. */
	boolean framesItself() {
		return this.headers.stream()
			.map(header -> header.name().toLowerCase(Locale.ROOT))
			.anyMatch(name -> name.equals("content-length") || name.equals("transfer-encoding"));
	}

	/** As a curl command line that sends the same request (framing tricks aside). */
	String curl(int port) {
		StringBuilder curl = new StringBuilder("curl -si --path-as-is -X '").append(this.method).append("'");
		for (Header header : this.headers) {
			curl.append(" -H ").append(shellQuote(header.name() + ": " + header.value()));
		}
		if (this.body != null) {
			curl.append(" --data-binary ").append(shellQuote(excerpt(this.body, 400)));
		}
		return curl.append(" ").append(shellQuote("http://localhost:" + port + this.target)).toString();
	}

	@Override
	public String toString() {
		StringBuilder text = new StringBuilder(this.method).append(' ').append(shorten(this.target, 200));
		for (Header header : this.headers) {
			text.append("\n    ").append(header.name()).append(": ").append(shorten(header.value(), 200));
		}
		if (this.body != null) {
			text.append("\n    body (").append(this.body.length).append(" bytes): ").append(excerpt(this.body, 300));
		}
		return text.toString();
	}

	static String excerpt(byte[] body, int max) {
		return shorten(new String(body, StandardCharsets.UTF_8), max);
	}

	static String shorten(String text, int max) {
		String shown = text.replace("\r", "\\r").replace("\n", "\\n").replace("\u0000", "\\0");
		return (shown.length() > max) ? shown.substring(0, max) + "… (" + text.length() + " chars)" : shown;
	}

	private static String shellQuote(String text) {
		return "'" + text.replace("'", "'\\''") + "'";
	}

	/** One header line. */
	record Header(String name, String value) {
	}

}
