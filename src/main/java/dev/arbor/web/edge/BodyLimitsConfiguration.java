package dev.arbor.web.edge;

import dev.arbor.config.ArborProperties;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * How much of the server a request body may take: its size, the memory it needs, how long it may take to arrive,
 * and how many may be arriving at once ({@code arbor.api.*}), so that clients that stall their bodies cannot starve
 * reads and health, and large bodies queue rather than run the heap out.
 */
@Configuration(proxyBeanMethods = false)
class BodyLimitsConfiguration {

	@Bean
	FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(ArborProperties properties,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
		ArborProperties.Api api = properties.api();
		FilterRegistrationBean<RequestBodyLimitFilter> registration = new FilterRegistrationBean<>(
				new RequestBodyLimitFilter(api.maxRequestBytes(), api.bodyTimeout(), problems));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 100);
		return registration;
	}

	/** After the size limit: a body it refuses reserves nothing. */
	@Bean
	FilterRegistrationBean<RequestMemoryFilter> requestMemoryFilter(ArborProperties properties,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
		ArborProperties.Api api = properties.api();
		FilterRegistrationBean<RequestMemoryFilter> registration = new FilterRegistrationBean<>(new RequestMemoryFilter(
				api.requestMemory(), api.maxRequestBytes(), ArborProperties.Api.BODY_COPIES, problems));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 102);
		return registration;
	}

	/**
	 * Each read of a body waits at most {@code arbor.api.body-timeout} for bytes: Jetty bounds a read by its
	 * connections' idle timeout ({@code server.jetty.connection-idle-timeout}, 30 seconds unless set), so that is
	 * lowered to the body timeout where it is longer. {@link RequestBodyLimitFilter} bounds the whole body. The same
	 * timeout ends an event stream that writes nothing for as long, so {@code arbor.events.heartbeat} (15 seconds)
	 * stays below it.
	 */
	@Bean
	JettyServerCustomizer bodyReadTimeout(ArborProperties properties) {
		long millis = properties.api().bodyTimeout().toMillis();
		return server -> {
			for (Connector connector : server.getConnectors()) {
				if (connector instanceof AbstractConnector bounded && bounded.getIdleTimeout() > millis) {
					bounded.setIdleTimeout(millis);
				}
			}
		};
	}

	/**
	 * First of the filters: a request refused for want of a slot reserves nothing else, and the slot bounds the
	 * bodies the filters after it wait for.
	 */
	@Bean
	FilterRegistrationBean<BodyRequestFilter> bodyRequestSlots(ArborProperties properties) {
		ArborProperties.Api api = properties.api();
		FilterRegistrationBean<BodyRequestFilter> registration = new FilterRegistrationBean<>(
				new BodyRequestFilter(new BodyRequestSlots(api.maxBodyRequests(), api.maxBodyRequestsPerClient())));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

}
