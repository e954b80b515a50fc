package dev.arbor.config;

import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.arbor.events.EventBus;
import dev.arbor.events.EventStreams;
import dev.arbor.events.SessionHook;
import dev.arbor.events.SessionHooks;
import dev.arbor.events.Webhook;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/** The SSE streams and the hooks, over the event bus of the store (see {@link StorageConfiguration}). */
@Configuration(proxyBeanMethods = false)
class EventsConfiguration {

	@Bean
	EventStreams eventStreams(EventBus bus, ArborProperties properties, Environment environment, MeterRegistry meters) {
		ArborProperties.Events events = properties.events();
		int maxConnections = environment.getProperty("server.jetty.max-connections", Integer.class, -1);
		if (maxConnections >= 0 && events.maxStreams() >= maxConnections) {
			throw new IllegalStateException("arbor.events.max-streams (" + events.maxStreams()
					+ ") must be below server.jetty.max-connections (" + maxConnections
					+ "): open streams would take every connection, and nothing else would be answered");
		}
		EventStreams.Limits limits = new EventStreams.Limits(events.maxStreams(), events.maxPending(),
				events.maxPendingBytes().toBytes(), events.heartbeat());
		return new EventStreams(bus, deliveryPool(), limits, meters);
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
	 * Writes to SSE clients. The writes never block (docs/ARCHITECTURE.md#event-streams), so a thread per core is
	 * enough for any number of streams; the threads go when the streams are quiet for a few seconds.
	 */
	private static ThreadPoolExecutor deliveryPool() {
		CustomizableThreadFactory factory = new CustomizableThreadFactory("arbor-sse-");
		factory.setDaemon(true);
		int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
		ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 10, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), factory);
		pool.allowCoreThreadTimeOut(true);
		return pool;
	}

}
