package dev.arbor.web.edge;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * JSON bodies must be well-formed UTF-8 (RFC 8259, section 8.1; RFC 3629, section 3): Jackson refuses most broken
 * sequences but decodes overlong ones ({@code C0 AF} as {@code /}), which a strict decoder must not. Each byte is
 * checked as it is read, so the body is never held twice; a broken sequence fails the read, and the request is a 400
 * {@code malformed-json}. Session files are checked line by line when they are read, so imports need no more.
 */
class Utf8BodyFilter extends OncePerRequestFilter {

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		chain.doFilter(isJson(request.getContentType()) ? new Checked(request) : request, response);
	}

	private static boolean isJson(String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			return type.getSubtype().equals("json") || type.getSubtype().endsWith("+json");
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	private static final class Checked extends HttpServletRequestWrapper {

		private ServletInputStream checked;

		Checked(HttpServletRequest request) {
			super(request);
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			if (this.checked == null) {
				this.checked = new CheckedStream(super.getInputStream());
			}
			return this.checked;
		}

	}

	private static final class CheckedStream extends WatchedInputStream {

		private final Utf8Check check = new Utf8Check();

		CheckedStream(ServletInputStream in) {
			super(in);
		}

		@Override
		protected void watch(byte[] buffer, int offset, int length) throws IOException {
			for (int i = 0; i < length; i++) {
				this.check.accept(buffer[offset + i] & 0xFF);
			}
		}

		@Override
		protected void ended() throws IOException {
			this.check.end();
		}

	}

	/** RFC 3629's table of well-formed byte sequences, one byte at a time. */
	static final class Utf8Check {

		private long offset;

		/** Continuation bytes still expected. */
		private int pending;

		/** The range the next continuation byte must fall in (narrower after E0, ED, F0, F4). */
		private int low = 0x80;

		private int high = 0xBF;

		void accept(int b) throws NotUtf8Exception {
			if (this.pending > 0) {
				if (b < this.low || b > this.high) {
					throw new NotUtf8Exception(this.offset);
				}
				this.pending--;
				this.low = 0x80;
				this.high = 0xBF;
			}
			else if (b >= 0x80) {
				lead(b);
			}
			this.offset++;
		}

		private void lead(int b) throws NotUtf8Exception {
			if (b >= 0xC2 && b <= 0xDF) {
				this.pending = 1;
			}
			else if (b >= 0xE0 && b <= 0xEF) {
				this.pending = 2;
				this.low = (b == 0xE0) ? 0xA0 : 0x80;
				this.high = (b == 0xED) ? 0x9F : 0xBF;
			}
			else if (b >= 0xF0 && b <= 0xF4) {
				this.pending = 3;
				this.low = (b == 0xF0) ? 0x90 : 0x80;
				this.high = (b == 0xF4) ? 0x8F : 0xBF;
			}
			else {
				throw new NotUtf8Exception(this.offset); // a stray continuation byte, C0, C1, or F5 and above
			}
		}

		void end() throws NotUtf8Exception {
			if (this.pending > 0) {
				throw new NotUtf8Exception(this.offset);
			}
		}

	}

}
