package dev.arbor.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Requests written byte for byte, for paths an HTTP client would normalize or encode ({@code ..}, {@code %2F},
 * {@code ;}): what the server sees is exactly what the test wrote.
 */
final class RawHttp {

	/** A status line's code and the head of the answer. */
	record Answer(int status, String head) {
	}

	private RawHttp() {
	}

	static Answer get(int port, String path, Map<String, String> headers) {
		try (Socket socket = new Socket("localhost", port)) {
			socket.setSoTimeout(10_000);
			StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
			headers.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
			request.append("\r\n");
			OutputStream out = socket.getOutputStream();
			out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] head = new byte[4096];
			int read = 0;
			int n;
			while (read < head.length && (n = in.read(head, read, head.length - read)) > 0) {
				read += n;
				if (new String(head, 0, read, StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) {
					break;
				}
			}
			String text = new String(head, 0, read, StandardCharsets.ISO_8859_1);
			return new Answer(Integer.parseInt(text.substring(9, 12)), text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
