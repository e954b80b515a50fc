package dev.arbor.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import dev.arbor.events.EventType;
import dev.arbor.storage.file.FsyncPolicy;
import dev.arbor.summary.SummaryProvider;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Settings under {@code arbor.*}.
 *
 * @param storage where session files live and how appends reach the disk
 * @param api limits of the HTTP API
 * @param events the Server-Sent Events streams
 * @param hooks the webhooks that answer {@code session_before_*} events
 * @param security who may call the API, and from which browser origins
 * @param summary the model that writes branch summaries
 */
@ConfigurationProperties("arbor")
@Validated
public record ArborProperties(@DefaultValue @Valid Storage storage, @DefaultValue @Valid Api api,
		@DefaultValue @Valid Events events, @DefaultValue @Valid Hooks hooks, @DefaultValue @Valid Security security,
		@DefaultValue @Valid Summary summary) {

	/**
	 * Session storage.
	 *
	 * @param type where sessions live: {@code file}, session files under {@code dir} (the default, one instance), or
	 * {@code postgres}, a PostgreSQL database that several instances share ({@code spring.datasource.*})
	 * @param dir the root directory, scanned recursively for {@code *.jsonl} session files
	 * @param fsync {@code always}: acknowledge an append once it is on disk; {@code never}: once written
	 * @param cacheSize loaded session files beyond which idle sessions are unloaded from memory; 40 % of the heap when
	 * unset
	 * @param maxSessionSize the most one session may grow to by Arbor's writes: a session is served from memory
	 * whole, so one larger than the heap can hold would fail every request; larger writes get 413; 40 % of the heap
	 * when unset
	 * @param watch whether the directory is watched for what other processes (the agents) write: their lines reach
	 * the event streams within milliseconds
	 * @param pollInterval how often the files of loaded sessions and the folders are looked at for changes, where
	 * watching sends no events (NFS, some bind mounts); {@code 0} never
	 * @param tornTailGrace how long a last line without its newline counts as another process's write in progress
	 * (Arbor appends nothing after it meanwhile); one that stays so longer is a crash remnant, repaired on the next
	 * write with a backup
	 * @param navigationLease with the PostgreSQL store, how long a navigation holds its session against other
	 * instances unless renewed (it is renewed every third of this while the navigation runs): after an instance dies
	 * mid-navigation, the others' writes to that session wait this long at most
	 * @param followLinks whether symbolic links under {@code dir} (to session files or to folders) are followed when
	 * they lead to a place inside {@code dir}; by default none is, and each is listed as unreadable (a symbolic link).
	 * A link that leads out of {@code dir}, or nowhere, is never followed: the directory is a boundary
	 */
	public record Storage(@DefaultValue("file") @NotNull StorageType type, @DefaultValue("data/sessions") @NotNull Path dir, @DefaultValue("always") @NotNull FsyncPolicy fsync,
			@Nullable DataSize cacheSize, @Nullable DataSize maxSessionSize, @DefaultValue("true") boolean watch,
			@DefaultValue("2s") @NotNull @DurationMin(millis = 0) Duration pollInterval,
			@DefaultValue("3s") @NotNull @DurationMin(millis = 0) Duration tornTailGrace,
			@DefaultValue("15s") @NotNull @DurationMin(seconds = 1) Duration navigationLease,
			@DefaultValue("false") boolean followLinks) {

		public Storage {
			cacheSize = (cacheSize != null) ? cacheSize : HeapShares.percent(HeapShares.CACHE_PERCENT);
			maxSessionSize = (maxSessionSize != null) ? maxSessionSize : HeapShares.percent(HeapShares.CACHE_PERCENT);
		}

		@Override
		public DataSize cacheSize() {
			return Objects.requireNonNull(this.cacheSize);
		}

		@Override
		public DataSize maxSessionSize() {
			return Objects.requireNonNull(this.maxSessionSize);
		}

	}

	/**
	 * The HTTP API.
	 *
	 * @param maxRequestBytes the largest request body accepted (imports included); larger ones get 413
	 * @param requestMemory the memory that the bodies of requests in flight may take together, counted as
	 * {@value #BODY_COPIES} times each body's size (what reading, writing and announcing it takes); a request that
	 * finds it taken waits a few seconds, then gets 503; 25 % of the heap when unset
	 * @param bodyTimeout how long a request body may take to arrive, and how long it may pause; a slower one gets 408
	 * or its connection closed
	 * @param maxBodyRequests requests (appends, imports, navigations …) whose body is still arriving at once; more get
	 * 503 at once, so that the workers left answer reads and health while writers stall; a request counts until its
	 * body has arrived, not while it is worked on
	 * @param maxBodyRequestsPerClient requests whose body is still arriving at once from one remote address; more get
	 * 429
	 * @param idempotencyKeys the most {@code Idempotency-Key}s of appends an instance remembers, with the body each
	 * came with, to refuse a key sent again with another body (422) or while its first request runs (409); beyond
	 * it the eldest are forgotten. Retries find their entries in the session whether or not it remembers them
	 * @param idempotencyWindow how long an instance remembers an {@code Idempotency-Key} after its first use (and, with
	 * the PostgreSQL store, how long the database keeps the body it came with)
	 */
	public record Api(@DefaultValue("16MB") @NotNull DataSize maxRequestBytes, @Nullable DataSize requestMemory,
			@DefaultValue("30s") @NotNull @DurationMin(millis = 1) Duration bodyTimeout,
			@DefaultValue("100") @Min(1) int maxBodyRequests, @DefaultValue("64") @Min(1) int maxBodyRequestsPerClient,
			@DefaultValue("10000") @Min(1) int idempotencyKeys,
			@DefaultValue("24h") @NotNull @DurationMin(seconds = 1) Duration idempotencyWindow) {

		/** How many times its size a body takes in memory: bytes, parsed, the line written, the event rendered. */
		public static final int BODY_COPIES = 8;

		public Api {
			requestMemory = (requestMemory != null) ? requestMemory
					: HeapShares.percent(HeapShares.REQUEST_MEMORY_PERCENT);
		}

		@Override
		public DataSize requestMemory() {
			return Objects.requireNonNull(this.requestMemory);
		}

	}

	/**
	 * Server-Sent Events.
	 *
	 * @param replaySize the latest events kept per session (and for the stream of all sessions) for clients that
	 * reconnect with {@code Last-Event-ID}
	 * @param heartbeat how often an idle stream gets a comment, so that proxies keep it open
	 * @param maxPending the events a client may fall behind before it is dropped (it reconnects and replays)
	 * @param maxPendingBytes the bytes of events a client may fall behind before it is dropped
	 * @param maxStreams the event streams open at once; more are refused with 503. When unset, as many as fit in 20 %
	 * of the heap (at 16 KB each), at most 10,000. Keep it below {@code server.jetty.max-connections}, so that
	 * other requests are still taken in
	 * @param replayMemory the most memory the replay of all sessions together takes (beyond it, the replay of the
	 * sessions quiet for longest is dropped), and the replay of the stream of all sessions as much again; 5 % of the
	 * heap when unset, at most 64MB
	 * @param retention with the PostgreSQL store, how long events are kept in the database for replay (instead of
	 * {@code replaySize} and {@code replayMemory}, which bound the file store's replay in memory)
	 */
	public record Events(@DefaultValue("1000") @Min(0) int replaySize,
			@DefaultValue("15s") @NotNull @DurationMin(millis = 1) Duration heartbeat,
			@DefaultValue("1000") @Min(1) int maxPending, @DefaultValue("4MB") @NotNull DataSize maxPendingBytes,
			@Nullable @Min(1) Integer maxStreams, @Nullable DataSize replayMemory,
			@DefaultValue("1h") @NotNull @DurationMin(seconds = 1) Duration retention) {

		public Events {
			replayMemory = (replayMemory != null) ? replayMemory : HeapShares.replay();
			maxStreams = (maxStreams != null) ? maxStreams : HeapShares.streams();
		}

		@Override
		public Integer maxStreams() {
			return Objects.requireNonNull(this.maxStreams);
		}

		@Override
		public DataSize replayMemory() {
			return Objects.requireNonNull(this.replayMemory);
		}

	}

	/**
	 * Hooks.
	 *
	 * @param webhooks called in this order, after the hooks that are beans
	 */
	public record Hooks(@DefaultValue List<@Valid Webhook> webhooks) {
	}

	/**
	 * A webhook (docs/API.md#hooks-and-webhooks).
	 *
	 * @param name what logs call it; the URL without its query by default
	 * @param url where the events are POSTed
	 * @param events the events it answers: {@code session_before_tree}, {@code session_before_branch}
	 * @param timeout how long its answer is waited for; a slower one counts as no answer
	 * @param secret the key of the {@code X-Arbor-Signature-256} HMAC-SHA256 header; none without it
	 */
	public record Webhook(@Nullable String name, @NotNull URI url,
			@DefaultValue({ "session_before_tree", "session_before_branch" }) @NotEmpty Set<EventType> events,
			@DefaultValue("30s") @NotNull @DurationMin(millis = 1) Duration timeout, @Nullable String secret) {

		/** The name logs give it. */
		public String displayName() {
			if (this.name != null && !this.name.isBlank()) {
				return this.name;
			}
			return this.url.getScheme() + "://" + this.url.getAuthority() + this.url.getPath();
		}

	}

	/**
	 * Access to the API.
	 *
	 * @param apiKeys when any is set, every endpoint but health and the API documentation needs
	 * {@code Authorization: Bearer <key>} with one of them; none set, the API is open
	 * @param cors browser origins allowed to call the API (the event streams included)
	 */
	public record Security(@DefaultValue List<String> apiKeys, @DefaultValue @Valid Cors cors) {

		/** The keys that are set (an empty entry, as an empty environment variable gives, is none). */
		public List<String> keys() {
			return this.apiKeys.stream().map(String::trim).filter(key -> !key.isEmpty()).toList();
		}

	}

	/**
	 * Cross-origin requests from browser frontends.
	 *
	 * @param allowedOrigins origins such as {@code https://app.example.com}, or patterns such as
	 * {@code https://*.example.com}; none allows no cross-origin request
	 * @param maxAge how long a browser may cache a preflight's answer
	 */
	public record Cors(@DefaultValue List<String> allowedOrigins, @DefaultValue("30m") @NotNull Duration maxAge) {
	}

	/**
	 * Branch summaries by a model (docs/SESSION-FORMAT.md#navigation). The provider's URL, key and model are Spring
	 * AI's own settings ({@code spring.ai.openai.*}, {@code spring.ai.anthropic.*}, {@code spring.ai.ollama.*}).
	 *
	 * @param provider the Spring AI chat model that writes them: {@code none} (summaries answer 422),
	 * {@code openai} (also any OpenAI-compatible server), {@code anthropic} or {@code ollama}
	 * @param contextWindow the model's context window, in tokens
	 * @param reserveTokens the part of the window kept for the instructions and the answer; the abandoned
	 * conversation gets the rest, newest messages first
	 * @param maxOutputTokens the longest summary the model may write, in tokens
	 * @param timeout how long a summary may take; a slower model fails the navigation with 502
	 */
	public record Summary(@DefaultValue("none") @NotNull SummaryProvider provider,
			@DefaultValue("128000") @Min(1) int contextWindow, @DefaultValue("16384") @Min(0) int reserveTokens,
			@DefaultValue("2048") @Min(1) int maxOutputTokens,
			@DefaultValue("5m") @NotNull @DurationMin(millis = 1) Duration timeout) {

		/** What the abandoned conversation may take of the window: upstream's {@code contextWindow - reserveTokens}. */
		public int tokenBudget() {
			return this.contextWindow - this.reserveTokens;
		}

		@AssertTrue(message = "must leave room for the conversation: reserve-tokens must be less than context-window")
		boolean isBudgetPositive() {
			return tokenBudget() > 0;
		}

	}

}
