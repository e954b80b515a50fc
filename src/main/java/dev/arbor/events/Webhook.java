package dev.arbor.events;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Set;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JsonNode;

/**
 * A hook answered over HTTP (docs/API.md#hooks-and-webhooks): POSTs {@code {event, sessionId, preparation}} (the
 * preparation with the full entries to summarize, every one as stored: unlike the event, the body grows with the branch
 * left behind) and reads {@code {cancel?:true}} or {@code {summary:{summary, details?}}} back. An empty answer (204, or
 * no body) is no answer; a status other than 2xx or a body of another shape fails the call, which counts as no answer
 * too. With a secret, {@value WebhookSignature#HEADER} carries the body's HMAC-SHA256.
 */
public final class Webhook implements SessionHook {

	private final String name;

	private final URI url;

	private final Set<EventType> events;

	private final Duration timeout;

	private final @Nullable WebhookSignature signature;

	private final HttpClient client;

	/**
	 * @param name what logs call it
	 * @param url where events are POSTed
	 * @param events the {@code session_before_*} events it answers
	 * @param timeout how long an answer is waited for, connecting included
	 * @param secret the key of the signature header, or {@code null} for none
	 */
	public Webhook(String name, URI url, Set<EventType> events, Duration timeout, @Nullable String secret,
			HttpClient client) {
		for (EventType event : events) {
			if (event != EventType.SESSION_BEFORE_TREE && event != EventType.SESSION_BEFORE_BRANCH) {
				throw new IllegalArgumentException("Webhook " + name + ": hooks answer session_before_tree and "
						+ "session_before_branch only, not " + event.wireName());
			}
		}
		this.name = name;
		this.url = url;
		this.events = Set.copyOf(events);
		this.timeout = timeout;
		this.signature = (secret != null && !secret.isEmpty()) ? new WebhookSignature(secret) : null;
		this.client = client;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public Duration timeout() {
		return this.timeout;
	}

	@Override
	public boolean answers(EventType type) {
		return this.events.contains(type);
	}

	@Override
	public HookAnswer beforeTree(TreePreparation preparation) throws IOException, InterruptedException {
		return post(EventType.SESSION_BEFORE_TREE, preparation.sessionId(), generator -> {
			generator.writeStringProperty("targetId", preparation.targetId());
			generator.writeStringProperty("oldLeafId", preparation.oldLeafId());
			generator.writeStringProperty("commonAncestorId", preparation.commonAncestorId());
			generator.writeName("entriesToSummarize");
			generator.writeStartArray();
			for (EntryLine entry : preparation.entriesToSummarize()) {
				generator.writeRawValue(entry.json());
			}
			generator.writeEndArray();
			generator.writeBooleanProperty("userWantsSummary", preparation.userWantsSummary());
			generator.writeStringProperty("customInstructions", preparation.customInstructions());
		});
	}

	@Override
	public HookAnswer beforeBranch(BranchPreparation preparation) throws IOException, InterruptedException {
		return post(EventType.SESSION_BEFORE_BRANCH, preparation.sessionId(),
				generator -> generator.writeStringProperty("entryId", preparation.entryId()));
	}

	private HookAnswer post(EventType event, String sessionId, PreparationWriter preparation)
			throws IOException, InterruptedException {
		byte[] body = body(event, sessionId, preparation);
		HttpRequest.Builder request = HttpRequest.newBuilder(this.url)
			.timeout(this.timeout)
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.header(WebhookSignature.EVENT_HEADER, event.wireName())
			.POST(HttpRequest.BodyPublishers.ofByteArray(body));
		if (this.signature != null) {
			request.header(WebhookSignature.HEADER, this.signature.sign(body));
		}
		HttpResponse<byte[]> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
		if (response.statusCode() < 200 || response.statusCode() > 299) {
			throw new IOException("answered " + response.statusCode());
		}
		return answer(response.body());
	}

	private static byte[] body(EventType event, String sessionId, PreparationWriter preparation) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		try (JsonGenerator generator = Json.MAPPER.createGenerator(out)) {
			generator.writeStartObject();
			generator.writeStringProperty("event", event.wireName());
			generator.writeStringProperty("sessionId", sessionId);
			generator.writeName("preparation");
			generator.writeStartObject();
			preparation.write(generator);
			generator.writeEndObject();
			generator.writeEndObject();
		}
		return out.toByteArray();
	}

	/**
	 * Reads an answer; anything but the two shapes of docs/API.md#hooks-and-webhooks is refused, so that typos do not
	 * pass silently.
	 */
	static HookAnswer answer(byte[] body) throws IOException {
		if (new String(body, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
			return HookAnswer.NONE;
		}
		JsonNode answer;
		try {
			answer = Json.MAPPER.readTree(body);
		}
		catch (RuntimeException ex) {
			throw new IOException("answered with malformed JSON", ex);
		}
		if (!answer.isObject()) {
			throw new IOException("answered with JSON that is not an object");
		}
		JsonNode cancel = answer.get("cancel");
		if (cancel != null && !cancel.isNull() && !cancel.isBoolean()) {
			throw new IOException("answered with a \"cancel\" that is not a boolean");
		}
		if (cancel != null && cancel.asBoolean(false)) {
			return HookAnswer.CANCEL;
		}
		JsonNode summary = Json.value(answer, "summary");
		if (summary == null) {
			return HookAnswer.NONE;
		}
		String text = summary.isObject() ? Json.text(summary, "summary") : null;
		if (text == null) {
			throw new IOException("answered with a \"summary\" that is not {summary: string, details?}");
		}
		return HookAnswer.summary(text, Json.value(summary, "details"));
	}

	@Override
	public String toString() {
		return "Webhook " + this.name + " (" + this.url + ")";
	}

	@FunctionalInterface
	private interface PreparationWriter {

		void write(JsonGenerator generator);

	}

}
