package dev.arbor.web;

import java.util.List;

import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.tomcat.TomcatConnectorCustomizer;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.type.LogicalType;

/** How the API reads requests and writes responses. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

	@Override
	public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
		resolvers.add(new ExpectedLeafResolver());
	}

	@Override
	public void addInterceptors(InterceptorRegistry registry) {
		registry.addInterceptor(new QueryParameterCheck());
	}

	@Override
	public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
		builder.withYamlConverter(new NoYamlConverter());
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
	 * Strict JSON for requests: a number is no string, a string no boolean (a wrong type is a 400, not a guess),
	 * and drafts keep the digits of their decimals as the engine does ({@code Json.MAPPER}).
	 */
	@Bean
	JsonMapperBuilderCustomizer strictRequests() {
		return builder -> builder.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
			.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
			.disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
			.withCoercionConfig(LogicalType.Textual, config -> config.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
	}

	@Bean
	StoredJsonModule storedJsonModule() {
		return new StoredJsonModule();
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
