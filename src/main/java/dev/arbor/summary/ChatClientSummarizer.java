package dev.arbor.summary;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.arbor.session.EntryLine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.anthropic.AnthropicChatOptions;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;
import reactor.core.Disposable;
import reactor.core.Disposables;

/**
 * The summary model of docs/SESSION-FORMAT.md#navigation on Spring AI's {@link ChatClient}, so any chat model Spring AI
 * supports can write branch summaries. The answer is streamed: cancelling a summary (an aborted navigation)
 * disposes the stream, which closes the provider's connection instead of leaving the model writing for nobody.
 *
 * <p>Meters: {@code arbor.summary.requests} (a timer by {@code provider} and {@code outcome}: success, failed,
 * timeout, aborted) and {@code arbor.summary.tokens} (by {@code provider} and {@code type}: input, output, as
 * the provider reports them).
 */
public final class ChatClientSummarizer implements BranchSummarizer {

	/** Ends summaries that take too long; a finished summary cancels its timer, so none lingers. */
	private static final ScheduledThreadPoolExecutor TIMEOUTS = timeouts();

	private final ChatClient client;

	private final SummaryProvider provider;

	private final SummaryLimits limits;

	private final ProviderCalls calls;

	private final MeterRegistry meters;

	private final Counter inputTokens;

	private final Counter outputTokens;

	/**
	 * @param calls the provider calls in flight, registered as an interceptor on the provider's HTTP client
	 */
	public ChatClientSummarizer(ChatClient client, SummaryProvider provider, SummaryLimits limits,
			ProviderCalls calls, MeterRegistry meters) {
		this.client = client;
		this.provider = provider;
		this.limits = limits;
		this.calls = calls;
		this.meters = meters;
		this.inputTokens = tokens("input");
		this.outputTokens = tokens("output");
	}

	private static ScheduledThreadPoolExecutor timeouts() {
		CustomizableThreadFactory threads = new CustomizableThreadFactory("arbor-summary-timeout-");
		threads.setDaemon(true);
		ScheduledThreadPoolExecutor timeouts = new ScheduledThreadPoolExecutor(1, threads);
		timeouts.setRemoveOnCancelPolicy(true);
		return timeouts;
	}

	private Counter tokens(String type) {
		return Counter.builder("arbor.summary.tokens")
			.description("Tokens of summary requests and answers, as the provider counts them")
			.tag("provider", this.provider.id())
			.tag("type", type)
			.register(this.meters);
	}

	@Override
	public String provider() {
		return this.provider.id();
	}

	@Override
	public CompletableFuture<BranchSummary> summarize(List<EntryLine> entries, @Nullable String customInstructions) {
		FileOperations files = FileOperations.of(entries);
		BranchConversation conversation = BranchConversation.of(entries, this.limits.tokenBudget());
		if (conversation.messages() == 0) {
			return CompletableFuture.completedFuture(
					new BranchSummary(SummaryContent.NOTHING_TO_SUMMARIZE, files.details()));
		}
		Timer.Sample sample = Timer.start(this.meters);
		CompletableFuture<BranchSummary> summary = new CompletableFuture<>();
		Answer answer = new Answer();
		String callName = this.calls.open();
		Disposable call;
		try {
			call = this.client.prompt()
				.messages(new SystemMessage(SummaryPrompt.SYSTEM),
						new UserMessage(SummaryPrompt.user(conversation.transcript(), customInstructions)))
				.options(options(callName))
				.stream()
				.chatResponse()
				.contextWrite(ProviderCalls.context(callName))
				.subscribe(answer::add, summary::completeExceptionally, () -> complete(summary, answer, files));
		}
		catch (RuntimeException ex) {
			// A request the client refuses before sending fails the summary like a provider error.
			call = Disposables.disposed();
			summary.completeExceptionally(ex);
		}
		Duration timeout = this.limits.timeout();
		ScheduledFuture<?> timer = TIMEOUTS.schedule(() -> summary.completeExceptionally(new TimeoutException(
				"no summary within " + timeout.toString().substring(2).toLowerCase(Locale.ROOT))), timeout.toMillis(),
				TimeUnit.MILLISECONDS);
		Disposable started = call;
		summary.whenComplete((done, failure) -> {
			timer.cancel(false);
			started.dispose();
			if (failure != null) {
				this.calls.hangUp(callName);
			}
			this.calls.close(callName);
			answer.recordTokens();
			sample.stop(Timer.builder("arbor.summary.requests")
				.description("Summary model calls, by outcome: success, failed, timeout, aborted")
				.tag("provider", this.provider.id())
				.tag("outcome", outcome(failure))
				.register(this.meters));
		});
		return summary;
	}

	/**
	 * The request's options: the most output tokens, and the header naming the call for the OkHttp clients that
	 * {@link ProviderCalls} watches. Ollama's options take no headers: its client finds the name in the Reactor
	 * context. Its portable maxTokens is Ollama's {@code options.num_predict}.
	 */
	private ChatOptions.Builder<?> options(String callName) {
		Map<String, String> header = Map.of(ProviderCalls.HEADER, callName);
		int maxTokens = this.limits.maxOutputTokens();
		return switch (this.provider) {
			case OPENAI -> OpenAiChatOptions.builder().maxTokens(maxTokens).customHeaders(header);
			case ANTHROPIC -> AnthropicChatOptions.builder().maxTokens(maxTokens).httpHeaders(header);
			default -> ChatOptions.builder().maxTokens(maxTokens);
		};
	}

	private static void complete(CompletableFuture<BranchSummary> summary, Answer answer, FileOperations files) {
		String text = answer.text.toString().strip();
		if (text.isEmpty()) {
			summary.completeExceptionally(new IllegalStateException("the model answered no text"));
			return;
		}
		summary.complete(new BranchSummary(SummaryPrompt.stored(text, files), files.details()));
	}

	private static String outcome(@Nullable Throwable failure) {
		if (failure == null) {
			return "success";
		}
		if (failure instanceof CancellationException) {
			return "aborted";
		}
		return (failure instanceof TimeoutException) ? "timeout" : "failed";
	}

	/** The streamed answer: its text so far and the provider's latest token counts. */
	private final class Answer {

		private final StringBuilder text = new StringBuilder();

		private volatile @Nullable Usage usage;

		void add(ChatResponse response) {
			Generation generation = response.getResult();
			if (generation != null && generation.getOutput().getText() != null) {
				this.text.append(generation.getOutput().getText());
			}
			Usage reported = response.getMetadata().getUsage();
			if (reported != null && reported.getTotalTokens() > 0) {
				this.usage = reported;
			}
		}

		void recordTokens() {
			if (this.usage != null) {
				ChatClientSummarizer.this.inputTokens.increment(orZero(this.usage.getPromptTokens()));
				ChatClientSummarizer.this.outputTokens.increment(orZero(this.usage.getCompletionTokens()));
			}
		}

		private static int orZero(@Nullable Integer tokens) {
			return (tokens != null) ? tokens : 0;
		}

	}

}
