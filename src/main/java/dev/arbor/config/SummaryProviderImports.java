package dev.arbor.config;

import java.util.Locale;

import dev.arbor.summary.SummaryProvider;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.AutoConfigurationImportFilter;
import org.springframework.boot.autoconfigure.AutoConfigurationMetadata;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;

/**
 * Leaves out the Spring AI auto-configurations that {@code arbor.summary.provider} does not use: all of them with
 * {@code none}, the other providers' with one selected. Registered in {@code META-INF/spring.factories}.
 *
 * <p>Why a filter: it runs on class names, before any auto-configuration class is read. With every provider's
 * auto-configuration left in, Ollama's built its API client at every start, whatever the provider, and a Reactor
 * Netty client with it: a second of start-up on two cores, for a model that was not configured.
 */
final class SummaryProviderImports implements AutoConfigurationImportFilter, EnvironmentAware {

	private static final String SPRING_AI = "org.springframework.ai.";

	/** Where Spring AI keeps a provider's auto-configurations: {@code org.springframework.ai.model.openai.}. */
	private static final String PROVIDER_PACKAGE = SPRING_AI + "model.%s.";

	private @Nullable SummaryProvider provider;

	@Override
	public void setEnvironment(Environment environment) {
		try {
			this.provider = Binder.get(environment)
				.bind("arbor.summary.provider", SummaryProvider.class)
				.orElse(SummaryProvider.NONE);
		}
		catch (BindException ex) {
			this.provider = null; // not a provider: everything stays, and validating ArborProperties says why
		}
	}

	@Override
	public boolean[] match(@Nullable String[] autoConfigurationClasses,
			AutoConfigurationMetadata autoConfigurationMetadata) {
		boolean[] matches = new boolean[autoConfigurationClasses.length];
		for (int i = 0; i < autoConfigurationClasses.length; i++) {
			String candidate = autoConfigurationClasses[i];
			matches[i] = candidate == null || this.provider == null || isUsed(candidate, this.provider);
		}
		return matches;
	}

	private static boolean isUsed(String autoConfiguration, SummaryProvider selected) {
		if (!autoConfiguration.startsWith(SPRING_AI)) {
			return true;
		}
		if (selected == SummaryProvider.NONE) {
			return false;
		}
		for (SummaryProvider other : SummaryProvider.values()) {
			if (other != SummaryProvider.NONE && other != selected
					&& autoConfiguration.startsWith(String.format(Locale.ROOT, PROVIDER_PACKAGE, other.id()))) {
				return false;
			}
		}
		return true; // the selected provider's, or what every provider builds on (chat client, tools, retries)
	}

}
