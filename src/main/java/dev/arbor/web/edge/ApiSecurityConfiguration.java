package dev.arbor.web.edge;

import java.util.List;

import dev.arbor.config.ArborProperties;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.UrlBasedCorsConfigurationSource;
import org.springframework.web.filter.CorsFilter;
import org.springframework.web.servlet.HandlerExceptionResolver;

/**
 * Who may call the API ({@code arbor.security.*}), as servlet filters in front of everything else: security
 * headers on every answer, CORS for browser frontends (a preflight is answered before any key is asked for), then
 * the API keys. Plain filters rather than Spring Security: the API has no sessions, cookies or forms, so a filter
 * chain with CSRF and session management to switch off would be more to audit than one header comparison.
 */
@Configuration(proxyBeanMethods = false)
class ApiSecurityConfiguration {

	@Bean
	FilterRegistrationBean<SecurityHeadersFilter> securityHeadersFilter() {
		FilterRegistrationBean<SecurityHeadersFilter> registration = new FilterRegistrationBean<>(
				new SecurityHeadersFilter());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 90);
		return registration;
	}

	@Bean
	FilterRegistrationBean<CorsFilter> corsFilter(ArborProperties properties) {
		ArborProperties.Cors cors = properties.security().cors();
		CorsConfiguration configuration = new CorsConfiguration();
		configuration.setAllowedOriginPatterns(cors.allowedOrigins());
		configuration.setAllowedMethods(List.of("GET", "POST", "PUT", "DELETE"));
		configuration.setAllowedHeaders(List.of(HttpHeaders.AUTHORIZATION, HttpHeaders.CONTENT_TYPE,
				HttpHeaders.IF_MATCH, HttpHeaders.ACCEPT, "Last-Event-ID", "Idempotency-Key"));
		// docs/API.md#idempotent-appends: a script tells a replayed append by its header
		configuration.setExposedHeaders(List.of(HttpHeaders.ETAG, HttpHeaders.LOCATION, "Idempotent-Replayed"));
		configuration.setMaxAge(cors.maxAge());
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		source.registerCorsConfiguration("/**", configuration);
		CorsFilter filter = new CorsFilter(source);
		filter.setCorsProcessor(new ProblemCorsProcessor());
		FilterRegistrationBean<CorsFilter> registration = new FilterRegistrationBean<>(filter);
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 95);
		return registration;
	}

	@Bean
	FilterRegistrationBean<ApiKeyFilter> apiKeyFilter(ArborProperties properties,
			@Qualifier("handlerExceptionResolver") HandlerExceptionResolver problems) {
		List<String> keys = properties.security().keys();
		FilterRegistrationBean<ApiKeyFilter> registration = new FilterRegistrationBean<>(
				new ApiKeyFilter(keys, problems));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 97);
		registration.setEnabled(!keys.isEmpty());
		return registration;
	}

}
