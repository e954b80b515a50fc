package dev.arbor.summary;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.context.Context;

/**
 * The provider HTTP calls of the summaries in flight, so that an aborted summary hangs up its call even before
 * the provider has answered. Spring AI's OpenAI and Anthropic clients (OkHttp) close a streamed answer once it has
 * started, but leave a call still waiting for its first byte running until their own timeout. So does its Ollama
 * client (Spring's {@code WebClient}): before the first chunk, a cancel of {@code OllamaApi.streamingChat} (Spring
 * AI 2.0.1), which groups the chunks with {@code windowUntil} and {@code concatMapIterable}, does not reach the
 * HTTP exchange; and a model on the CPU may read a long prompt for minutes before it sends a chunk.
 *
 * <p>Each summary request carries a name. On the OkHttp clients it is a header, which this interceptor, registered
 * on them, takes off before the request leaves; on {@code WebClient}, whose requests Spring AI's Ollama options
 * cannot give a header, it is in the Reactor context ({@link #context}), which {@link #exchangeFilter()} reads.
 */
public final class ProviderCalls implements Interceptor {

	/** The request header that names a summary's call; never sent to the provider. */
	static final String HEADER = "X-Arbor-Summary-Call";

	/** The Reactor context key that names a summary's call. */
	private static final String CONTEXT_KEY = ProviderCalls.class.getName() + ".call";

	/** How to hang up each call that has started, by name. */
	private final Map<String, Runnable> calls = new ConcurrentHashMap<>();

	private final Set<String> hungUp = ConcurrentHashMap.newKeySet();

	/** A name for the next summary's call. */
	String open() {
		return UUID.randomUUID().toString();
	}

	/** The Reactor context that names a summary's call to {@link #exchangeFilter()}. */
	static Context context(String name) {
		return Context.of(CONTEXT_KEY, name);
	}

	/** Hangs up the named call, now or as soon as it starts. */
	void hangUp(String name) {
		this.hungUp.add(name);
		Runnable call = this.calls.get(name);
		if (call != null) {
			call.run();
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
		watch(name, chain.call()::cancel);
		return chain.proceed(request.newBuilder().removeHeader(HEADER).build());
	}

	/**
	 * The same for {@code WebClient}: an exchange whose Reactor context names a summary's call ends when that call
	 * is hung up. Cancelling the exchange before the answer arrives, or its body after, closes the connection.
	 */
	public ExchangeFilterFunction exchangeFilter() {
		return (request, next) -> Mono.deferContextual(context -> {
			String name = context.getOrDefault(CONTEXT_KEY, null);
			if (name == null) {
				return next.exchange(request);
			}
			// A one-value sink: a body subscribed after the hang-up still sees it, and ends at once.
			Sinks.One<Boolean> hangUp = Sinks.one();
			watch(name, () -> hangUp.tryEmitValue(true));
			return next.exchange(request)
				.takeUntilOther(hangUp.asMono())
				.map(response -> response.mutate().body(body -> body.takeUntilOther(hangUp.asMono())).build());
		});
	}

	private void watch(String name, Runnable hangUp) {
		// Registered before the check, so that a hang-up between the two still finds the call.
		this.calls.put(name, hangUp);
		if (this.hungUp.contains(name)) {
			hangUp.run();
		}
	}

}
