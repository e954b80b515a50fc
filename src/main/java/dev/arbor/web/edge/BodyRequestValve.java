package dev.arbor.web.edge;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.arbor.session.Json;
import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;
import org.apache.coyote.InputBuffer;
import org.apache.tomcat.util.net.ApplicationBufferHandler;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * Keeps requests with a body from taking every worker thread. A client that stalls its body holds a worker in a
 * blocking read (the servlet API reads bodies so, and Java 17 has no virtual threads), so without a bound a few
 * hundred stalled uploads leave nothing to answer health or reads. Admits at most
 * {@code arbor.api.max-body-requests} bodies still arriving at once, and
 * {@code arbor.api.max-body-requests-per-client} from one remote address; the rest get 503 or 429 with
 * {@code Retry-After} at once, and their connection closes. A request holds its slot until its body has arrived
 * (or until it is answered, if its body is never read whole), not while it is worked on.
 * <p>
 * A valve rather than a servlet filter, because only Tomcat can be told not to wait for a body nobody will read:
 * after a refusal, Tomcat would otherwise hold the worker to swallow the rest (up to
 * {@code server.tomcat.max-swallow-size}), and a stalled client sends no rest.
 */
class BodyRequestValve extends ValveBase {

	private static final String RETRY_AFTER_SECONDS = "1";

	private final BodyRequestSlots slots;

	BodyRequestValve(BodyRequestSlots slots) {
		super(true);
		this.slots = slots;
	}

	@Override
	public void invoke(Request request, Response response) throws IOException, ServletException {
		if (!RequestBodies.present(request)) {
			getNext().invoke(request, response);
			return;
		}
		String client = request.getRemoteAddr();
		BodyRequestSlots.Admission admission = this.slots.tryAcquire(client);
		if (admission != BodyRequestSlots.Admission.ADMITTED) {
			refuse(request, response, admission);
			return;
		}
		org.apache.coyote.Request coyoteRequest = request.getCoyoteRequest();
		InputBuffer body = coyoteRequest.getInputBuffer();
		Slot slot = new Slot(this.slots, client);
		coyoteRequest.setInputBuffer(new SlotReleasingBody(body, coyoteRequest, slot));
		try {
			getNext().invoke(request, response);
		}
		finally {
			coyoteRequest.setInputBuffer(body); // the processor keeps it for the connection's next request
			slot.release();
			if (!request.isAsync()) {
				maybeAbandonBody(request, response);
			}
		}
	}

	private static void refuse(Request request, Response response, BodyRequestSlots.Admission admission)
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
		abandonBody(request, response);
		response.setStatus(type.status().value());
		response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding(StandardCharsets.UTF_8.name());
		response.getWriter().write(problem);
		response.flushBuffer();
	}

	/**
	 * The body of a refused request (4xx, 5xx) left partly unread ends its connection instead of holding the worker
	 * until the client sends it. Only while the answer is not committed: once it is, Tomcat would take the closing
	 * for a failure and cut the answer short (a chunked one loses its last chunk). And never for a success: Tomcat
	 * turns an answer below 400 into a 500 when told not to swallow the rest (an OPTIONS or a DELETE that came with
	 * a body it did not need would report a failure, the DELETE after the file was gone). Those bodies Tomcat
	 * swallows, each read bounded by the body timeout.
	 */
	private static void maybeAbandonBody(Request request, Response response) {
		AtomicBoolean fullyRead = new AtomicBoolean();
		request.getCoyoteRequest().action(ActionCode.REQUEST_BODY_FULLY_READ, fullyRead);
		if (!fullyRead.get() && !response.isCommitted() && response.getStatus() >= 400) {
			abandonBody(request, response);
		}
	}

	private static void abandonBody(Request request, Response response) {
		response.setHeader(HttpHeaders.CONNECTION, "close");
		request.getCoyoteRequest().action(ActionCode.DISABLE_SWALLOW_INPUT, null);
	}

	/** One admitted request's slot, given back once: when its body has arrived, or when it is answered. */
	private static final class Slot {

		private final BodyRequestSlots slots;

		private final String client;

		private final AtomicBoolean released = new AtomicBoolean();

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

	/**
	 * The request's body as Tomcat reads it for the servlet, which gives back the slot after the read that took
	 * its last byte: from there the request can no longer stall on its body, and what it waits for next (the
	 * session's gate, the database, a hook or a model) holds no slot. Otherwise a client that closes a connection
	 * whose request the server is still working on, and opens another, would find its share taken by requests it no
	 * longer waits for (docs/BENCHMARKS.md#several-replicas-on-postgresql-benchreplicassh).
	 */
	private static final class SlotReleasingBody implements InputBuffer {

		private final InputBuffer body;

		private final org.apache.coyote.Request coyoteRequest;

		private final Slot slot;

		private SlotReleasingBody(InputBuffer body, org.apache.coyote.Request coyoteRequest, Slot slot) {
			this.body = body;
			this.coyoteRequest = coyoteRequest;
			this.slot = slot;
		}

		@Override
		public int doRead(ApplicationBufferHandler handler) throws IOException {
			int n = this.body.doRead(handler);
			if (n < 0 || this.coyoteRequest.isFinished()) {
				this.slot.release();
			}
			return n;
		}

		@Override
		public int available() {
			return this.body.available();
		}

	}

}
