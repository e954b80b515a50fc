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
 * Refuses request bodies over {@code arbor.api.max-request-bytes} with 413, before anything is parsed: when
 * {@code Content-Length} says so, else (chunked bodies) as soon as the count passes the limit while a converter
 * reads; either after dropping what is left of the body if that is small ({@link #SWALLOWED}). Jetty's own limits
 * cover form posts only.
 * <p>
 * Ends a body still arriving {@code arbor.api.body-timeout} after the request began with 408: Jetty bounds each
 * read by its idle timeout ({@link BodyLimitsConfiguration}), not the whole, so a client trickling a byte now and
 * then would otherwise hold its worker for as long as it likes. A read that Jetty's idle timeout ends is a 408 too.
 */
class RequestBodyLimitFilter extends OncePerRequestFilter {

	/**
	 * How much of a body over the limit is read and dropped before the 413 goes out, within the body's time: the rest
	 * of a chunked one once it passed the limit, a whole one whose {@code Content-Length} is over the limit but no
	 * larger than this. Jetty closes a connection whose request body was not read to its end, and closing a socket with
	 * unread bytes in it resets the connection (RST), which can take the answer with it before the client has read it:
	 * a client sending a body a few times too large would see a broken connection instead of the 413. What is left of
	 * a body larger still is not waited for.
	 */
	static final long SWALLOWED = DataSize.ofMegabytes(2).toBytes();

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
		LimitedRequest limited = new LimitedRequest(request, this.limit, this.timeout);
		if (request.getContentLengthLong() > this.limit.toBytes()) {
			if (request.getContentLengthLong() <= SWALLOWED) {
				limited.getInputStream().discard(SWALLOWED, limited::pastDeadline);
			}
			this.problems.resolveException(request, response, null, new RequestTooLargeException(this.limit));
			return;
		}
		chain.doFilter(limited, response);
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
		public LimitedInputStream getInputStream() throws IOException {
			return new LimitedInputStream(super.getInputStream(), this);
		}

		private boolean pastDeadline() {
			return System.nanoTime() - this.deadline > 0;
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
				discard(SWALLOWED, this.request::pastDeadline);
				throw new RequestTooLargeException(this.request.limit);
			}
			if (this.request.pastDeadline()) {
				throw new RequestTimeoutException(this.request.timeout);
			}
		}

	}

}
