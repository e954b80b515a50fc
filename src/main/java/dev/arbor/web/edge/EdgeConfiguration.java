package dev.arbor.web.edge;

import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The checks every request passes before a controller sees it: its path parameters, its media type headers, its
 * body's encoding and its query parameters, and what Tomcat refuses itself. Each refusal is a problem document, written
 * by the API's exception handling where Spring MVC reaches it ({@code problems}) and by {@link ProblemReportValve}
 * where it does not. The request body limits and the API keys have configurations of their own
 * ({@link BodyLimitsConfiguration}, {@link ApiSecurityConfiguration}).
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
	 * Lets an encoded slash through to the API, still encoded, instead of Tomcat's bare 400 page: {@code ..%2F..}
	 * then reaches id validation as one path segment and gets a problem document like any other bad id.
	 */
	@Bean
	TomcatConnectorCustomizer encodedSlashesReachTheApi() {
		return (Connector connector) -> connector.setEncodedSolidusHandling("passthrough");
	}

	/** What Tomcat refuses itself is answered as a problem document too ({@link ProblemReportValve}). */
	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReportsFromTomcat() {
		return factory -> factory.addContextCustomizers(
				context -> ((StandardHost) context.getParent()).setErrorReportValveClass(ProblemReportValve.class.getName()));
	}

}
