package dev.arbor.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.arbor.session.Json;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A real HTTP server standing in for an LLM provider, speaking OpenAI's chat completions, Anthropic's messages API
 * or Ollama's chat API, streamed or not. It works on raw sockets, so that a test can see the provider call hung up: a
 * {@linkplain Behaviour#STALL stalling} exchange reads the request, answers nothing and waits for the client to
 * close the connection.
 */
final class ModelServer implements AutoCloseable {

	enum Protocol {

		OPENAI, ANTHROPIC,

		/** Ollama's own {@code /api/chat}: a stream is JSON lines, the last one {@code done} with the counts. */
		OLLAMA

	}

	enum Behaviour {

		/** Answers {@link #answer} (split into three deltas when streamed). */
		ANSWER,

		/** Answers 500 with the protocol's error document. */
		FAIL,

		/** Never answers; records when the client hangs up. */
		STALL

	}

	/** A request as received: method, path, headers (lower-case names) and JSON body. */
	record Request(String method, String path, Map<String, String> headers, JsonNode body) {

		/** The text of every message, the system prompt included, joined. */
		String allText() {
			StringBuilder text = new StringBuilder();
			this.body.path("system").forEach(block -> text.append(block.path("text").asString("")).append('\n'));
			if (this.body.path("system").isString()) {
				text.append(this.body.path("system").asString()).append('\n');
			}
			for (JsonNode message : this.body.path("messages")) {
				JsonNode content = message.get("content");
				if (content != null && content.isString()) {
					text.append(content.asString()).append('\n');
				}
				else if (content != null) {
					content.forEach(block -> text.append(block.path("text").asString("")).append('\n'));
				}
			}
			return text.toString();
		}

	}

	private final Protocol protocol;

	private final ServerSocket socket;

	private final ExecutorService connections = Executors.newCachedThreadPool();

	final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();

	volatile Behaviour behaviour = Behaviour.ANSWER;

	volatile String answer = "## Goal\nSummarized by the stand-in.";

	/** Counts down each time a stalled exchange sees its client hang up. */
	volatile CountDownLatch hangUps = new CountDownLatch(1);

	ModelServer(Protocol protocol) {
		this.protocol = protocol;
		try {
			this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.connections.execute(this::accept);
	}

	/**
	 * The base URL Spring AI's client is given: OpenAI's clients expect the {@code /v1} in it, Anthropic's and
	 * Ollama's not.
	 */
	String baseUrl() {
		String root = "http://127.0.0.1:" + this.socket.getLocalPort();
		return (this.protocol == Protocol.OPENAI) ? root + "/v1" : root;
	}

	void reset() {
		this.requests.clear();
		this.behaviour = Behaviour.ANSWER;
		this.answer = "## Goal\nSummarized by the stand-in.";
		this.hangUps = new CountDownLatch(1);
	}

	Request takeRequest() throws InterruptedException {
		Request request = this.requests.poll(10, TimeUnit.SECONDS);
		if (request == null) {
			throw new AssertionError("the model server got no request");
		}
		return request;
	}

	private void accept() {
		while (!this.socket.isClosed()) {
			try {
				Socket connection = this.socket.accept();
				this.connections.execute(() -> serve(connection));
			}
			catch (IOException ex) {
				return; // closed
			}
		}
	}

	private void serve(Socket connection) {
		try (connection) {
			InputStream in = connection.getInputStream();
			OutputStream out = connection.getOutputStream();
			Request request;
			while ((request = read(in)) != null) {
				this.requests.add(request);
				switch (this.behaviour) {
					case ANSWER -> {
						if (!answer(out, request)) {
							return;
						}
					}
					case FAIL -> respond(out, 500, "application/json", error());
					case STALL -> {
						awaitHangUp(in);
						return;
					}
				}
			}
		}
		catch (IOException ex) {
			// The client went away mid-answer.
		}
	}

	private void awaitHangUp(InputStream in) {
		try {
			while (in.read() >= 0) {
				// Nothing more is expected on a stalled exchange but its end.
			}
		}
		catch (IOException ex) {
			// A reset is a hang-up too.
		}
		this.hangUps.countDown();
	}

	/** Answers; {@code false} when the connection is done (after an event stream, which has no length). */
	private boolean answer(OutputStream out, Request request) throws IOException {
		boolean stream = request.body().path("stream").asBoolean(false);
		if (!stream) {
			String body = switch (this.protocol) {
				case OPENAI -> openAiCompletion();
				case ANTHROPIC -> anthropicMessage();
				case OLLAMA -> Json.toString(ollamaDone(this.answer));
			};
			respond(out, 200, "application/json", body);
			return true;
		}
		if (this.protocol == Protocol.OLLAMA) {
			ollamaStream(out, deltas(this.answer));
			return true;
		}
		String head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n";
		out.write(head.getBytes(StandardCharsets.US_ASCII));
		List<String> deltas = deltas(this.answer);
		String events = (this.protocol == Protocol.OPENAI) ? openAiStream(deltas) : anthropicStream(deltas);
		out.write(events.getBytes(StandardCharsets.UTF_8));
		out.flush();
		return false;
	}

	private static List<String> deltas(String text) {
		int third = Math.max(1, text.length() / 3);
		return List.of(text.substring(0, Math.min(third, text.length())),
				text.substring(Math.min(third, text.length()), Math.min(2 * third, text.length())),
				text.substring(Math.min(2 * third, text.length())));
	}

	private String openAiStream(List<String> deltas) {
		StringBuilder events = new StringBuilder();
		for (int i = 0; i < deltas.size(); i++) {
			ObjectNode delta = Json.newObject();
			if (i == 0) {
				delta.put("role", "assistant");
			}
			delta.put("content", deltas.get(i));
			ObjectNode chunk = openAiChunk();
			chunk.putArray("choices").addObject().put("index", 0).<ObjectNode>set("delta", delta).putNull("finish_reason");
			events.append("data: ").append(Json.toString(chunk)).append("\n\n");
		}
		ObjectNode last = openAiChunk();
		last.putArray("choices").addObject().put("index", 0).<ObjectNode>set("delta", Json.newObject()).put("finish_reason", "stop");
		events.append("data: ").append(Json.toString(last)).append("\n\n");
		ObjectNode usage = openAiChunk();
		usage.putArray("choices");
		usage.set("usage", Json.newObject().put("prompt_tokens", 1200).put("completion_tokens", 80).put("total_tokens", 1280));
		events.append("data: ").append(Json.toString(usage)).append("\n\n");
		return events.append("data: [DONE]\n\n").toString();
	}

	private static ObjectNode openAiChunk() {
		return Json.newObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("created", 1_700_000_000)
			.put("model", "stand-in");
	}

	private String openAiCompletion() {
		ObjectNode completion = Json.newObject().put("id", "chatcmpl-1").put("object", "chat.completion")
			.put("created", 1_700_000_000).put("model", "stand-in");
		completion.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop")
			.putObject("message").put("role", "assistant").put("content", this.answer);
		completion.set("usage", Json.newObject().put("prompt_tokens", 1200).put("completion_tokens", 80).put("total_tokens", 1280));
		return Json.toString(completion);
	}

	private String anthropicStream(List<String> deltas) {
		StringBuilder events = new StringBuilder();
		ObjectNode message = Json.newObject().put("id", "msg_1").put("type", "message").put("role", "assistant")
			.put("model", "stand-in");
		message.putArray("content");
		message.putNull("stop_reason").putNull("stop_sequence");
		message.set("usage", Json.newObject().put("input_tokens", 1200).put("output_tokens", 1));
		anthropicEvent(events, "message_start", Json.newObject().put("type", "message_start").set("message", message));
		anthropicEvent(events, "content_block_start", Json.newObject().put("type", "content_block_start").put("index", 0)
			.set("content_block", Json.newObject().put("type", "text").put("text", "")));
		for (String delta : deltas) {
			anthropicEvent(events, "content_block_delta", Json.newObject().put("type", "content_block_delta").put("index", 0)
				.set("delta", Json.newObject().put("type", "text_delta").put("text", delta)));
		}
		anthropicEvent(events, "content_block_stop", Json.newObject().put("type", "content_block_stop").put("index", 0));
		ObjectNode messageDelta = Json.newObject().put("type", "message_delta");
		messageDelta.set("delta", Json.newObject().put("stop_reason", "end_turn").putNull("stop_sequence"));
		messageDelta.set("usage", Json.newObject().put("output_tokens", 80));
		anthropicEvent(events, "message_delta", messageDelta);
		anthropicEvent(events, "message_stop", Json.newObject().put("type", "message_stop"));
		return events.toString();
	}

	private static void anthropicEvent(StringBuilder events, String name, JsonNode data) {
		events.append("event: ").append(name).append("\ndata: ").append(Json.toString(data)).append("\n\n");
	}

	private String anthropicMessage() {
		ObjectNode message = Json.newObject().put("id", "msg_1").put("type", "message").put("role", "assistant")
			.put("model", "stand-in").put("stop_reason", "end_turn").putNull("stop_sequence");
		message.putArray("content").addObject().put("type", "text").put("text", this.answer);
		message.set("usage", Json.newObject().put("input_tokens", 1200).put("output_tokens", 80));
		return Json.toString(message);
	}

	/**
	 * Streams as Ollama does: chunked, one JSON line a chunk, flushed line by line; the connection stays open for
	 * the next request.
	 */
	private static void ollamaStream(OutputStream out, List<String> deltas) throws IOException {
		String head = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n";
		out.write(head.getBytes(StandardCharsets.US_ASCII));
		for (String delta : deltas) {
			ObjectNode chunk = ollamaChunk(delta).put("done", false);
			writeChunk(out, Json.toString(chunk) + "\n");
		}
		writeChunk(out, Json.toString(ollamaDone("")) + "\n");
		out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private static void writeChunk(OutputStream out, String data) throws IOException {
		byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
		out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
		out.flush();
	}

	private static ObjectNode ollamaChunk(String content) {
		ObjectNode chunk = Json.newObject().put("model", "stand-in").put("created_at", "2023-11-14T22:13:20.000000Z");
		chunk.putObject("message").put("role", "assistant").put("content", content);
		return chunk;
	}

	/** The last line of a stream (its content empty), or a whole answer: done, with the counts and durations. */
	private static ObjectNode ollamaDone(String content) {
		return ollamaChunk(content).put("done_reason", "stop").put("done", true).put("total_duration", 2_000_000_000L)
			.put("load_duration", 100_000_000L).put("prompt_eval_count", 1200).put("prompt_eval_duration", 900_000_000L)
			.put("eval_count", 80).put("eval_duration", 1_000_000_000L);
	}

	private String error() {
		return switch (this.protocol) {
			case OPENAI -> "{\"error\":{\"message\":\"The stand-in is down\",\"type\":\"server_error\",\"code\":null}}";
			case ANTHROPIC -> "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"The stand-in is down\"}}";
			case OLLAMA -> "{\"error\":\"The stand-in is down\"}";
		};
	}

	private static void respond(OutputStream out, int status, String contentType, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		String head = "HTTP/1.1 " + status + ((status == 200) ? " OK" : " Internal Server Error") + "\r\nContent-Type: "
				+ contentType + "\r\nContent-Length: " + bytes.length + "\r\n\r\n";
		out.write(head.getBytes(StandardCharsets.US_ASCII));
		out.write(bytes);
		out.flush();
	}

	/** One request, or {@code null} at the end of the connection. Bodies come with a Content-Length or chunked. */
	private static Request read(InputStream in) throws IOException {
		String requestLine = line(in);
		if (requestLine == null || requestLine.isEmpty()) {
			return null;
		}
		Map<String, String> headers = new LinkedHashMap<>();
		String header;
		while ((header = line(in)) != null && !header.isEmpty()) {
			int colon = header.indexOf(':');
			headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
		}
		byte[] body;
		if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
			ByteArrayOutputStream chunks = new ByteArrayOutputStream();
			int size;
			while ((size = Integer.parseInt(line(in).trim(), 16)) > 0) {
				chunks.write(in.readNBytes(size));
				line(in);
			}
			line(in);
			body = chunks.toByteArray();
		}
		else {
			body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
		}
		String[] parts = requestLine.split(" ");
		return new Request(parts[0], parts[1], headers, Json.MAPPER.readTree(body));
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) >= 0) {
			if (b == '\n') {
				String text = line.toString(StandardCharsets.ISO_8859_1);
				return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
			}
			line.write(b);
		}
		return (line.size() > 0) ? line.toString(StandardCharsets.ISO_8859_1) : null;
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
		this.connections.shutdownNow();
	}

}
