package dev.arbor.web;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Server-Sent Events client for tests: reads a stream over HTTP line by line on a thread of its own and
 * parses the frames as a browser's EventSource would ({@code id:}, {@code event:}, {@code data:}, comments).
 */
final class SseClient implements AutoCloseable {

	/** One event as received. */
	record Event(long id, String type, JsonNode data) {
	}

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

	private final BlockingQueue<String> comments = new LinkedBlockingQueue<>();

	private final HttpResponse<Stream<String>> response;

	private final Thread reader;

	private SseClient(HttpResponse<Stream<String>> response) {
		this.response = response;
		this.reader = new Thread(this::read, "sse-test-client");
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/**
	 * Opens a stream and waits until it is live (its opening comment arrived), so that nothing published after this
	 * returns can be missed.
	 */
	static SseClient open(int port, String path, @Nullable Long lastEventId) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.header("Accept", "text/event-stream");
		if (lastEventId != null) {
			request.header("Last-Event-ID", Long.toString(lastEventId));
		}
		HttpResponse<Stream<String>> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofLines());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
				type -> assertThat(type).startsWith("text/event-stream"));
		SseClient client = new SseClient(response);
		assertThat(client.comments.poll(10, TimeUnit.SECONDS)).as("the opening comment").isEqualTo("open");
		return client;
	}

	/** The next event, failing the test when none comes within 10 s. */
	Event next() throws InterruptedException {
		Event event = this.events.poll(10, TimeUnit.SECONDS);
		assertThat(event).as("an event within 10 s").isNotNull();
		return event;
	}

	/** The next events up to and including the first of the type. */
	List<Event> until(String type) throws InterruptedException {
		List<Event> received = new ArrayList<>();
		Event event;
		do {
			event = next();
			received.add(event);
		}
		while (!event.type().equals(type));
		return received;
	}

	/** Events that arrive within the time, without waiting for more. */
	List<Event> drain(Duration quiet) throws InterruptedException {
		List<Event> received = new ArrayList<>();
		Event event;
		while ((event = this.events.poll(quiet.toMillis(), TimeUnit.MILLISECONDS)) != null) {
			received.add(event);
		}
		return received;
	}

	/** The next comment line's text (after the colon), or {@code null} when none comes within the time. */
	@Nullable String nextComment(Duration timeout) throws InterruptedException {
		return this.comments.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/** Whether the server ended the stream (the reader saw its end). */
	boolean ended(Duration timeout) throws InterruptedException {
		this.reader.join(timeout.toMillis());
		return !this.reader.isAlive();
	}

	private void read() {
		String id = null;
		String type = "message";
		StringBuilder data = new StringBuilder();
		try (Stream<String> lines = this.response.body()) {
			for (String line : (Iterable<String>) lines::iterator) {
				if (line.isEmpty()) {
					if (data.length() > 0) {
						this.events.add(new Event(Long.parseLong(id), type, Json.MAPPER.readTree(data.toString())));
					}
					id = null;
					type = "message";
					data.setLength(0);
				}
				else if (line.startsWith(":")) {
					this.comments.add(line.substring(1));
				}
				else if (line.startsWith("id:")) {
					id = line.substring(3).trim();
				}
				else if (line.startsWith("event:")) {
					type = line.substring(6).trim();
				}
				else if (line.startsWith("data:")) {
					data.append(line.substring(5));
				}
			}
		}
		catch (RuntimeException ex) {
			// closed by the test
		}
	}

	@Override
	public void close() {
		this.response.body().close();
		this.reader.interrupt();
	}

}
