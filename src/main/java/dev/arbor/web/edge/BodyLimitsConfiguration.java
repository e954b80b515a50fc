package dev.arbor.web.edge;

import dev.arbor.config.ArborProperties;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
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
	 * Each read of a body waits at most {@code arbor.api.body-timeout} for bytes (Tomcat's upload timeout; without
	 * it a read waits as long as {@code server.tomcat.connection-timeout}); {@link RequestBodyLimitFilter} bounds the
	 * whole body.
	 */
	@Bean
	TomcatConnectorCustomizer bodyReadTimeout(ArborProperties properties) {
		int millis = (int) Math.min(Integer.MAX_VALUE, properties.api().bodyTimeout().toMillis());
		return (Connector connector) -> {
			if (connector.getProtocolHandler() instanceof AbstractHttp11Protocol<?> http) {
				http.setDisableUploadTimeout(false);
				http.setConnectionUploadTimeout(millis);
			}
		};
	}

	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> bodyRequestSlots(ArborProperties properties) {
		ArborProperties.Api api = properties.api();
		return factory -> factory.addContextValves(
				new BodyRequestValve(new BodyRequestSlots(api.maxBodyRequests(), api.maxBodyRequestsPerClient())));
	}

}
