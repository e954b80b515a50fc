package dev.arbor.web.edge;

/** The memory for request bodies stayed taken while a request waited for its share; nothing was read or written. */
public class ServerBusyException extends RuntimeException {

	ServerBusyException() {
		super("The server is busy with other large requests (arbor.api.request-memory is taken): nothing was written; "
				+ "retry in a moment");
	}

}
