package dev.arbor.summary;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The provider HTTP calls of the summaries in flight, so that an aborted summary hangs up its call even before
 * the provider has answered. Spring AI's OpenAI and Anthropic clients (OkHttp) close a streamed answer once it has
 * started, but leave a call still waiting for its first byte running until their own timeout.
 *
 * <p>Each summary request carries a header naming it; this interceptor, registered on those clients, takes the
 * header off before the request leaves and remembers the call under that name.
 */
public final class ProviderCalls implements Interceptor {

	/** The request header that names a summary's call; never sent to the provider. */
	static final String HEADER = "X-Arbor-Summary-Call";

	private final Map<String, Call> calls = new ConcurrentHashMap<>();

	private final Set<String> hungUp = ConcurrentHashMap.newKeySet();

	/** A name for the next summary's call. */
	String open() {
		return UUID.randomUUID().toString();
	}

	/** Hangs up the named call, now or as soon as it starts. */
	void hangUp(String name) {
		this.hungUp.add(name);
		Call call = this.calls.get(name);
		if (call != null) {
			call.cancel();
		}
	}

	/** Forgets the named call: its summary is done. */
	void close(String name) {
		this.calls.remove(name);
		this.hungUp.remove(name);
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Request request = chain.request();
		String name = request.header(HEADER);
		if (name == null) {
			return chain.proceed(request);
		}
		// Registered before the check, so that a hang-up between the two still finds the call.
		this.calls.put(name, chain.call());
		if (this.hungUp.contains(name)) {
			chain.call().cancel();
		}
		return chain.proceed(request.newBuilder().removeHeader(HEADER).build());
	}

}
