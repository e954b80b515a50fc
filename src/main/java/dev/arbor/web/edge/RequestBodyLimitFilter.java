package dev.arbor.web.edge;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import jakarta.servlet.FilterChain;
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
 * converter reads. Jetty's own limits cover form posts only.
 * <p>
 * Ends a body still arriving {@code arbor.api.body-timeout} after the request began with 408: Jetty bounds each
 * read by its idle timeout ({@link BodyLimitsConfiguration}), not the whole, so a client trickling a byte now and
 * then would otherwise hold its worker for as long as it likes. A read that Jetty's idle timeout ends is a 408 too.
 */
class RequestBodyLimitFilter extends OncePerRequestFilter {

	private final DataSize limit;

	private final Duration timeout;

	private final HandlerExceptionResolver problems;

	/**
	 * @param limit the largest body accepted
	 * @param timeout the longest a body may take to arrive, counted from when the request reaches this filter
	 * @param problems answers the refusal as the controllers' errors are answered
	 */
	RequestBodyLimitFilter(DataSize limit, Duration timeout, HandlerExceptionResolver problems) {
		this.limit = limit;
		this.timeout = timeout;
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getContentLengthLong() > this.limit.toBytes()) {
			this.problems.resolveException(request, response, null, new RequestTooLargeException(this.limit));
			return;
		}
		chain.doFilter(new LimitedRequest(request, this.limit, this.timeout), response);
	}

	private static final class LimitedRequest extends HttpServletRequestWrapper {

		private final DataSize limit;

		private final Duration timeout;

		private final long deadline;

		private LimitedRequest(HttpServletRequest request, DataSize limit, Duration timeout) {
			super(request);
			this.limit = limit;
			this.timeout = timeout;
			this.deadline = System.nanoTime() + timeout.toNanos();
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			return new LimitedInputStream(super.getInputStream(), this);
		}

	}

	private static final class LimitedInputStream extends WatchedInputStream {

		private final LimitedRequest request;

		private long read;

		private LimitedInputStream(ServletInputStream in, LimitedRequest request) {
			super(in);
			this.request = request;
		}

		@Override
		public int read() throws IOException {
			try {
				return super.read();
			}
			catch (IOException ex) {
				throw timedOut(ex);
			}
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			try {
				return super.read(buffer, offset, length);
			}
			catch (IOException ex) {
				throw timedOut(ex);
			}
		}

		/** A read Jetty ended when no byte came for its idle timeout: the body paused too long (408). */
		private IOException timedOut(IOException ex) {
			for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
				if (cause instanceof TimeoutException) {
					RequestTimeoutException timeout = new RequestTimeoutException(this.request.timeout);
					timeout.initCause(ex);
					return timeout;
				}
			}
			return ex;
		}

		@Override
		protected void watch(byte[] buffer, int offset, int length) throws IOException {
			this.read += length;
			if (this.read > this.request.limit.toBytes()) {
				throw new RequestTooLargeException(this.request.limit);
			}
			if (System.nanoTime() - this.request.deadline > 0) {
				throw new RequestTimeoutException(this.request.timeout);
			}
		}

	}

}
