package dev.arbor.config;

import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.arbor.events.EventBus;
import dev.arbor.events.EventStreams;
import dev.arbor.events.SessionHook;
import dev.arbor.events.SessionHooks;
import dev.arbor.events.Webhook;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.support.TaskExecutorAdapter;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/** The SSE streams and the hooks, over the event bus of the store (see {@link StorageConfiguration}). */
@Configuration(proxyBeanMethods = false)
class EventsConfiguration {

	@Bean
	EventStreams eventStreams(EventBus bus, ArborProperties properties, Environment environment, MeterRegistry meters) {
		ArborProperties.Events events = properties.events();
		EventStreams streams = new EventStreams(bus, deliveryExecutor(environment), events.heartbeat(),
				events.maxPending());
		Gauge.builder("arbor.sse.subscribers", streams, EventStreams::size)
			.description("Open Server-Sent Events streams")
			.register(meters);
		return streams;
	}

	/**
	 * Hooks in the order they run: the {@link SessionHook} beans by {@code @Order}, then the webhooks as configured.
	 */
	@Bean
	SessionHooks sessionHooks(ObjectProvider<SessionHook> beans, ArborProperties properties,
			Environment environment, MeterRegistry meters) {
		List<SessionHook> hooks = new ArrayList<>(beans.orderedStream().toList());
		for (ArborProperties.Webhook webhook : properties.hooks().webhooks()) {
			hooks.add(webhook(webhook));
		}
		return new SessionHooks(hooks, threads("arbor-hook-", environment), meters);
	}

	private static Webhook webhook(ArborProperties.Webhook webhook) {
		String scheme = webhook.url().getScheme();
		if (!"http".equals(scheme) && !"https".equals(scheme)) {
			throw new IllegalArgumentException(
					"arbor.hooks.webhooks: " + webhook.url() + " is not an http or https URL");
		}
		HttpClient client = HttpClient.newBuilder()
			.connectTimeout(webhook.timeout())
			.followRedirects(HttpClient.Redirect.NEVER)
			.build();
		return new Webhook(webhook.displayName(), webhook.url(), webhook.events(), webhook.timeout(),
				webhook.secret(), client);
	}

	/** A thread per task: virtual threads where enabled ({@code spring.threads.virtual.enabled}), else platform. */
	private static AsyncTaskExecutor threads(String prefix, Environment environment) {
		SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor(prefix);
		executor.setVirtualThreads(Threading.VIRTUAL.isActive(environment));
		executor.setDaemon(true);
		return executor;
	}

	/**
	 * Writes to SSE clients. A write to a stalled client blocks until the server's write timeout, so the pool grows
	 * as needed instead of letting stalled clients starve the others; idle threads go after a minute. With virtual
	 * threads enabled, each write gets one.
	 */
	private static AsyncTaskExecutor deliveryExecutor(Environment environment) {
		if (Threading.VIRTUAL.isActive(environment)) {
			return threads("arbor-sse-", environment);
		}
		CustomizableThreadFactory factory = new CustomizableThreadFactory("arbor-sse-");
		factory.setDaemon(true);
		ExecutorService pool = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
				new SynchronousQueue<>(), factory);
		return new TaskExecutorAdapter(pool);
	}

}
