package dev.arbor.web.edge;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Refuses what Arbor does not serve before the servlet context sees it, as problem documents
 * ({@link ProblemErrorHandler}): two methods and every transfer coding but chunked.
 * <p>
 * {@code CONNECT} gets 501 and a closed connection: Arbor is no proxy, and Jetty would hand the request to the
 * context, which finds no path in its target (an authority, {@code host:port}) and leaves the connection open.
 * {@code TRACE} gets 405: the servlet API would echo the request, headers and all, back to the client (cross-site
 * tracing).
 * <p>
 * A transfer coding before chunked ({@code Transfer-Encoding: gzip, chunked}) gets 501 and a closed connection, as
 * RFC 9112, section 6.1, asks of a coding the server does not implement: Jetty takes off the chunks and hands the
 * body on still gzipped, as if it were the JSON it claims to be under the coding. (Jetty refuses a last coding other
 * than chunked itself, {@code Transfer-Encoding: gzip}, as a body it cannot frame: 400.)
 */
final class ProtocolRefusal extends Handler.Wrapper {

	ProtocolRefusal(Handler handler) {
		super(handler);
	}

	@Override
	public boolean handle(Request request, Response response, Callback callback) throws Exception {
		if (HttpMethod.CONNECT.is(request.getMethod()) || codedBeyondChunks(request)) {
			Response.writeError(request, response, callback, HttpStatus.NOT_IMPLEMENTED_501);
			return true;
		}
		if (HttpMethod.TRACE.is(request.getMethod())) {
			Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
			return true;
		}
		return super.handle(request, response, callback);
	}

	private static boolean codedBeyondChunks(Request request) {
		for (String codings : request.getHeaders().getValuesList(HttpHeader.TRANSFER_ENCODING)) {
			for (String coding : codings.split(",")) {
				if (!coding.isBlank() && !"chunked".equalsIgnoreCase(coding.strip())) {
					return true;
				}
			}
		}
		return false;
	}

}
