package dev.arbor.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Refuses request bodies over {@code arbor.api.max-request-bytes} with 413, before anything is parsed: at once
 * when {@code Content-Length} says so, else (chunked bodies) as soon as the count passes the limit while a
 * converter reads. Tomcat's own limits cover form posts only.
 */
class RequestSizeLimitFilter extends OncePerRequestFilter {

	private final DataSize limit;

	private final HandlerExceptionResolver problems;

	/**
	 * @param limit the largest body accepted
	 * @param problems answers the refusal as the controllers' errors are answered
	 */
	RequestSizeLimitFilter(DataSize limit, HandlerExceptionResolver problems) {
		this.limit = limit;
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > this.limit.toBytes()) {
			this.problems.resolveException(request, response, null, new RequestTooLargeException(this.limit));
			return;
		}
		chain.doFilter(new LimitedRequest(request, this.limit), response);
	}

	private static final class LimitedRequest extends HttpServletRequestWrapper {

		private final DataSize limit;

		private LimitedRequest(HttpServletRequest request, DataSize limit) {
			super(request);
			this.limit = limit;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			return new LimitedInputStream(super.getInputStream(), this.limit);
		}

	}

	private static final class LimitedInputStream extends ServletInputStream {

		private final ServletInputStream in;

		private final DataSize limit;

		private long read;

		private LimitedInputStream(ServletInputStream in, DataSize limit) {
			this.in = in;
			this.limit = limit;
		}

		@Override
		public int read() throws IOException {
			int b = this.in.read();
			if (b != -1) {
				count(1);
			}
			return b;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			int n = this.in.read(buffer, offset, length);
			if (n > 0) {
				count(n);
			}
			return n;
		}

		private void count(int n) throws RequestTooLargeException {
			this.read += n;
			if (this.read > this.limit.toBytes()) {
				throw new RequestTooLargeException(this.limit);
			}
		}

		@Override
		public boolean isFinished() {
			return this.in.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.in.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.in.setReadListener(listener);
		}

		@Override
		public void close() throws IOException {
			this.in.close();
		}

	}

}
