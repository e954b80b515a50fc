package dev.arbor.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * Sends a {@link SweepRequest} over a fresh socket, byte for byte, and reads the answer. A plain socket rather than
 * an HTTP client, because clients refuse what the sweep must send: {@code CONNECT}, an own {@code Content-Length} or
 * {@code Transfer-Encoding}, raw bytes in the request line. An event stream's answer is read up to its head only.
 */
final class SweepWire {

	private static final int TIMEOUT_MILLIS = 30_000;

	private SweepWire() {
	}

	static Answer send(int port, SweepRequest request) {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(TIMEOUT_MILLIS);
			OutputStream out = socket.getOutputStream();
			out.write(head(request));
			if (request.body() != null) {
				out.write(request.body());
			}
			out.flush();
			if (request.halfClose()) {
				socket.shutdownOutput();
			}
			return read(socket.getInputStream(), request.method().equals("HEAD"));
		}
		catch (SocketTimeoutException ex) {
			return Answer.none("no answer within " + TIMEOUT_MILLIS + " ms");
		}
		catch (IOException ex) {
			return Answer.none("connection failed: " + ex);
		}
	}

	/** Jetty's request header size ({@code server.max-http-request-header-size}): a longer head is refused, and closed on, perhaps before it was all sent. */
	static final int MAX_HEAD_BYTES = 8192;

	/** Whether the request line and headers are longer than Jetty reads, so that its answer may be lost. */
	static boolean headTooLong(SweepRequest request) {
		return head(request).length > MAX_HEAD_BYTES;
	}

	private static byte[] head(SweepRequest request) {
		StringBuilder head = new StringBuilder(request.method()).append(' ').append(request.target()).append(" HTTP/1.1\r\n");
		head.append("Host: localhost\r\nConnection: close\r\n");
		for (SweepRequest.Header header : request.headers()) {
			head.append(header.name()).append(": ").append(header.value()).append("\r\n");
		}
		if (request.body() != null && !request.framesItself()) {
			head.append("Content-Length: ").append(request.body().length).append("\r\n");
		}
		return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
	}

	private static Answer read(InputStream in, boolean head) throws IOException {
		ByteArrayOutputStream received = new ByteArrayOutputStream();
		byte[] buffer = new byte[16 * 1024];
		int headEnd = -1;
		int n;
		byte[] bytes = new byte[0];
		while (headEnd < 0 && (n = in.read(buffer)) > 0) {
			received.write(buffer, 0, n);
			bytes = received.toByteArray();
			headEnd = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			if (headEnd >= 0 && bytes.length > 9 && bytes[9] == '1') {
				// An interim answer (100 Continue): the final one follows.
				received.reset();
				received.write(bytes, headEnd + 4, bytes.length - headEnd - 4);
				bytes = received.toByteArray();
				headEnd = indexOf(bytes, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			}
		}
		if (headEnd < 0) {
			return Answer.none((bytes.length == 0) ? "connection closed without an answer"
					: "no complete head: " + new String(bytes, StandardCharsets.ISO_8859_1));
		}
		String[] lines = new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
		int status = Integer.parseInt(lines[0].substring(9, 12));
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (int i = 1; i < lines.length; i++) {
			int colon = lines[i].indexOf(':');
			headers.computeIfAbsent(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), name -> new ArrayList<>())
				.add(lines[i].substring(colon + 1).trim());
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		body.write(bytes, headEnd + 4, bytes.length - headEnd - 4);
		String contentType = first(headers, "content-type");
		boolean stream = contentType != null && contentType.startsWith("text/event-stream");
		if (!head && !stream && status != 204 && status != 304) {
			while ((n = in.read(buffer)) > 0) { // Connection: close, so the body ends with the connection
				body.write(buffer, 0, n);
			}
		}
		byte[] content = body.toByteArray();
		if ("chunked".equalsIgnoreCase(first(headers, "transfer-encoding")) && !stream && !head) {
			content = dechunk(content);
		}
		return new Answer(status, headers, content, null);
	}

	private static byte[] dechunk(byte[] chunked) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		int at = 0;
		while (at < chunked.length) {
			int lineEnd = indexOf(chunked, at, "\r\n".getBytes(StandardCharsets.US_ASCII));
			if (lineEnd < 0) {
				break;
			}
			String size = new String(chunked, at, lineEnd - at, StandardCharsets.US_ASCII).split(";")[0].trim();
			int length = Integer.parseInt(size, 16);
			if (length == 0) {
				break;
			}
			out.write(chunked, lineEnd + 2, Math.min(length, chunked.length - lineEnd - 2));
			at = lineEnd + 2 + length + 2;
		}
		return out.toByteArray();
	}

	private static int indexOf(byte[] bytes, byte[] what) {
		return indexOf(bytes, 0, what);
	}

	private static int indexOf(byte[] bytes, int from, byte[] what) {
		outer: for (int i = from; i <= bytes.length - what.length; i++) {
			for (int j = 0; j < what.length; j++) {
				if (bytes[i + j] != what[j]) {
					continue outer;
				}
			}
			return i;
		}
		return -1;
	}

	private static @Nullable String first(Map<String, List<String>> headers, String name) {
		List<String> values = headers.get(name);
		return (values != null) ? values.get(0) : null;
	}

	/**
	 * What came back.
	 *
	 * @param status the status code, {@code 0} when there was no answer
	 * @param headers the headers by lower-case name
	 * @param body the body, de-chunked; empty for an event stream
	 * @param failure why there was no answer, {@code null} when there was one
	 */
	record Answer(int status, Map<String, List<String>> headers, byte[] body, @Nullable String failure) {

		static Answer none(String failure) {
			return new Answer(0, Map.of(), new byte[0], failure);
		}

		@Nullable String header(String name) {
			return first(this.headers, name.toLowerCase(Locale.ROOT));
		}

		String text() {
			return new String(this.body, StandardCharsets.UTF_8);
		}

		/** The body as JSON, {@code null} when it is none. */
		@Nullable JsonNode json() {
			try {
				return Json.MAPPER.readTree(this.body);
			}
			catch (RuntimeException ex) {
				return null;
			}
		}

		boolean successful() {
			return this.status >= 200 && this.status < 300;
		}

		@Override
		public String toString() {
			if (this.failure != null) {
				return "no answer: " + this.failure;
			}
			return this.status + " " + this.headers + "\n    " + SweepRequest.shorten(text(), 600);
		}

	}

}
