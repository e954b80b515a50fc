package dev.arbor.web.edge;

import java.io.IOException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.util.unit.DataSize;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Keeps what request bodies take in memory within {@code arbor.api.request-memory}: a request with a body reserves
 * its share before it is read, {@code bodyCopies} times its {@code Content-Length} (a chunked one, of unknown
 * length, as much as the largest body allowed), and gives it back when answered. When the memory is taken, it waits
 * a little, then is refused with a 503 and {@code Retry-After}, before anything is read or written: so a burst of
 * large writes queues instead of running out of heap after an entry is on disk. A body needing more than all of it
 * waits until it has it all, so that it runs alone.
 */
class RequestMemoryFilter extends OncePerRequestFilter {

	static final int WAIT_SECONDS = 5;

	private static final int KIB = 1024;

	private final Semaphore kibibytes;

	private final int totalKibibytes;

	private final long maxBodyBytes;

	private final int bodyCopies;

	private final HandlerExceptionResolver problems;

	/**
	 * @param memory what the bodies in flight may take together
	 * @param maxBody the largest body allowed, the share of a body of unknown length
	 * @param bodyCopies how many times its size a body takes
	 * @param problems answers the refusal as the controllers' errors are answered
	 */
	RequestMemoryFilter(DataSize memory, DataSize maxBody, int bodyCopies, HandlerExceptionResolver problems) {
		this.totalKibibytes = (int) Math.max(1, Math.min(Integer.MAX_VALUE, memory.toBytes() / KIB));
		this.kibibytes = new Semaphore(this.totalKibibytes, true);
		this.maxBodyBytes = maxBody.toBytes();
		this.bodyCopies = bodyCopies;
		this.problems = problems;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		int share = share(request);
		if (share == 0) {
			chain.doFilter(request, response);
			return;
		}
		boolean reserved;
		try {
			reserved = this.kibibytes.tryAcquire(share, WAIT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			reserved = false;
		}
		if (!reserved) {
			this.problems.resolveException(request, response, null, new ServerBusyException());
			return;
		}
		try {
			chain.doFilter(request, response);
		}
		finally {
			this.kibibytes.release(share);
		}
	}

	/** The kibibytes a request's body reserves; none without a body. */
	private int share(HttpServletRequest request) {
		if (!RequestBodies.present(request)) {
			return 0;
		}
		long length = request.getContentLengthLong();
		long body = (length > 0) ? Math.min(length, this.maxBodyBytes) : this.maxBodyBytes;
		long share = (body * this.bodyCopies + KIB - 1) / KIB;
		return (int) Math.min(share, this.totalKibibytes);
	}

}
