package dev.arbor.web.edge;

import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The checks every request passes before a controller sees it: its path parameters, its media type headers, its
 * body's encoding and its query parameters, and what Jetty refuses itself. Each refusal is a problem document, written
 * by the API's exception handling where Spring MVC reaches it ({@code problems}) and by {@link ProblemErrorHandler}
 * where it does not; and the workers that serve them. The request body limits and the API keys have configurations of
 * their own ({@link BodyLimitsConfiguration}, {@link ApiSecurityConfiguration}).
 */
@Configuration(proxyBeanMethods = false)
class EdgeConfiguration implements WebMvcConfigurer {

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(new QueryParameterCheck());
	}

	@Bean
	FilterRegistrationBean<PathParameterFilter> pathParameterFilter(
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
		FilterRegistrationBean<PathParameterFilter> registration = new FilterRegistrationBean<>(
				new PathParameterFilter(problems));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 99);
		return registration;
	}

	/** Before the security filters: their refusals are problem documents too, written as {@code Accept} allows. */
	@Bean
	FilterRegistrationBean<MediaTypeHeadersFilter> mediaTypeHeadersFilter(
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
		FilterRegistrationBean<MediaTypeHeadersFilter> registration = new FilterRegistrationBean<>(
				new MediaTypeHeadersFilter(problems));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 80); // first: every refusal after it needs a readable Accept
		return registration;
	}

	@Bean
	FilterRegistrationBean<Utf8BodyFilter> utf8BodyFilter() {
		FilterRegistrationBean<Utf8BodyFilter> registration = new FilterRegistrationBean<>(new Utf8BodyFilter());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 103);
		return registration;
	}

	/**
	 * Lets an encoded slash, an encoded dot segment, an encoded percent sign and an encoded line break through to the
	 * API, still encoded, instead of Jetty's refusal of an ambiguous or suspicious path: {@code ..%2F..},
	 * {@code %2E%2E}, {@code ..%252F} or {@code x%0Ay} then reach id validation as one path segment and get the problem document of any other bad id
	 * (invalid-id), which tells the client what an id may be. Jetty checks twice, when it parses the request line and
	 * when the servlet API is asked for the path. What Jetty still refuses itself ({@code %00}, a backslash, bytes
	 * that are no UTF-8) is answered by {@link ProblemErrorHandler}.
	 */
	@Bean
	JettyServerCustomizer encodedSlashesReachTheApi() {
		UriCompliance compliance = UriCompliance.DEFAULT.with("arbor",
				UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR, UriCompliance.Violation.AMBIGUOUS_PATH_SEGMENT,
				UriCompliance.Violation.AMBIGUOUS_PATH_ENCODING, UriCompliance.Violation.SUSPICIOUS_PATH_CHARACTERS);
		return server -> {
			for (Connector connector : server.getConnectors()) {
				HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
				if (http != null) {
					http.getHttpConfiguration().setUriCompliance(compliance);
				}
			}
			for (ServletContextHandler context : server.getDescendants(ServletContextHandler.class)) {
				context.getServletHandler().setDecodeAmbiguousURIs(true);
			}
		};
	}

	/**
	 * {@code CONNECT} and a transfer coding other than chunked get 501 and a closed connection, {@code TRACE} 405
	 * ({@link ProtocolRefusal}).
	 */
	@Bean
	JettyServerCustomizer unservedMethodsRefused() {
		return server -> server.setHandler(new ProtocolRefusal(server.getHandler()));
	}

	/** What Jetty refuses or answers itself is a problem document too ({@link ProblemErrorHandler}). */
	@Bean
	JettyServerCustomizer problemReportsFromJetty(ServerProperties server) {
		ProblemErrorHandler problems = new ProblemErrorHandler(server.getMaxHttpRequestHeaderSize());
		return jetty -> {
			jetty.setErrorHandler(problems);
			for (ContextHandler context : jetty.getDescendants(ContextHandler.class)) {
				context.setErrorHandler(problems);
			}
		};
	}

	/**
	 * Idle workers leave together once {@code server.jetty.threads.idle-timeout} has passed, not one per timeout as
	 * Jetty's pool lets them by default: after a rush (thousands of event streams opening at once fill the pool to
	 * {@code server.jetty.threads.max}), the threads are back to idle within a minute, where one a minute would take
	 * hours (docs/BENCHMARKS.md#event-streams-benchevent-streamssh).
	 */
	@Bean
	JettyServerCustomizer idleWorkersLeaveTogether() {
		return server -> {
			if (server.getThreadPool() instanceof QueuedThreadPool pool) {
				pool.setMaxEvictCount(pool.getMaxThreads());
			}
		};
	}

}
