package dev.arbor.web.edge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.arbor.session.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Keeps requests with a body from taking every worker thread. A client that stalls its body holds a worker in a
 * blocking read (the servlet API reads bodies so, and Java 17 has no virtual threads), so without a bound a few
 * hundred stalled uploads leave nothing to answer health or reads. Admits at most
 * {@code arbor.api.max-body-requests} bodies still arriving at once, and
 * {@code arbor.api.max-body-requests-per-client} from one remote address; the rest get 503 or 429 with
 * {@code Retry-After} at once, and their connection closes. A request holds its slot until its body has arrived
 * (or until it is answered, if its body is never read whole), not while it is worked on.
 * <p>
 * A servlet filter is enough on Jetty: once a request is answered, Jetty takes in only what of its body has already
 * arrived, without waiting, and closes the connection when more is still due, so a refused (or any) request whose
 * client stalls its body does not hold the worker. Jetty says nothing of that close, so a refusal (4xx, 5xx) of a
 * request whose body has not all arrived says {@code Connection: close} itself, while it is not yet committed, and
 * the client knows not to send the rest.
 */
class BodyRequestFilter extends OncePerRequestFilter {

	private static final String RETRY_AFTER_SECONDS = "1";

	private final BodyRequestSlots slots;

	BodyRequestFilter(BodyRequestSlots slots) {
		this.slots = slots;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (!RequestBodies.present(request)) {
			chain.doFilter(request, response);
			return;
		}
		String client = request.getRemoteAddr();
		BodyRequestSlots.Admission admission = this.slots.tryAcquire(client);
		if (admission != BodyRequestSlots.Admission.ADMITTED) {
			refuse(response, admission);
			return;
		}
		Slot slot = new Slot(this.slots, client);
		try {
			chain.doFilter(new SlotReleasingRequest(request, slot), new ClosingOnRefusal(response, slot));
		}
		finally {
			slot.release();
		}
	}

	private static void refuse(HttpServletResponse response, BodyRequestSlots.Admission admission)
			throws IOException {
		ProblemType type = (admission == BodyRequestSlots.Admission.CLIENT_BUSY) ? ProblemType.TOO_MANY_REQUESTS
				: ProblemType.SERVER_BUSY;
		String detail = (admission == BodyRequestSlots.Admission.CLIENT_BUSY)
				? "This client has as many requests with a body in flight as it may; retry when one is done"
				: "The server has as many requests with a body in flight as it takes; retry shortly";
		String problem = Json.toString(Json.newObject()
			.put("type", type.type().toString())
			.put("title", type.title())
			.put("status", type.status().value())
			.put("detail", detail));
		response.setStatus(type.status().value());
		response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
		response.setHeader(HttpHeaders.CONNECTION, "close");
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.getWriter().write(problem);
		response.flushBuffer();
	}

	/** One admitted request's slot, given back once: when its body has arrived, or when it is answered. */
	private static final class Slot {

		private final BodyRequestSlots slots;

		private final String client;

		private final AtomicBoolean released = new AtomicBoolean();

		private volatile boolean bodyArrived;

		private Slot(BodyRequestSlots slots, String client) {
			this.slots = slots;
			this.client = client;
		}

		void release() {
			if (this.released.compareAndSet(false, true)) {
				this.slots.release(this.client);
			}
		}

	}

	/** The response, which closes the connection when it refuses a request whose body has not all arrived. */
	private static final class ClosingOnRefusal extends HttpServletResponseWrapper {

		private final Slot slot;

		private ClosingOnRefusal(HttpServletResponse response, Slot slot) {
			super(response);
			this.slot = slot;
		}

		@Override
		public void setStatus(int status) {
			closeOnRefusal(status);
			super.setStatus(status);
		}

		@Override
		public void sendError(int status) throws IOException {
			closeOnRefusal(status);
			super.sendError(status);
		}

		@Override
		public void sendError(int status, String message) throws IOException {
			closeOnRefusal(status);
			super.sendError(status, message);
		}

		private void closeOnRefusal(int status) {
			if (status >= 400 && !this.slot.bodyArrived && !isCommitted()) {
				setHeader(HttpHeaders.CONNECTION, "close");
			}
		}

	}

	/**
	 * The request, whose body gives back the slot after the read that took its last byte: from there the request
	 * can no longer stall on its body, and what it waits for next (the session's gate, the database, a hook or a
	 * model) holds no slot. Otherwise a client that closes a connection whose request the server is still working
	 * on, and opens another, would find its share taken by requests it no longer waits for
	 * (docs/BENCHMARKS.md#several-replicas-on-postgresql-benchreplicassh).
	 */
	private static final class SlotReleasingRequest extends HttpServletRequestWrapper {

		private final Slot slot;

		private @Nullable ServletInputStream body;

		private SlotReleasingRequest(HttpServletRequest request, Slot slot) {
			super(request);
			this.slot = slot;
		}

		@Override
		public ServletInputStream getInputStream() throws IOException {
			ServletInputStream read = this.body;
			if (read == null) {
				read = new SlotReleasingBody(super.getInputStream(), this.slot);
				this.body = read;
			}
			return read;
		}

	}

	private static final class SlotReleasingBody extends ServletInputStream {

		private final ServletInputStream body;

		private final Slot slot;

		private SlotReleasingBody(ServletInputStream body, Slot slot) {
			this.body = body;
			this.slot = slot;
		}

		@Override
		public int read() throws IOException {
			return released(this.body.read());
		}

		@Override
		public int read(byte[] bytes, int offset, int length) throws IOException {
			return released(this.body.read(bytes, offset, length));
		}

		private int released(int n) {
			if (n < 0 || this.body.isFinished()) {
				this.slot.bodyArrived = true;
				this.slot.release();
			}
			return n;
		}

		@Override
		public int available() throws IOException {
			return this.body.available();
		}

		@Override
		public boolean isFinished() {
			return this.body.isFinished();
		}

		@Override
		public boolean isReady() {
			return this.body.isReady();
		}

		@Override
		public void setReadListener(ReadListener listener) {
			this.body.setReadListener(listener);
		}

		@Override
		public void close() throws IOException {
			this.body.close();
		}

	}

}
