package dev.arbor.web.edge;

import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses the methods Arbor does not serve before the servlet context sees them, as problem documents
 * ({@link ProblemErrorHandler}). {@code CONNECT} gets 501 and a closed connection: Arbor is no proxy, and Jetty would
 * hand the request to the context, which finds no path in its target (an authority, {@code host:port}) and leaves the
 * connection open. {@code TRACE} gets 405: the servlet API would echo the request, headers and all, back to the
 * client (cross-site tracing).
 */
final class MethodRefusal extends Handler.Wrapper {

	MethodRefusal(Handler handler) {
		super(handler);
	}

	@Override
	public boolean handle(Request request, Response response, Callback callback) throws Exception {
		if (HttpMethod.CONNECT.is(request.getMethod())) {
			Response.writeError(request, response, callback, HttpStatus.NOT_IMPLEMENTED_501);
			return true;
		}
		if (HttpMethod.TRACE.is(request.getMethod())) {
			Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
			return true;
		}
		return super.handle(request, response, callback);
	}

}
