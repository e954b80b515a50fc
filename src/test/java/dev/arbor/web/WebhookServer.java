package dev.arbor.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/** A real HTTP server standing in for a webhook: records each request and answers as the test says. */
final class WebhookServer {

	/** A request as received: its headers (lower-case names) and exact body bytes. */
	record Request(Map<String, List<String>> headers, byte[] body) {

		String header(String name) {
			List<String> values = this.headers.get(name.toLowerCase(java.util.Locale.ROOT));
			return (values != null) ? values.get(0) : null;
		}

	}

	/** An answer: after a delay, a status and a JSON body (empty for none). */
	record Answer(int status, String body, long delayMillis) {

		static Answer json(String body) {
			return new Answer(200, body, 0);
		}

		static Answer none() {
			return new Answer(204, "", 0);
		}

	}

	private final HttpServer server;

	final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();

	volatile java.util.function.Function<Request, Answer> answer = request -> Answer.none();

	private WebhookServer(HttpServer server) {
		this.server = server;
	}

	static WebhookServer start() {
		try {
			HttpServer http = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
			WebhookServer server = new WebhookServer(http);
			http.createContext("/hook", server::handle);
			http.setExecutor(Executors.newCachedThreadPool(runnable -> {
				Thread thread = new Thread(runnable, "webhook-server");
				thread.setDaemon(true);
				return thread;
			}));
			http.start();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	String url() {
		return "http://localhost:" + this.server.getAddress().getPort() + "/hook";
	}

	void reset() {
		this.requests.clear();
		this.answer = request -> Answer.none();
	}

	Request nextRequest() throws InterruptedException {
		Request request = this.requests.poll(10, TimeUnit.SECONDS);
		if (request == null) {
			throw new AssertionError("The webhook received no request within 10 s");
		}
		return request;
	}

	private void handle(HttpExchange exchange) throws IOException {
		Map<String, List<String>> headers = new java.util.HashMap<>();
		exchange.getRequestHeaders()
			.forEach((name, values) -> headers.put(name.toLowerCase(java.util.Locale.ROOT), values));
		Request request = new Request(headers, exchange.getRequestBody().readAllBytes());
		this.requests.add(request);
		Answer answer = this.answer.apply(request);
		try {
			Thread.sleep(answer.delayMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().add("Content-Type", "application/json");
		exchange.sendResponseHeaders(answer.status(), body.length == 0 ? -1 : body.length);
		if (body.length > 0) {
			exchange.getResponseBody().write(body);
		}
		exchange.close();
	}

}
