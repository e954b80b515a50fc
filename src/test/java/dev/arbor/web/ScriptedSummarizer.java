package dev.arbor.web;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import dev.arbor.session.EntryLine;
import dev.arbor.session.Json;
import dev.arbor.summary.BranchSummarizer;
import dev.arbor.summary.BranchSummary;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A summary model for tests (the real ones come with Spring AI): by default it summarizes by naming the entries it
 * was given, so a test sees exactly what reached the model.
 */
public final class ScriptedSummarizer implements BranchSummarizer {

	/** Registers one as a bean, the summary model of the application: {@code @Import(ScriptedSummarizer.Registered.class)}. */
	@TestConfiguration(proxyBeanMethods = false)
	public static class Registered {

		@Bean
		ScriptedSummarizer scriptedSummarizer() {
			return new ScriptedSummarizer();
		}

	}

	public record Call(List<String> entryIds, @Nullable String customInstructions) {
	}

	public final List<Call> calls = new CopyOnWriteArrayList<>();

	public volatile Function<List<EntryLine>, CompletableFuture<BranchSummary>> answer = ScriptedSummarizer::naming;

	public void reset() {
		this.calls.clear();
		this.answer = ScriptedSummarizer::naming;
	}

	@Override
	public CompletableFuture<BranchSummary> summarize(List<EntryLine> entries, @Nullable String customInstructions) {
		this.calls.add(new Call(entries.stream().map(EntryLine::id).toList(), customInstructions));
		return this.answer.apply(entries);
	}

	@Override
	public String provider() {
		return "scripted";
	}

	static CompletableFuture<BranchSummary> naming(List<EntryLine> entries) {
		return CompletableFuture.completedFuture(new BranchSummary(
				"Summary of " + String.join(",", entries.stream().map(EntryLine::id).toList()),
				Json.newObject().put("by", "scripted")));
	}

}
