package dev.arbor.config;

import java.net.http.HttpClient;

import dev.arbor.summary.BranchSummarizer;
import dev.arbor.summary.ChatClientSummarizer;
import dev.arbor.summary.ProviderCalls;
import dev.arbor.summary.SummaryLimits;
import dev.arbor.summary.SummaryProvider;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.anthropic.http.okhttp.AnthropicHttpClientBuilderCustomizer;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.http.okhttp.OpenAiHttpClientBuilderCustomizer;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer;
import org.springframework.boot.http.client.reactive.JdkClientHttpConnectorBuilder;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * The summary model: Spring AI's chat model of {@code arbor.summary.provider} (application.properties selects it
 * as {@code spring.ai.model.chat}) behind a {@link ChatClientSummarizer}.
 *
 * <p>A provider that is not configured (OpenAI without a key, say) makes Spring AI's chat model fail to build.
 * That must not stop Arbor, whose other features need no model: the chat model is built lazily, here, and when it
 * cannot be, there is no {@link BranchSummarizer} and summarizing navigations answer 422, as with {@code none}.
 */
@Configuration(proxyBeanMethods = false)
class SummaryConfiguration {

	private static final Log log = LogFactory.getLog(SummaryConfiguration.class);

	/** Keeps Spring AI from building its chat model at startup; {@link #branchSummarizer} builds it. */
	@Bean
	static BeanFactoryPostProcessor lazyChatModels() {
		return beanFactory -> {
			for (String name : beanFactory.getBeanNamesForType(ChatModel.class, true, false)) {
				beanFactory.getBeanDefinition(name).setLazyInit(true);
			}
		};
	}

	@Bean
	ProviderCalls providerCalls() {
		return new ProviderCalls();
	}

	@Bean
	OpenAiHttpClientBuilderCustomizer openAiSummaryCalls(ProviderCalls calls) {
		return builder -> builder.interceptor(calls);
	}

	@Bean
	AnthropicHttpClientBuilderCustomizer anthropicSummaryCalls(ProviderCalls calls) {
		return builder -> builder.interceptor(calls);
	}

	/**
	 * Ollama's clients ({@code WebClient} and {@code RestClient}) run on the JDK's {@code HttpClient}, and speak
	 * HTTP/1.1 as Ollama does: the JDK's default, HTTP/2, would ask a plain-HTTP server to upgrade ({@code h2c}) on
	 * every request, which servers and proxies in front of a model may refuse.
	 */
	@Bean
	ClientHttpConnectorBuilderCustomizer<JdkClientHttpConnectorBuilder> http11Connector() {
		return builder -> builder.withHttpClientCustomizer(client -> client.version(HttpClient.Version.HTTP_1_1));
	}

	@Bean
	ClientHttpRequestFactoryBuilderCustomizer<JdkClientHttpRequestFactoryBuilder> http11RequestFactory() {
		return builder -> builder.withHttpClientCustomizer(client -> client.version(HttpClient.Version.HTTP_1_1));
	}

	/** Ollama's client is a {@code WebClient}; the filter does nothing to exchanges that are no summary's. */
	@Bean
	WebClientCustomizer ollamaSummaryCalls(ProviderCalls calls) {
		return builder -> builder.filter(calls.exchangeFilter());
	}

	/**
	 * The summarizer, or none (a {@code null} bean, which injection points see as absent) when the provider's chat
	 * model cannot be built.
	 */
	@Bean
	@Conditional(ProviderSelected.class)
	@Nullable BranchSummarizer branchSummarizer(ObjectProvider<ChatClient.Builder> chatClients,
			ProviderCalls calls, ArborProperties properties, MeterRegistry meters) {
		ArborProperties.Summary summary = properties.summary();
		SummaryProvider provider = summary.provider();
		ChatClient client;
		try {
			client = chatClients.getObject().build();
		}
		catch (BeansException ex) {
			log.warn("arbor.summary.provider is " + provider.id() + ", but its Spring AI chat model is not configured ("
					+ NestedExceptionUtils.getMostSpecificCause(ex).getMessage()
					+ "). Navigations with summarize:true answer 422 until it is configured and Arbor restarted.");
			return null;
		}
		log.info("Branch summaries by " + provider.id());
		return new ChatClientSummarizer(client, provider,
				new SummaryLimits(summary.tokenBudget(), summary.maxOutputTokens(), summary.timeout()), calls, meters);
	}

	/** {@code arbor.summary.provider} names a provider: it is set, and not to {@code none}. */
	static class ProviderSelected extends NoneNestedConditions {

		ProviderSelected() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnProperty(name = "arbor.summary.provider", havingValue = "none", matchIfMissing = true)
		static class NoProvider {

		}

	}

}
